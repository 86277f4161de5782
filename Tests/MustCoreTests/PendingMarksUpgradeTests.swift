import Foundation
import MustCore
import TMDBStub
import Testing

/// A database of schema 0021 (every migration before 0022, applied by plain SQLite, with a media server's mark and
/// a movie waiting for a choice) gains 0022 in place, losing nothing; a server's watch of the waiting movie's bare
/// title is then held on the old rows, and settling the movie applies it.
@Suite struct PendingMarksUpgradeTests {
    let scratch = TemporaryDirectory("upgrade-pending-marks")
    var path: String { scratch.file("old.sqlite") }

    @Test func everyRowSurvivesAndAHeldWatchWaitsForTheChoice() throws {
        let applied = try UpgradeTests.writeDatabase(
            at: path, keeping: { $0 < "0022" },
            then: """
                UPDATE memberMovie SET watched = 1, watchedOn = '2026-11-20', watchedSource = 'emby'
                    WHERE memberId = 1 AND movieId = 1;
                INSERT INTO movie (id, title, titleKey, identityKey, createdAt)
                    VALUES (5, 'The Lion King', 'the lion king', 'title:the lion king', '2026-11-01 10:00:00.000');
                INSERT INTO memberMovie (memberId, movieId, addedAt) VALUES (2, 5, '2026-11-01 10:00:00.000');
                INSERT INTO movieCandidate (movieId, rank, remoteId, title, year)
                    VALUES (5, 0, 8587, 'The Lion King', 1994), (5, 1, 420818, 'The Lion King', 2019);

                """)
        #expect(applied.contains { $0.hasPrefix("0021") } && !applied.contains { $0 >= "0022" })
        let tables = ["member", "movie", "memberMovie", "movieCandidate", "movieAlias", "movieHistory", "fetchRun"]
        let counts = try tables.map { try sqlite(path, "SELECT count(*) FROM \($0)") }
        let linksQuery =
            "SELECT memberId, movieId, addedAt, watched, watchedOn, ownRating, watchedSource FROM memberMovie ORDER BY 1, 2"
        let links = try sqlite(path, linksQuery)
        let store = try Store(path: path, logger: quietLogger)
        #expect(try sqlite(path, "SELECT count(*) FROM schemaMigration WHERE identifier = '0022_pending_marks'") == "1")
        #expect(try sqlite(path, "PRAGMA foreign_key_check") == "")
        #expect(try sqlite(path, "PRAGMA integrity_check") == "ok")
        #expect(try tables.map { try sqlite(path, "SELECT count(*) FROM \($0)") } == counts)
        #expect(try sqlite(path, linksQuery) == links)
        #expect(try sqlite(path, "SELECT count(*) FROM pendingMark") == "0")

        // Plex's watch of the bare title is held on the old waiting movie, not applied.
        let day = try #require(WatchDay.parse("2026-11-22"))
        let event = MediaEvent(server: .plex, user: "bob", title: "The Lion King", kind: .watched)
        let outcome = try store.recordMediaEvent(event, day: day, now: testStart)
        #expect(outcome.said.hasPrefix("held Bob's watched mark on The Lion King (2026-11-22)"), "\(outcome.said)")
        #expect(try sqlite(path, "SELECT watched FROM memberMovie WHERE memberId = 2 AND movieId = 5") == "0")
        #expect(try store.status(now: testStart).needsChoice.first?.held.map(\.member) == ["Bob"])
        // Choosing applies it, with its day and its server.
        let remote = RemoteMovie(id: 420818, title: "The Lion King", releaseDate: "2019-07-12")
        _ = try store.resolve(movieId: 5, with: remote, now: testStart)
        #expect(
            try sqlite(
                path, "SELECT watched, watchedOn, watchedSource FROM memberMovie WHERE memberId = 2 AND movieId = 5")
                == "1|2026-11-22|plex")
        #expect(try sqlite(path, "SELECT count(*) FROM pendingMark") == "0")
        #expect(try sqlite(path, "SELECT watchedSource FROM memberMovie WHERE memberId = 1 AND movieId = 1") == "emby")
    }
}
