import Foundation
import MustCore
import TMDBStub
import Testing

/// A database of schema 0013 (every migration before 0014, applied by plain SQLite over the release before
/// identities' rows, with tonight's data, an age limit, watched marks and ratings) gains 0014 in place, losing
/// nothing; every movie's extras are due again so its next check brings the overview, and a night works at once.
@Suite struct MovieNightUpgradeTests {
    let scratch = TemporaryDirectory("upgrade-night")
    var path: String { scratch.file("old.sqlite") }

    @Test func everyRowSurvivesAndNightsWorkOnTheOldRows() throws {
        let applied = try UpgradeTests.writeDatabase(
            at: path, keeping: { $0 < "0014" },
            then: """
                UPDATE movie SET runtime = 101, genres = 'Comedy' || char(10) || 'Romance', certification = 'R'
                    WHERE id = 1;
                UPDATE movieSchedule SET extrasCheckedAt = 1795000000, extrasRegion = 'US' WHERE movieId = 1;
                INSERT INTO certificationOrder VALUES ('US', 'PG', 2), ('US', 'R', 4);
                UPDATE member SET ageLimit = 'PG' WHERE id = 2;
                UPDATE memberMovie SET watched = 1, watchedOn = '2026-10-31', ownRating = 9
                    WHERE memberId = 1 AND movieId = 1;

                """)
        #expect(applied.contains { $0.hasPrefix("0013") } && !applied.contains { $0.hasPrefix("0014") })
        let tables = ["member", "movie", "memberMovie", "movieSchedule", "movieHistory", "certificationOrder"]
        let counts = try tables.map { try sqlite(path, "SELECT count(*) FROM \($0)") }
        let movies = try sqlite(
            path, "SELECT id, title, remoteId, voteCount, runtime, genres, certification FROM movie ORDER BY id")
        let links = try sqlite(
            path,
            "SELECT memberId, movieId, addedAt, watched, watchedOn, ownRating FROM memberMovie ORDER BY memberId, movieId"
        )
        let store = try Store(path: path, logger: quietLogger)
        #expect(try sqlite(path, "SELECT count(*) FROM schemaMigration WHERE identifier = '0014_movie_night'") == "1")
        #expect(try sqlite(path, "PRAGMA foreign_key_check") == "")
        #expect(try sqlite(path, "PRAGMA integrity_check") == "ok")
        #expect(try tables.map { try sqlite(path, "SELECT count(*) FROM \($0)") } == counts)
        #expect(
            try sqlite(
                path, "SELECT id, title, remoteId, voteCount, runtime, genres, certification FROM movie ORDER BY id")
                == movies)
        #expect(
            try sqlite(
                path,
                "SELECT memberId, movieId, addedAt, watched, watchedOn, ownRating FROM memberMovie ORDER BY memberId, movieId"
            ) == links)
        #expect(try sqlite(path, "SELECT ageLimit FROM member WHERE id = 2") == "PG")
        #expect(try sqlite(path, "SELECT count(*) FROM movie WHERE overview IS NOT NULL") == "0")
        #expect(try sqlite(path, "SELECT count(*) FROM movieSchedule WHERE extrasCheckedAt IS NOT NULL") == "0")
        // The new parts on the old rows: a night, its undo, and the taste read from Ann's rating.
        guard
            case .recorded(let night) = try store.recordNight(
                movie: .tmdb(194), members: ["Ann", "Bob"], on: try #require(WatchDay.parse("2026-11-20")),
                now: Date(timeIntervalSince1970: 1_795_000_000))
        else {
            Issue.record("no night recorded on the old rows")
            return
        }
        #expect(night.watchers == [NightWatcher(name: "Ann", rating: 9), NightWatcher(name: "Bob", rating: nil)])
        _ = try store.undoNight(id: night.id)
        #expect(
            try sqlite(
                path,
                "SELECT memberId, movieId, addedAt, watched, watchedOn, ownRating FROM memberMovie ORDER BY memberId, movieId"
            ) == links)
        let library = try store.movieNight(members: ["Ann"], trendSince: testStart, region: "US", taste: true)
        #expect(library.tastes.first?.genres[TitleKey.make("Comedy")]?.films == 1)
    }
}
