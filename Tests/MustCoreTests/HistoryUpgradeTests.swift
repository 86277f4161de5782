import Foundation
import MustCore
import TMDBStub
import Testing

/// A database written by the schema without 0005 (the repository's own migration files but 0005, applied by
/// plain SQLite, with rows written in between as mustc wrote them) gains the history in place; 0006 and later
/// landed on main before 0005, so a file from main has them already.
@Suite struct HistoryUpgradeTests {
    let scratch = TemporaryDirectory("upgrade-history")
    var path: String { scratch.file("old.sqlite") }

    /// 0001–0003, the rows of the release before identities, then 0004 and every later migration but 0005.
    static func writeDatabaseBeforeHistory(at path: String) throws {
        try UpgradeTests.writeDatabase(at: path, keeping: { !$0.hasPrefix("0005") })
    }

    @Test func theHistoryStartsWithABaselineForEveryMovieWithFigures() throws {
        try Self.writeDatabaseBeforeHistory(at: path)
        #expect(try sqlite(path, "SELECT count(*) FROM schemaMigration WHERE identifier = '0005_history'") == "0")
        let store = try Store(path: path, logger: quietLogger)
        #expect(try sqlite(path, "SELECT count(*) FROM schemaMigration WHERE identifier = '0005_history'") == "1")
        #expect(try sqlite(path, "PRAGMA foreign_key_check") == "")
        #expect(try sqlite(path, "PRAGMA integrity_check") == "ok")
        // Amélie and Dune had figures, written 2026-11-02 10:00 UTC; the two unresolved movies have none.
        #expect(
            try sqlite(path, "SELECT movieId, baseline, voteCount, CAST(at AS INTEGER) FROM movieHistory ORDER BY 1")
                == "1|1|11412|1793613600\n2|1|12000|1793613600")
        #expect(try sqlite(path, "SELECT count(*) FROM hookRun") == "0")
        let since = Date(timeIntervalSince1970: 1_700_000_000)
        #expect(try store.changes(since: since).changes.isEmpty)
        #expect(try store.status(now: testStart).hook == nil)

        // The next check that finds Amélie changed records a change from the figures the old release stored.
        var amelie = StoreIdentityTests.amelie
        amelie.voteCount = 11_500
        try store.apply([.ratings(movieId: 1, amelie)], now: testStart)
        let change = try #require(try store.changes(since: since).changes.first)
        #expect(change.first.figures == Figures(popularity: 7.248, voteAverage: 7.9, voteCount: 11_412))
        #expect(change.last.figures.voteCount == 11_500)
        #expect(change.members == ["Ann", "Bob"])
        // Removing a movie takes its history with it.
        _ = try store.unlink(member: "Ann", title: "Dune")
        #expect(try sqlite(path, "SELECT count(*) FROM movieHistory WHERE movieId = 2") == "0")
    }
}
