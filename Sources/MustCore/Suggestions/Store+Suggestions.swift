import Foundation
import GRDB

/// A movie a member loved, from which TMDB's recommendations are asked: their own rating of 8 or more, or, for a
/// member who has rated nothing, a watched movie they keep with one of the best weighted ratings.
public struct SuggestionSeed: Sendable, Equatable {
    public var member: String
    public var movieId: Int64
    public var remoteId: Int
    public var title: String
    public var year: Int?
    /// The member's own rating, 1–10; nil for a seed chosen by its weighted rating.
    public var ownRating: Int?
    /// How much the member loved it, on TMDB's 10-point scale: the own rating, or the weighted rating.
    public var love: Double

    public init(
        member: String, movieId: Int64, remoteId: Int, title: String, year: Int?, ownRating: Int?, love: Double
    ) {
        (self.member, self.movieId, self.remoteId, self.title, self.year) = (member, movieId, remoteId, title, year)
        (self.ownRating, self.love) = (ownRating, love)
    }
}

/// Requests spent on suggestions in a window, by kind.
public struct SuggestionSpend: Sendable, Equatable {
    public var recommendations = 0
    public var details = 0
    public var total: Int { recommendations + details }
    public init(recommendations: Int = 0, details: Int = 0) {
        (self.recommendations, self.details) = (recommendations, details)
    }
}

/// The requests spent on suggestions over the pace's memory, and the day's by kind (`Store.suggestionSpend`).
public struct SuggestionSpendLog: Sendable, Equatable {
    /// When each was spent, oldest first.
    public var times: [Date] = []
    /// Those of the last day, by kind.
    public var day = SuggestionSpend()
    public init() {}
}

extension Store {
    /// Up to this many seeds a member.
    public static let seedsPerMember = 10

    /// Every member's seeds (or those of `members`, matched ignoring case and accents), best first per member.
    public func suggestionSeeds(members names: [String]? = nil) throws(StoreError) -> [SuggestionSeed] {
        try read { db in try Self.seeds(db, members: try Self.memberRows(db, names).found) }
    }

    /// The seeds whose recommendations are due: never asked, asked more than `every` ago, or, when the last ask
    /// failed, more than `retry` ago; never asked first, then the oldest. Each movie once, whoever loved it.
    public func seedsDue(now: Date, every: TimeInterval, retry: TimeInterval) throws(StoreError) -> [SuggestionSeed] {
        try read { db in
            // Arrays searched in turn, not a Set or a Dictionary keyed by movie id: a family has a few dozen seeds,
            // and the first hashed collection of Int64 in the fetch made the runtime look its conformance up
            // through every conformance the binary has (0.3 ms of a scheduled fetch's CPU, perf record).
            var seeds: [SuggestionSeed] = []
            for seed in try Self.seeds(db, members: try Self.memberRows(db, nil).found)
            where !seeds.contains(where: { $0.movieId == seed.movieId }) {
                seeds.append(seed)
            }
            guard !seeds.isEmpty else { return [] }
            let asked = try Row.fetchAll(
                db,
                sql: "SELECT movieId, askedAt, answered FROM suggestionSeed WHERE movieId IN ("
                    + seeds.map { _ in "?" }.joined(separator: ",") + ")",
                arguments: StatementArguments(seeds.map(\.movieId))
            ).map { row -> (movieId: Int64, at: Double, answered: Bool) in
                (row["movieId"], row["askedAt"], row["answered"])
            }
            let due = seeds.map { seed in (seed, asked.first { $0.movieId == seed.movieId }) }.filter { _, last in
                guard let last else { return true }
                return now.timeIntervalSince1970 - last.at >= (last.answered ? every : retry)
            }
            // Stable: seeds never asked keep the members' order.
            return due.enumerated().sorted { a, b in
                let (x, y) = (a.element.1?.at ?? 0, b.element.1?.at ?? 0)
                return x != y ? x < y : a.offset < b.offset
            }.map(\.element.0)
        }
    }

    /// Members by name: those found, in the order named (all members when `names` is nil), and the unknown names.
    static func memberRows(_ db: Database, _ names: [String]?) throws -> (
        found: [(id: Int64, name: String)], unknown: [String]
    ) {
        guard let names else {
            let rows = try Row.fetchAll(db, sql: "SELECT id, name FROM member ORDER BY id")
            return (rows.map { ($0["id"], $0["name"]) }, [])
        }
        var found: [(id: Int64, name: String)] = []
        var unknown: [String] = []
        for name in names {
            guard
                let row = try Row.fetchOne(
                    db, sql: "SELECT id, name FROM member WHERE nameKey = ?", arguments: [TitleKey.make(name)])
            else {
                unknown.append(name)
                continue
            }
            if !found.contains(where: { $0.id == row["id"] }) { found.append((row["id"], row["name"])) }
        }
        return (found, unknown)
    }

    /// Loved movies (own rating 8 or more, best first); for a member with no own rating at all, watched movies
    /// they keep with the best weighted rating (the library's prior, as `pick` weighs).
    ///
    /// The loved ones are chosen by SQLite, a member's ten at most: reading every movie a member keeps (200 each
    /// in the benchmark's family) and choosing in Swift took 1 ms of a scheduled fetch's CPU (perf record).
    static func seeds(_ db: Database, members: [(id: Int64, name: String)]) throws -> [SuggestionSeed] {
        var prior: NightPrior??
        var seeds: [SuggestionSeed] = []
        for member in members {
            let loved = try Row.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT movie.id, movie.remoteId, movie.title, movie.year, memberMovie.ownRating
                        FROM memberMovie JOIN movie ON movie.id = memberMovie.movieId
                        WHERE memberMovie.memberId = ? AND movie.remoteId IS NOT NULL AND memberMovie.ownRating >= 8
                        ORDER BY memberMovie.ownRating DESC, movie.id
                        LIMIT ?
                        """),
                arguments: [member.id, seedsPerMember])
            if !loved.isEmpty {
                seeds += loved.map { row in seed(row, member: member.name, love: Double(row["ownRating"] as Int)) }
                continue
            }
            let rated = try Bool.fetchOne(
                db.cachedStatement(
                    sql: """
                        SELECT EXISTS (SELECT 1 FROM memberMovie JOIN movie ON movie.id = memberMovie.movieId
                            WHERE memberMovie.memberId = ? AND movie.remoteId IS NOT NULL
                                AND memberMovie.ownRating IS NOT NULL) AS rated
                        """),
                arguments: [member.id])
            guard rated == false else { continue }
            if prior == nil { prior = .some(try nightPrior(db)) }
            guard let prior = prior ?? nil else { continue }
            seeds += try watchedSeeds(db, member: member, prior: prior)
        }
        return seeds
    }

    /// The seeds of a member who has rated nothing: the watched movies they keep with the best weighted rating.
    private static func watchedSeeds(_ db: Database, member: (id: Int64, name: String), prior: NightPrior) throws
        -> [SuggestionSeed]
    {
        let rows = try Row.fetchAll(
            db,
            sql: """
                SELECT movie.id, movie.remoteId, movie.title, movie.year, movie.voteAverage, movie.voteCount,
                    memberMovie.ownRating
                FROM memberMovie JOIN movie ON movie.id = memberMovie.movieId
                WHERE memberMovie.memberId = ? AND movie.remoteId IS NOT NULL AND memberMovie.watched
                """,
            arguments: [member.id])
        let chosen: [(Row, Double)] = rows.compactMap { row in
            guard let average = row["voteAverage"] as Double?, let votes = row["voteCount"] as Int?, votes > 0
            else { return nil }
            return (row, MovieNight.weighted(average: average, votes: votes, prior: prior))
        }
        let best = chosen.sorted { a, b in
            a.1 != b.1 ? a.1 > b.1 : (a.0["id"] as Int64) < (b.0["id"] as Int64)
        }.prefix(seedsPerMember)
        return best.map { row, love in seed(row, member: member.name, love: love) }
    }

    private static func seed(_ row: Row, member: String, love: Double) -> SuggestionSeed {
        SuggestionSeed(
            member: member, movieId: row["id"], remoteId: row["remoteId"], title: row["title"], year: row["year"],
            ownRating: row["ownRating"], love: love)
    }

    /// Stores a seed's recommendations: the movies (their list fields; details already read stay), which this seed
    /// recommends in place of what it did, the ask's time, and the request spent. Movies no seed recommends any
    /// more are dropped.
    public func recordRecommendations(seed movieId: Int64, _ movies: [RecommendedMovie], now: Date) throws(StoreError) {
        try write { db in
            try db.execute(sql: "DELETE FROM suggestionSource WHERE seedMovieId = ?", arguments: [movieId])
            for (place, found) in movies.enumerated() {
                guard let title = found.movie.title, !title.isEmpty else { continue }
                try db.cachedStatement(
                    sql: """
                        INSERT INTO suggestionMovie
                            (remoteId, title, year, voteAverage, voteCount, popularity, posterPath, genres, overview)
                        VALUES (:id, :title, :year, :average, :votes, :popularity, :poster, :genres, :overview)
                        ON CONFLICT (remoteId) DO UPDATE SET title = :title, year = :year, voteAverage = :average,
                            voteCount = :votes, popularity = :popularity, posterPath = :poster,
                            genres = CASE WHEN detailsAt IS NULL THEN :genres ELSE genres END,
                            overview = coalesce(:overview, overview)
                        """
                ).execute(arguments: [
                    "id": found.movie.id, "title": TMDBText.line(title), "year": found.movie.year,
                    "average": found.movie.voteAverage, "votes": found.movie.voteCount,
                    "popularity": found.movie.popularity, "poster": found.movie.posterPath,
                    "genres": MovieGenres.named(found.genreIds).joined(separator: "\n"), "overview": found.overview,
                ])
                try db.cachedStatement(
                    sql: "INSERT OR IGNORE INTO suggestionSource (seedMovieId, remoteId, place) VALUES (?, ?, ?)"
                ).execute(arguments: [movieId, found.movie.id, place])
            }
            try Self.noteSeedAsked(db, movieId, answered: true, now: now)
            try db.execute(
                sql: "DELETE FROM suggestionMovie WHERE remoteId NOT IN (SELECT remoteId FROM suggestionSource)")
        }
    }

    /// A seed's recommendations could not be had: asked again after the retry delay, the request counted.
    public func recordRecommendationsFailed(seed movieId: Int64, now: Date) throws(StoreError) {
        try write { db in try Self.noteSeedAsked(db, movieId, answered: false, now: now) }
    }

    private static func noteSeedAsked(_ db: Database, _ movieId: Int64, answered: Bool, now: Date) throws {
        try db.execute(
            sql: "INSERT OR REPLACE INTO suggestionSeed (movieId, askedAt, answered) VALUES (?, ?, ?)",
            arguments: [movieId, now.timeIntervalSince1970, answered])
        try spend(db, "recommendations", now: now)
    }

    private static func spend(_ db: Database, _ kind: String, now: Date) throws {
        try db.execute(
            sql: "INSERT INTO suggestionSpend (at, kind) VALUES (?, ?)", arguments: [now.timeIntervalSince1970, kind])
        try db.execute(
            sql: "DELETE FROM suggestionSpend WHERE at < ?", arguments: [now.timeIntervalSince1970 - 2 * 86_400])
    }

    /// The requests spent on suggestions since `since` (what `SuggestionPace` paces by: their times, oldest first),
    /// and those since `daySince` by kind (what the day's budget counts), in one read: the fetch asks before each
    /// run's suggestion work, and two reads of the same rows cost a transaction each.
    public func suggestionSpend(since: Date, daySince: Date) throws(StoreError) -> SuggestionSpendLog {
        try read { db in
            var log = SuggestionSpendLog()
            // Either window may be the longer: each row is counted in the windows it falls in.
            for row in try Row.fetchAll(
                db,
                sql: """
                    SELECT at, kind, at >= :day AS today, at >= :since AS paced FROM suggestionSpend
                    WHERE at >= min(:day, :since) ORDER BY at
                    """,
                arguments: ["day": daySince.timeIntervalSince1970, "since": since.timeIntervalSince1970])
            {
                if row["paced"] as Bool { log.times.append(Date(timeIntervalSince1970: row["at"])) }
                guard row["today"] as Bool else { continue }
                if (row["kind"] as String?) == "details" {
                    log.day.details += 1
                } else {
                    log.day.recommendations += 1
                }
            }
            return log
        }
    }
}
