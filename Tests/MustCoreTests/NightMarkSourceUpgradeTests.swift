import Foundation
import MustCore
import TMDBStub
import Testing

/// A database of schema 0019 (every migration before 0020, applied by plain SQLite, with a media server's mark
/// and a night recorded by the release before) gains 0020 in place, losing nothing: the old night is taken back as
/// before, and a new night over the server's mark gives it back to the server when taken back.
@Suite struct NightMarkSourceUpgradeTests {
    let scratch = TemporaryDirectory("upgrade-mark-source")
    var path: String { scratch.file("old.sqlite") }

    @Test func everyRowSurvivesAndANightRestoresTheMarksSource() throws {
        let applied = try UpgradeTests.writeDatabase(
            at: path, keeping: { $0 < "0020" },
            then: """
                UPDATE memberMovie SET watched = 1, watchedOn = '2026-11-20', watchedSource = 'emby'
                    WHERE memberId = 1 AND movieId = 1;
                INSERT INTO movieNight (id, movieId, day, recordedAt) VALUES (1, 1, '2026-11-21', 1795000000);
                INSERT INTO movieNightWatcher (nightId, memberId, linked, watchedBefore, watchedOnBefore)
                    VALUES (1, 2, 0, 0, NULL);
                UPDATE memberMovie SET watched = 1, watchedOn = '2026-11-21' WHERE memberId = 2 AND movieId = 1;

                """)
        #expect(applied.contains { $0.hasPrefix("0019") } && !applied.contains { $0.hasPrefix("0020") })
        let tables = ["member", "movie", "memberMovie", "movieNight", "movieNightWatcher", "movieHistory"]
        let counts = try tables.map { try sqlite(path, "SELECT count(*) FROM \($0)") }
        let linksQuery =
            "SELECT memberId, movieId, addedAt, watched, watchedOn, ownRating, watchedSource FROM memberMovie ORDER BY 1, 2"
        let links = try sqlite(path, linksQuery)
        let store = try Store(path: path, logger: quietLogger)
        #expect(
            try sqlite(path, "SELECT count(*) FROM schemaMigration WHERE identifier = '0020_night_mark_source'") == "1")
        #expect(try sqlite(path, "PRAGMA foreign_key_check") == "")
        #expect(try sqlite(path, "PRAGMA integrity_check") == "ok")
        #expect(try tables.map { try sqlite(path, "SELECT count(*) FROM \($0)") } == counts)
        #expect(try sqlite(path, linksQuery) == links)
        #expect(try sqlite(path, "SELECT count(*) FROM movieNightWatcher WHERE watchedSourceBefore IS NULL") == "1")

        // The old night, taken back, puts Bob's link back as it was; Ann's server mark is untouched.
        #expect(try store.undoNight(id: 1)?.watchers.map(\.name) == ["Bob"])
        #expect(
            try sqlite(path, "SELECT watched, watchedOn FROM memberMovie WHERE memberId = 2 AND movieId = 1") == "0|")
        #expect(try sqlite(path, "SELECT watchedSource FROM memberMovie WHERE memberId = 1 AND movieId = 1") == "emby")
        // A new night over Ann's server mark makes it the family's; taking it back gives it back to the server.
        let day = try #require(WatchDay.parse("2026-11-22"))
        guard
            case .recorded(let night) = try store.recordNight(
                movie: .tmdb(194), members: ["Ann"], on: day, now: Date(timeIntervalSince1970: 1_795_100_000))
        else {
            Issue.record("no night recorded on the old rows")
            return
        }
        #expect(
            try sqlite(path, "SELECT watchedSource IS NULL FROM memberMovie WHERE memberId = 1 AND movieId = 1") == "1")
        _ = try store.undoNight(id: night.id)
        #expect(
            try sqlite(
                path, "SELECT watched, watchedOn, watchedSource FROM memberMovie WHERE memberId = 1 AND movieId = 1")
                == "1|2026-11-20|emby")
    }
}
