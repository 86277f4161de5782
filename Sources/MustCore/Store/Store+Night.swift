import Foundation
import GRDB

extension Store {
    /// What `pick` ranks: every movie on the list of at least one of `members` (matched ignoring case and
    /// accents), with who of them keeps it and who has watched it, its vote average's trend since `trendSince`,
    /// and the library's prior. Names that are no member come back in `unknown`, and nothing else does.
    /// Reads only: the page can call it through `Store.forReading`.
    /// With `region`, each candidate also carries its runtime, genres, certification and offers read for that
    /// region (issue 28), and the library the members' age limits and the region's certification order.
    /// With `taste`, the library carries each member's taste (issue 33), learned from their own ratings.
    public func movieNight(members names: [String], trendSince: Date, region: String? = nil, taste: Bool = false)
        throws(StoreError) -> NightLibrary
    {
        try read { db in
            var members: [(id: Int64, name: String)] = []
            var limits: [String: String] = [:]
            var unknown: [String] = []
            for name in names {
                let row = try Row.fetchOne(
                    db, sql: "SELECT id, name, ageLimit FROM member WHERE nameKey = ?",
                    arguments: [TitleKey.make(name)])
                guard let row else {
                    unknown.append(name)
                    continue
                }
                if !members.contains(where: { $0.id == row["id"] }) { members.append((row["id"], row["name"])) }
                if let limit = row["ageLimit"] as String? { limits[row["name"]] = limit }
            }
            guard unknown.isEmpty else {
                return NightLibrary(members: [], candidates: [], prior: nil, unknown: unknown)
            }
            var candidates = try Self.nightCandidates(db, members)
            for index in candidates.indices {
                try Self.attachTrend(db, to: &candidates[index], since: trendSince)
                if let region { try Self.attachTonight(db, to: &candidates[index], region: region) }
            }
            var library = NightLibrary(
                members: members.map(\.name), candidates: candidates, prior: try Self.nightPrior(db))
            library.ageLimits = limits
            if taste { library.tastes = try members.map { try Self.taste(db, memberId: $0.id, name: $0.name) } }
            if let region {
                library.certifications = try Row.fetchAll(
                    db, sql: "SELECT certification, rank FROM certificationOrder WHERE region = ? ORDER BY rank",
                    arguments: [region]
                ).map { RegionCertification(certification: $0["certification"], order: $0["rank"]) }
            }
            return library
        }
    }

    /// A member's taste: their own ratings of movies TMDB has rated and whose genres are known, read through the
    /// primary key (memberId, movieId), so its cost follows their list.
    static func taste(_ db: Database, memberId: Int64, name: String) throws -> MemberTaste {
        let rows = try Row.fetchCursor(
            db.cachedStatement(
                sql: """
                    SELECT memberMovie.ownRating AS own, movie.voteAverage AS average, movie.genres AS genres
                    FROM memberMovie JOIN movie ON movie.id = memberMovie.movieId
                    WHERE memberMovie.memberId = ? AND memberMovie.ownRating IS NOT NULL
                        AND movie.voteCount > 0 AND movie.voteAverage IS NOT NULL AND movie.genres IS NOT NULL
                    """),
            arguments: [memberId])
        var samples: [TasteSample] = []
        while let row = try rows.next() {
            let genres = (row["genres"] as String? ?? "").split(separator: "\n").map(String.init)
            samples.append(TasteSample(own: Double(row["own"] as Int), average: row["average"], genres: genres))
        }
        return MemberTaste(member: name, samples: samples)
    }

    /// Runtime, genres and certification when read for `region`, and the offers, through the primary keys.
    private static func attachTonight(_ db: Database, to candidate: inout NightCandidate, region: String) throws {
        let row = try Row.fetchOne(
            db.cachedStatement(
                sql: """
                    SELECT movie.runtime, movie.genres,
                        CASE WHEN movieSchedule.extrasRegion = ? THEN movie.certification END AS certification,
                        movie.providersRegion = ? AS providersRead
                    FROM movie LEFT JOIN movieSchedule ON movieSchedule.movieId = movie.id WHERE movie.id = ?
                    """),
            arguments: [region, region, candidate.movieId])
        guard let row else { return }
        candidate.runtime = row["runtime"]
        candidate.genres = (row["genres"] as String?)?.split(separator: "\n").map(String.init) ?? []
        candidate.certification = row["certification"]
        guard row["providersRead"] as Bool? == true else { return }
        candidate.providers = try Row.fetchAll(
            db.cachedStatement(sql: "SELECT kind, providerId, name FROM movieProvider WHERE movieId = ?"),
            arguments: [candidate.movieId]
        ).compactMap(ProviderOffer.init(row:))
            .sorted { ($0.kind, $0.name) < ($1.kind, $1.name) }
    }

    /// The members' links, one candidate per movie; the primary key (memberId, movieId) reads each member's range.
    private static func nightCandidates(_ db: Database, _ members: [(id: Int64, name: String)]) throws
        -> [NightCandidate]
    {
        guard !members.isEmpty else { return [] }
        let rows = try Row.fetchCursor(
            db,
            sql: """
                SELECT movie.id, movie.title, movie.year, movie.remoteId, movie.voteAverage, movie.voteCount,
                    memberMovie.memberId, memberMovie.watched, movie.overview, movie.posterPath
                FROM memberMovie JOIN movie ON movie.id = memberMovie.movieId
                WHERE memberMovie.memberId IN (\(members.map { _ in "?" }.joined(separator: ",")))
                """,
            arguments: StatementArguments(members.map(\.id)))
        var byMovie: [Int64: NightCandidate] = [:]
        var marks: [Int64: (kept: Set<Int64>, watched: Set<Int64>)] = [:]
        while let row = try rows.next() {
            let movieId: Int64 = row["id"]
            if byMovie[movieId] == nil {
                byMovie[movieId] = NightCandidate(
                    movieId: movieId, title: row["title"], year: row["year"], remoteId: row["remoteId"],
                    voteAverage: row["voteAverage"], voteCount: row["voteCount"], keptBy: [])
                byMovie[movieId]?.overview = row["overview"]
                byMovie[movieId]?.posterPath = row["posterPath"]
            }
            marks[movieId, default: ([], [])].kept.insert(row["memberId"])
            if row["watched"] as Bool { marks[movieId, default: ([], [])].watched.insert(row["memberId"]) }
        }
        // Names in the order the members were named, so the reasons read as the user typed them.
        return byMovie.values.map { candidate in
            var candidate = candidate
            let mark = marks[candidate.movieId] ?? ([], [])
            candidate.keptBy = members.filter { mark.kept.contains($0.id) }.map(\.name)
            candidate.watchedBy = members.filter { mark.watched.contains($0.id) }.map(\.name)
            return candidate
        }
    }

    /// The vote average's move since `since`, as `ratings --trend` counts it: from the figure before the window's
    /// first change (or the baseline, when the history starts inside the window) to now; no history in the window
    /// means nothing moved. One look-up per candidate through the (movieId, at) index, so the cost follows the
    /// members' lists, not the whole library's history.
    private static func attachTrend(_ db: Database, to candidate: inout NightCandidate, since: Date) throws {
        guard let now = candidate.voteAverage else { return }
        let first = try Row.fetchOne(
            db.cachedStatement(
                sql: """
                    SELECT baseline, voteAverageBefore, voteAverage FROM movieHistory INDEXED BY movieHistory_movieId
                    WHERE movieId = ? AND at >= ? ORDER BY at, id LIMIT 1
                    """),
            arguments: [candidate.movieId, since.timeIntervalSince1970])
        let start: Double? = first.map { $0["baseline"] as Bool ? $0["voteAverage"] : $0["voteAverageBefore"] } ?? now
        candidate.trend = start.map { FigureText.difference(now, $0) }
    }

    /// The weighted rating's prior over the whole library, as `pick` ranks with it: the member page's "best"
    /// order uses the same figures, so both agree on what is best.
    public func libraryPrior() throws(StoreError) -> NightPrior? {
        try read { db in try Self.nightPrior(db) }
    }

    /// C, the mean vote average of the library's rated movies, and m, their median vote count.
    static func nightPrior(_ db: Database) throws -> NightPrior? {
        let rated = "FROM movie WHERE voteCount > 0 AND voteAverage IS NOT NULL"
        guard let row = try Row.fetchOne(db, sql: "SELECT count(*) AS movies, avg(voteAverage) AS mean \(rated)"),
            let count = row["movies"] as Int?, count > 0, let mean = row["mean"] as Double?
        else { return nil }
        let median = try Double.fetchOne(
            db,
            sql: "SELECT avg(voteCount) FROM (SELECT voteCount \(rated) ORDER BY voteCount LIMIT ? OFFSET ?)",
            arguments: [2 - count % 2, (count - 1) / 2])
        return NightPrior(mean: mean, votes: median ?? 0, movies: count)
    }
}
