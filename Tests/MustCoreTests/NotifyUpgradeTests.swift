import Foundation
import MustCore
import TMDBStub
import Testing

/// A database of the schema before 0016 (every earlier migration from `Migrations/`, applied by plain SQLite
/// over the old release's rows) gains the outbox in place, losing nothing, and notifications work on it at once.
@Suite struct NotifyUpgradeTests {
    let scratch = TemporaryDirectory("upgrade-notify")
    var path: String { scratch.file("old.sqlite") }

    @Test func everyRowSurvivesAndTheOutboxStartsEmpty() throws {
        let applied = try UpgradeTests.writeDatabase(
            at: path, keeping: { $0 < "0016" },
            then: "INSERT INTO movieHistory (movieId, at, popularity, voteAverage) VALUES (1, 5, 1, 7.9);\n")
        #expect(applied.contains("0013_age_limit.sql") && !applied.contains { $0.hasPrefix("0016") })
        let tables = [
            "SELECT id, name FROM member ORDER BY id",
            "SELECT id, title, remoteId, popularity, voteAverage, voteCount FROM movie ORDER BY id",
            "SELECT memberId, movieId FROM memberMovie ORDER BY memberId, movieId",
            "SELECT movieId, at, popularity, voteAverage FROM movieHistory ORDER BY id",
            "SELECT startedAt, result, movies, changed FROM fetchRun ORDER BY id",
        ]
        let before = try tables.map { try sqlite(path, $0) }
        #expect(before[1].split(separator: "\n").count == 4 && before[2].split(separator: "\n").count == 5)
        let store = try Store(path: path, logger: quietLogger)
        #expect(try sqlite(path, "SELECT count(*) FROM schemaMigration WHERE identifier = '0016_notify'") == "1")
        #expect(try sqlite(path, "PRAGMA foreign_key_check") == "")
        #expect(try sqlite(path, "PRAGMA integrity_check") == "ok")
        #expect(try tables.map { try sqlite(path, $0) } == before)
        #expect(try store.members().map(\.movies) == [2, 3])
        #expect(try sqlite(path, "SELECT count(*) FROM notifyOutbox") == "0")
        // The new parts work on the old rows: a message waits, status names its destination, the family is named.
        let now = Date(timeIntervalSince1970: 1_795_694_400)
        try store.enqueue(NotifyMessage(title: "t", body: "b", items: 1), to: ["ntfy"], now: now)
        #expect(try store.status(now: now).notify.map { [$0.name, String($0.waiting)] } == [["ntfy", "1"]])
        #expect(try store.memberNames() == ["Ann", "Bob"])
        #expect(try store.tonightLastSent() == nil)
    }
}
