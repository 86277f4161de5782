import Foundation
import GRDB

/// Where a movie's figures stood when a window opened, and its popularity and vote average after each entry since.
struct HistoryWindow: Sendable, Equatable {
    var start: Figures
    var popularity: [Double?]
    var voteAverage: [Double?]
}

extension Store {
    /// The movies that changed since `since`, newest first; only `member`'s movies when given, only what the fetch
    /// run `runId` found when given. Reads only: `mustc changes` must never write.
    /// With `services`, the report also lists the movies that arrived on or left one of them.
    public func changes(since: Date, member: String? = nil, runId: Int64? = nil, services: [String] = [])
        throws(StoreError) -> ChangesReport
    {
        try read { db in
            var report = try Self.changes(db, since: since, member: member, runId: runId)
            if !services.isEmpty {
                report.availability = try Self.availabilityChanges(
                    db, since: since, member: member, runId: runId, services: ServiceMatcher(services))
            }
            return report
        }
    }

    /// Arrivals and departures on the family's services, newest first; a range of the index on `at`.
    static func availabilityChanges(
        _ db: Database, since: Date, member: String?, runId: Int64?, services: ServiceMatcher
    ) throws -> [AvailabilityChange] {
        let rows = try Row.fetchAll(
            db,
            sql: """
                SELECT availabilityChange.movieId, at, providerId, provider, arrived, movie.title, movie.year,
                    movie.remoteId
                FROM availabilityChange INDEXED BY availabilityChange_at
                JOIN movie ON movie.id = availabilityChange.movieId
                WHERE at >= :since AND (:run IS NULL OR runId = :run)
                    AND (:member IS NULL OR availabilityChange.movieId IN (\(Self.moviesOfMember)))
                ORDER BY at DESC, availabilityChange.id DESC
                """,
            arguments: ["since": since.timeIntervalSince1970, "run": runId, "member": member.map(TitleKey.make)])
        var found: [AvailabilityChange] = []
        // Each provider's name folded once, not once a row: 300 folds were 2.5 ms of a fetch that sends news (perf).
        var folded: [String: String] = [:]
        for row in rows {
            let provider: String = row["provider"]
            let key = folded[provider] ?? TitleKey.make(provider)
            folded[provider] = key
            guard services.matches(id: row["providerId"], key: key) else { continue }
            let members = try keepers(db, movieId: row["movieId"])
            found.append(
                AvailabilityChange(
                    title: row["title"], year: row["year"], remoteId: row["remoteId"],
                    at: Date(timeIntervalSince1970: row["at"]), providerId: row["providerId"],
                    provider: row["provider"], arrived: row["arrived"], members: members))
        }
        return found
    }

    static func changes(_ db: Database, since: Date, member: String?, runId: Int64?) throws -> ChangesReport {
        // A range of the index on `at`, then a sort of the window's rows: 30 days of daily changes for 1,000
        // movies is 30,000 rows, where walking (movieId, at) would read the whole year.
        let rows = try Row.fetchCursor(
            db,
            sql: """
                SELECT movieId, at, popularityBefore, voteAverageBefore, voteCountBefore, popularity, voteAverage,
                    voteCount
                FROM movieHistory INDEXED BY movieHistory_at
                WHERE at >= :since AND baseline = 0 AND (:run IS NULL OR runId = :run)
                    AND (:member IS NULL OR movieId IN (\(Self.moviesOfMember)))
                ORDER BY movieId, at, id
                """,
            arguments: ["since": since.timeIntervalSince1970, "run": runId, "member": member.map(TitleKey.make)])
        var movies: [MovieChanges] = []
        var current: (id: Int64, movie: MovieChanges)?
        while let row = try rows.next() {
            let id: Int64 = row["movieId"]
            let at = Date(timeIntervalSince1970: row["at"])
            let after = Figures(row)
            if current?.id == id, var movie = current?.movie {
                movie.changes += 1
                movie.last = DatedFigures(at: at, figures: after)
                movie.popularity.append(after.popularity)
                current = (id, movie)
                continue
            }
            if let done = current, let movie = try describe(db, done.id, done.movie) { movies.append(movie) }
            let before = Figures(row, before: true)
            let movie = MovieChanges(
                title: "", year: nil, remoteId: nil, changes: 1, first: DatedFigures(at: at, figures: before),
                last: DatedFigures(at: at, figures: after), members: [],
                popularity: [before.popularity, after.popularity])
            current = (id, movie)
        }
        if let done = current, let movie = try describe(db, done.id, done.movie) { movies.append(movie) }
        movies.sort { ($0.last.at, $1.shown) > ($1.last.at, $0.shown) }
        return ChangesReport(since: since, changes: movies)
    }

    /// Fills in the title, year, TMDB id and members of a movie; nil if it was removed meanwhile.
    private static func describe(_ db: Database, _ id: Int64, _ changes: MovieChanges) throws -> MovieChanges? {
        guard
            let row = try Row.fetchOne(
                db.cachedStatement(sql: "SELECT title, year, remoteId, posterPath FROM movie WHERE id = ?"),
                arguments: [id])
        else { return nil }
        var movie = changes
        (movie.title, movie.year, movie.remoteId, movie.posterPath) =
            (row["title"], row["year"], row["remoteId"], row["posterPath"])
        movie.members = try keepers(db, movieId: id)
        return movie
    }

    /// For each movie with history since `since`: its figures when the window opened (before its first change in
    /// the window, or its first figures when its history starts inside the window) and its popularity after each
    /// entry. A baseline inside the window (the movie became another TMDB movie) starts it again.
    static func historyWindows(_ db: Database, since: Date) throws -> [Int64: HistoryWindow] {
        let rows = try Row.fetchCursor(
            db,
            sql: """
                SELECT movieId, baseline, popularityBefore, voteAverageBefore, voteCountBefore, popularity,
                    voteAverage, voteCount
                FROM movieHistory INDEXED BY movieHistory_at WHERE at >= ? ORDER BY movieId, at, id
                """,
            arguments: [since.timeIntervalSince1970])
        var windows: [Int64: HistoryWindow] = [:]
        while let row = try rows.next() {
            let id: Int64 = row["movieId"]
            let baseline: Bool = row["baseline"]
            let after = Figures(row)
            if !baseline, var window = windows[id] {
                window.popularity.append(after.popularity)
                window.voteAverage.append(after.voteAverage)
                windows[id] = window
            } else if baseline {
                windows[id] = HistoryWindow(
                    start: after, popularity: [after.popularity], voteAverage: [after.voteAverage])
            } else {
                let before = Figures(row, before: true)
                windows[id] = HistoryWindow(
                    start: before, popularity: [before.popularity, after.popularity],
                    voteAverage: [before.voteAverage, after.voteAverage])
            }
        }
        return windows
    }
}

extension MovieRating {
    /// Its trend from the window's start to its current figures: no history in the window means nothing moved.
    mutating func attachTrend(since: Date, window: HistoryWindow?) {
        let current = Figures(popularity: popularity, voteAverage: voteAverage, voteCount: voteCount)
        guard !current.isEmpty else { return }
        trend = MovieTrend(since: since, start: window?.start ?? current, current: current)
        trendPopularity = window?.popularity ?? []
        trendVoteAverage = window?.voteAverage ?? []
    }
}
