import Foundation
import MustCore
import TMDBStub
import Testing

/// The rating history as the store writes and reads it: baselines are never changes, a change keeps its before and
/// after, a refused row leaves no history, the window and trend arithmetic, and pruning.
@Suite struct HistoryTests {
    let directory = TemporaryDirectory("mustc-history")
    let store: Store
    let day: TimeInterval = 86_400
    /// A fixed clock: history is compared by time, so the tests say when each write happened.
    let t0 = Date(timeIntervalSince1970: 1_795_000_000)

    init() throws {
        store = try Store(path: directory.file("mustc.sqlite"), logger: quietLogger)
    }

    static func up(popularity: Double, votes: Int, average: Double = 7.9) -> RemoteMovie {
        RemoteMovie(
            id: 14160, title: "Up", popularity: popularity, voteAverage: average, voteCount: votes,
            releaseDate: "2009-05-28")
    }

    /// Links Ann to "Up" and resolves it at `t0`, as `mustc add` does with a lookup.
    func addUp() throws -> Int64 {
        let link = try store.link(member: "Ann", title: "Up", now: t0)
        _ = try store.resolve(movieId: link.movieId, with: Self.up(popularity: 80, votes: 100), now: t0)
        return link.movieId
    }

    func entries() throws -> String {
        try sqlite(
            store.path,
            """
            SELECT group_concat(baseline || ':' || coalesce(voteCountBefore, '-') || '>' || voteCount, ',')
            FROM (SELECT * FROM movieHistory ORDER BY id)
            """)
    }

    @Test func theFirstFiguresAreABaselineAndNoChange() throws {
        _ = try addUp()
        #expect(try entries() == "1:->100")
        #expect(try store.changes(since: t0.addingTimeInterval(-day)).changes.isEmpty)
    }

    @Test func aChangeKeepsBeforeAndAfterAndTheSameFiguresAddNothing() throws {
        let id = try addUp()
        try store.apply([.ratings(movieId: id, Self.up(popularity: 80, votes: 100))], now: t0 + 60)
        try store.apply([.ratings(movieId: id, Self.up(popularity: 82.5, votes: 130))], now: t0 + 3600)
        try store.apply([.ratings(movieId: id, Self.up(popularity: 81, votes: 150, average: 8))], now: t0 + 7200)
        #expect(try entries() == "1:->100,0:100>130,0:130>150")
        let report = try store.changes(since: t0 - day)
        let up = try #require(report.changes.first)
        #expect(report.changes.count == 1)
        #expect(up.changes == 2)
        #expect(
            up.first == DatedFigures(at: t0 + 3600, figures: Figures(popularity: 80, voteAverage: 7.9, voteCount: 100)))
        #expect(
            up.last == DatedFigures(at: t0 + 7200, figures: Figures(popularity: 81, voteAverage: 8, voteCount: 150)))
        #expect(up.members == ["Ann"])
        #expect(up.popularity == [80, 82.5, 81])
        // A window that opens after the first change sees only the second, starting where the first ended.
        let later = try store.changes(since: t0 + 5000)
        #expect(later.changes.first?.changes == 1)
        #expect(later.changes.first?.first.figures.voteCount == 130)
    }

    @Test func aRowSQLiteRefusesLeavesNoHistoryBehind() throws {
        let id = try addUp()
        // Refuse the write after its history entry went in: only a savepoint around both takes the entry back.
        _ = try sqlite(
            store.path,
            """
            CREATE TRIGGER refuse AFTER INSERT ON movieHistory WHEN new.voteCount = 666
            BEGIN SELECT RAISE(ABORT, 'refused by test'); END;
            """)
        let refused = try store.apply([.ratings(movieId: id, Self.up(popularity: 90, votes: 666))], now: t0 + 60)
        #expect(refused.count == 1)
        #expect(try entries() == "1:->100")
        #expect(try sqlite(store.path, "SELECT voteCount FROM movie WHERE id = \(id)") == "100")
    }

    @Test func aRowRefusedInTheMiddleOfABatchIsRedoneAloneAndTheOthersKeepOneEntryEach() throws {
        let id = try addUp()
        let bob = try store.link(member: "Bob", title: "Amélie", now: t0)
        _ = try store.resolve(movieId: bob.movieId, with: StoreIdentityTests.amelie, now: t0)
        _ = try sqlite(
            store.path,
            """
            CREATE TRIGGER refuse AFTER INSERT ON movieHistory WHEN new.voteCount = 666
            BEGIN SELECT RAISE(ABORT, 'refused by test'); END;
            """)
        var amelie = StoreIdentityTests.amelie
        amelie.voteCount = 101
        let check = MovieCheck(checkedAt: t0 + 60, interval: 900, nextCheckAt: t0 + 960)
        // The batch is tried whole first; the refusal rolls it back and it is redone a write at a time.
        let refused = try store.apply(
            [
                .ratings(movieId: bob.movieId, amelie), .checked(movieId: bob.movieId, check),
                .ratings(movieId: id, Self.up(popularity: 90, votes: 666)), .checked(movieId: id, check),
            ], now: t0 + 60)
        #expect(refused.map(\.write) == [.ratings(movieId: id, Self.up(popularity: 90, votes: 666))])
        #expect(try entries() == "1:->100,1:->100,0:100>101")
        #expect(try sqlite(store.path, "SELECT group_concat(voteCount) FROM movie ORDER BY id") == "100,101")
        #expect(try sqlite(store.path, "SELECT count(*) FROM movieSchedule WHERE interval = 900") == "2")
        #expect(try store.failingMovies().map(\.title) == ["Up"])
    }

    @Test func aFetchedChangeWritesTheFiguresAndWhateverElseTMDBNowSays() throws {
        let id = try addUp()
        func row() throws -> String {
            try sqlite(
                store.path,
                """
                SELECT title || '|' || titleKey || '|' || coalesce(year, '-') || '|' || coalesce(imdbId, '-') || '|'
                    || popularity || '|' || voteCount || '|' || coalesce(fetchError, '-') || '|'
                    || coalesce(notFoundAt, '-') FROM movie WHERE id = \(id)
                """)
        }
        // Only the figures moved: they are written, nothing else changes.
        try store.apply([.ratings(movieId: id, Self.up(popularity: 81, votes: 110))], now: t0 + 60)
        #expect(try row() == "Up|up|2009|-|81.0|110|-|-")
        // TMDB now gives an IMDb id: it is kept.
        var withImdb = Self.up(popularity: 82, votes: 120)
        withImdb.imdbId = "tt1049413"
        try store.apply([.ratings(movieId: id, withImdb)], now: t0 + 120)
        #expect(try row() == "Up|up|2009|tt1049413|82.0|120|-|-")
        // A recorded failure goes with the next change.
        try store.apply([.failure(movieId: id, message: "cannot reach TMDB", notFound: true)], now: t0 + 180)
        try store.apply([.ratings(movieId: id, Self.up(popularity: 83, votes: 130))], now: t0 + 240)
        #expect(try row() == "Up|up|2009|tt1049413|83.0|130|-|-")
        #expect(try entries() == "1:->100,0:100>110,0:110>120,0:120>130")
        // A movie added by its id is named by its first figures, and found by that name.
        let byId = try store.link(member: "Bob", movie: .tmdb(194), now: t0)
        var amelie = StoreIdentityTests.amelie
        amelie.releaseDate = "2001-04-25"
        try store.apply([.ratings(movieId: byId.movieId, amelie)], now: t0 + 300)
        #expect(
            try sqlite(
                store.path, "SELECT title || '|' || titleKey || '|' || year FROM movie WHERE id = \(byId.movieId)")
                == "Amélie|amelie|2001")
    }

    @Test func resolvingToAnotherTMDBMovieStartsAgainWithABaseline() throws {
        let id = try addUp()
        let other = RemoteMovie(id: 777, title: "Up", popularity: 3, voteAverage: 5, voteCount: 9)
        _ = try store.resolve(movieId: id, with: other, now: t0 + 60)
        #expect(try entries() == "1:->100,1:->9")
        #expect(try store.changes(since: t0 - day).changes.isEmpty)
    }

    @Test func aMergeKeepsTheHistoryOfTheTMDBMovieInTheRowThatStays() throws {
        // Ann typed the title first (row 1, no id yet); Bob added it by id (row 2, looked up).
        let typed = try store.link(member: "Ann", title: "Up", now: t0)
        let byId = try store.link(member: "Bob", movie: .tmdb(14160), now: t0)
        _ = try store.resolve(movieId: byId.movieId, with: Self.up(popularity: 80, votes: 100), now: t0)
        // The title resolves to the same TMDB movie: row 1 keeps its name and takes row 2's history along.
        let outcome = try store.resolve(movieId: typed.movieId, with: Self.up(popularity: 82, votes: 130), now: t0 + 60)
        #expect(outcome.movieId == typed.movieId)
        #expect(try entries() == "1:->100,0:100>130")
        #expect(try sqlite(store.path, "SELECT DISTINCT movieId FROM movieHistory") == "\(typed.movieId)")
        let up = try #require(try store.changes(since: t0 - day).changes.first)
        #expect(up.first.figures.voteCount == 100 && up.last.figures.voteCount == 130)
        #expect(up.members == ["Ann", "Bob"])
    }

    @Test func changesFollowTheMemberAndTheRun() throws {
        let id = try addUp()
        let bob = try store.link(member: "Bob", title: "Amélie", now: t0)
        _ = try store.resolve(movieId: bob.movieId, with: StoreIdentityTests.amelie, now: t0)
        let run = try store.beginRun(at: t0 + 10)
        var amelie = StoreIdentityTests.amelie
        amelie.voteCount = 101
        try store.apply(
            [.ratings(movieId: id, Self.up(popularity: 81, votes: 101)), .ratings(movieId: bob.movieId, amelie)],
            now: t0 + 20)
        #expect(try store.changes(since: t0 - day).changes.map(\.title) == ["Amélie", "Up"])
        #expect(try store.changes(since: t0 - day, member: "ann").changes.map(\.title) == ["Up"])
        #expect(try store.changes(since: t0 - day, runId: run).changes.count == 2)
        #expect(try store.changes(since: t0 - day, runId: run + 1).changes.isEmpty)
    }

    @Test func theTrendIsMeasuredFromTheWindowsStartOrTheFirstFigures() throws {
        let id = try addUp()
        try store.apply([.ratings(movieId: id, Self.up(popularity: 82, votes: 120))], now: t0 + 2 * day)
        try store.apply([.ratings(movieId: id, Self.up(popularity: 85, votes: 150))], now: t0 + 4 * day)
        func trend(since: Date) throws -> MovieTrend? {
            try store.ratings(trendSince: since).members.first?.movies.first?.trend
        }
        // The window opens after the first change: measured from its after, 120 votes.
        #expect(try trend(since: t0 + 3 * day)?.voteCount == 30)
        #expect(try trend(since: t0 + 3 * day)?.popularity == 3)
        // History starts inside the window: measured from the first figures, 100 votes.
        #expect(try trend(since: t0 - day)?.voteCount == 50)
        // Nothing in the window: nothing moved.
        #expect(try trend(since: t0 + 5 * day)?.voteCount == 0)
        #expect(try trend(since: t0 + 5 * day)?.since == t0 + 5 * day)
        let unknown = try store.link(member: "Ann", title: "Unknown", now: t0)
        #expect(unknown.movieCreated)
        let movies = try store.ratings(trendSince: t0).members.first?.movies ?? []
        #expect(movies.first { $0.title == "Unknown" }?.trend == nil)
    }

    @Test func pruningDeletesOnlyOlderEntriesInBatches() throws {
        let id = try addUp()
        for step in 1...25 {
            try store.apply(
                [.ratings(movieId: id, Self.up(popularity: 80, votes: 100 + step))], now: t0 + Double(step) * day)
        }
        #expect(try store.pruneHistory(before: t0 + 10.5 * day, batchSize: 3) == 11)
        #expect(try sqlite(store.path, "SELECT count(*), min(voteCount) FROM movieHistory") == "15|111")
        #expect(try store.pruneHistory(before: t0 + 10.5 * day, batchSize: 3) == 0)
    }
}

/// The pure parts: sparklines, deltas and the window's start.
@Suite struct TrendFormattingTests {
    @Test func sparklinesRunLowToHighAndSampleLongSeries() {
        #expect(Sparkline.make([1, 2, 4, 8, 5]) == "▁▂▄█▅")
        #expect(Sparkline.make([3, 3, 3]) == "▄▄▄")
        #expect(Sparkline.make([nil, 7]) == "")
        let year = (0..<365).map { Double($0) }
        let line = Sparkline.make(year)
        #expect(line.count == 16 && line.first == "▁" && line.last == "█")
    }

    @Test func trendsAreRoundedDifferences() {
        let since = Date(timeIntervalSince1970: 0)
        let trend = MovieTrend(
            since: since, start: Figures(popularity: 7.9, voteAverage: 7.9, voteCount: 10),
            current: Figures(popularity: 8.1, voteAverage: nil, voteCount: 7))
        #expect(trend.popularity == 0.2)
        #expect(trend.voteAverage == nil)
        #expect(trend.voteCount == -3)
    }

    @Test func sinceTakesDurationsAndDates() {
        let now = Date(timeIntervalSince1970: 1_795_000_000)
        #expect(Since.parse("2d", now: now) == now - 2 * 86_400)
        #expect(Since.parse("36h", now: now) == now - 36 * 3600)
        #expect(Since.parse("2026-11-20", now: now) == Date(timeIntervalSince1970: 1_795_132_800))
        #expect(Since.parse("2026-11-20T08:00:00Z", now: now) == Date(timeIntervalSince1970: 1_795_161_600))
        #expect(Since.parse("2026-11-20T09:00:00+01:00", now: now) == Date(timeIntervalSince1970: 1_795_161_600))
        for garbage in ["yesterday", "0", "-2d", "2026-13-45", "", "2d ago"] {
            #expect(Since.parse(garbage, now: now) == nil, "\(garbage)")
        }
    }
}

/// `ratings` with a trend: the hand-written JSON still equals JSONEncoder's, and CSV and table show the deltas.
@Suite struct RatingsTrendRenderingTests {
    @Test func trendInEveryFormat() throws {
        var movie = MovieRating(title: "Up", popularity: 8.1, voteAverage: 7.9, voteCount: 10)
        movie.trend = MovieTrend(
            since: Date(timeIntervalSince1970: 1_795_000_000), popularity: 0.2, voteAverage: nil, voteCount: -3)
        let report = RatingsReport(members: [MemberRatings(name: "Ann", movies: [movie, MovieRating(title: "None")])])
        let fast = report.render(.json)
        let reference = ReportRenderer.json(report)
        func parsed(_ text: String) throws -> NSDictionary {
            try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? NSDictionary)
        }
        #expect(try parsed(fast) == parsed(reference))
        #expect(fast.contains(#""trend" : null"#))
        #expect(fast.contains(#""since" : "2026-11-18T11:06:40Z""#))
        #expect(report.render(.csv).contains(",2026-11-18T11:06:40Z,0.2,,-3,false,,\r\n"))
        let table = report.render(.table)
        #expect(table.contains("8.1 (+0.2)") && table.contains("10 (-3)") && table.contains("7.9  "))
        #expect(!table.contains("Popularity over time"))
        #expect(report.render(.table, sparklines: true).contains("Popularity over time"))
    }
}
