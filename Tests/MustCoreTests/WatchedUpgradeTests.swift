import Foundation
import MustCore
import TMDBStub
import Testing

/// A database written by the schema just before 0008 (0001–0007, the repository's own migration files applied by
/// plain SQLite, with rows as mustc wrote them) gains the watched marks in place: every member, movie,
/// link and rating stays, and no link is watched or rated until someone says so.
@Suite struct WatchedUpgradeTests {
    let scratch = TemporaryDirectory("upgrade-0008")
    var path: String { scratch.file("old.sqlite") }

    func writeDatabaseBefore0008() throws {
        let files = try UpgradeTests.writeDatabase(
            at: path, keeping: { $0 < "0008" },
            then: "INSERT INTO setting VALUES ('titleKeyFold', '\(TitleKey.version)');\n")
        #expect(files.last == "0007_failing_index.sql")
        #expect(try sqlite(path, "SELECT count(*) FROM memberMovie") == "5")
    }

    @Test func everyMemberMovieLinkAndRatingSurvivesAndNothingIsWatched() throws {
        try writeDatabaseBefore0008()
        let store = try Store(path: path, logger: quietLogger)
        #expect(try sqlite(path, "SELECT count(*) FROM schemaMigration WHERE identifier = '0008_watched'") == "1")
        #expect(try sqlite(path, "PRAGMA foreign_key_check") == "")
        #expect(try sqlite(path, "PRAGMA integrity_check") == "ok")
        #expect(try store.members().map(\.name) == ["Ann", "Bob"])
        #expect(try store.members().map(\.movies) == [2, 3])
        let report = try store.ratings()
        let ann = try #require(report.members.first?.movies)
        #expect(ann.map(\.shown) == ["Amélie (2001)", "Dune (2021)"])
        #expect(ann.map(\.voteCount) == [11_412, 12_000] && ann.map(\.voteAverage) == [7.9, 7.8])
        #expect(report.members.last?.movies.map(\.shown) == ["Amélie (2001)", "Dune (1984)", "No Such Film"])
        #expect(report.members.flatMap(\.movies).allSatisfy { $0.mark == WatchMark() })
        #expect(
            try sqlite(
                path, "SELECT count(*) FROM memberMovie WHERE watched = 0 AND watchedOn IS NULL AND ownRating IS NULL")
                == "5")
        #expect(try sqlite(path, "SELECT count(*) FROM movieHistory WHERE baseline = 1") == "2")

        // The new columns take marks, and their checks refuse what is not one.
        let marked = try store.markWatched(
            member: "bob", [.title("Amélie", year: nil)],
            mark: WatchMark(watched: true, on: WatchDay.parse("2024-03-01"), rating: 9), now: testStart)
        #expect(
            marked
                == .done(
                    member: "Bob",
                    [
                        WatchedMovie(
                            movie: MovieName(id: 1, title: "Amélie", year: 2001, remoteId: 194), linked: false,
                            changed: true)
                    ]))
        #expect(
            try sqlite(
                path, "SELECT memberId, movieId, watched, watchedOn, ownRating FROM memberMovie WHERE watched = 1")
                == "2|1|1|2024-03-01|9")
        // The schema's checks refuse both, whoever writes.
        #expect(throws: SQLiteShellError.self) { try sqlite(path, "UPDATE memberMovie SET ownRating = 11") }
        #expect(throws: SQLiteShellError.self) { try sqlite(path, "UPDATE memberMovie SET watchedOn = 'March 1'") }
        #expect(
            try sqlite(path, "SELECT count(*) FROM memberMovie WHERE ownRating = 11 OR watchedOn = 'March 1'") == "0")
    }
}

/// The Store's side of movie night: marks survive a merge, and `movieNight` reads what `pick` ranks.
@Suite struct WatchedStoreTests {
    let scratch = TemporaryDirectory("watched-store")

    func open() throws -> Store { try Store(path: scratch.file("mustc.sqlite"), logger: quietLogger) }

    @Test func aMergeKeepsTheWatchedMarkTheLaterDayAndARating() throws {
        let store = try open()
        let typed = try store.link(member: "Ann", movie: .title("Dune Part One", year: nil), now: testStart)
        let byId = try store.link(member: "Ann", movie: .tmdb(438631), now: testStart)
        _ = try store.link(member: "Bob", movie: .tmdb(438631), now: testStart)
        let day = WatchDay.parse("2024-01-01")
        _ = try store.markWatched(
            member: "Ann", [.title("Dune Part One", year: nil)], mark: WatchMark(watched: true, on: day, rating: 8),
            now: testStart)
        _ = try store.markWatched(
            member: "Bob", [.tmdb(438631)], mark: WatchMark(watched: true, on: nil, rating: 6), now: testStart)
        // The typed title turns out to be the movie Ann and Bob keep by id: the two rows become one.
        let outcome = try store.resolve(movieId: typed.movieId, with: StoreIdentityTests.dune2021, now: testStart)
        #expect(outcome.movieId == typed.movieId && byId.movieId != typed.movieId)
        let marks = try store.ratings().members.map { $0.movies.map(\.mark) }
        #expect(
            marks == [[WatchMark(watched: true, on: day, rating: 8)], [WatchMark(watched: true, on: nil, rating: 6)]])
    }

    @Test func movieNightReadsTheNamedMembersLinksAndTheLibrarysPrior() throws {
        let store = try open()
        for (id, average, votes) in [(1, 8.0, 100), (2, 6.0, 300), (3, 7.0, 200), (4, 9.0, 1000)] {
            let link = try store.link(member: id == 4 ? "Cleo" : "Ann", movie: .tmdb(id), now: testStart)
            _ = try store.resolve(
                movieId: link.movieId,
                with: RemoteMovie(id: id, title: "Movie \(id)", voteAverage: average, voteCount: votes), now: testStart)
        }
        _ = try store.link(member: "Bob", movie: .tmdb(2), now: testStart)
        _ = try store.markWatched(member: "Bob", [.tmdb(1)], mark: WatchMark(watched: true, on: nil), now: testStart)
        let since = testStart.addingTimeInterval(-7 * 86_400)
        #expect(try store.movieNight(members: ["Ann", "Zed", "Yan"], trendSince: since).unknown == ["Zed", "Yan"])
        let night = try store.movieNight(members: ["bob", "ANN", "Ann"], trendSince: since)
        #expect(night.members == ["Bob", "Ann"] && night.unknown.isEmpty)
        let byTitle = Dictionary(uniqueKeysWithValues: night.candidates.map { ($0.title, $0) })
        #expect(Set(byTitle.keys) == ["Movie 1", "Movie 2", "Movie 3"], "Cleo's movie is not a candidate")
        #expect(byTitle["Movie 1"]?.keptBy == ["Bob", "Ann"] && byTitle["Movie 1"]?.watchedBy == ["Bob"])
        #expect(byTitle["Movie 2"]?.keptBy == ["Bob", "Ann"] && byTitle["Movie 2"]?.trend == 0)
        // Every rated movie of the library counts, Cleo's too: C = 7.5, m = the median of 100, 200, 300, 1000.
        #expect(night.prior == NightPrior(mean: 7.5, votes: 250, movies: 4))
        _ = try store.unlink(member: "Cleo", movie: .tmdb(4))
        #expect(try store.movieNight(members: ["Ann"], trendSince: since).prior?.votes == 200)
    }

    @Test func theTrendIsTheVoteAveragesMoveSinceTheWindowOpened() throws {
        let store = try open()
        let link = try store.link(member: "Ann", movie: .tmdb(7), now: testStart)
        let start = testStart.addingTimeInterval(-3 * 86_400)
        _ = try store.resolve(
            movieId: link.movieId, with: RemoteMovie(id: 7, title: "Seven", voteAverage: 8.0, voteCount: 10), now: start
        )
        _ = try store.apply(
            [.ratings(movieId: link.movieId, RemoteMovie(id: 7, title: "Seven", voteAverage: 8.437, voteCount: 12))],
            now: testStart)
        let week = try store.movieNight(members: ["Ann"], trendSince: testStart.addingTimeInterval(-7 * 86_400))
        #expect(week.candidates.map(\.trend) == [0.437])
        // A window opening after the baseline starts from the change's "before" figure.
        let day = try store.movieNight(members: ["Ann"], trendSince: testStart.addingTimeInterval(-86_400))
        #expect(day.candidates.map(\.trend) == [0.437])
        // A window that opens after the change (made a moment ago) saw nothing move.
        let hour = try store.movieNight(members: ["Ann"], trendSince: testStart.addingTimeInterval(60))
        #expect(hour.candidates.map(\.trend) == [0])
        let pick = MovieNight.rank(week, count: 1)[0]
        #expect(pick.why == "Seven: Ann keeps it; 8.437 from 12 votes, +0.437 this week")
    }
}
