import Foundation
import GRDB

/// A member watching tonight, as stored.
typealias NightMember = (id: Int64, name: String)

extension Store {
    /// What `pick` ranks: every movie on the list of at least one of `members` (matched ignoring case and
    /// accents), with who of them keeps it and who has watched it, its vote average's trend since `trendSince`,
    /// and the library's prior. Names that are no member come back in `unknown`, and nothing else does.
    /// Reads only: the page can call it through `Store.forReading`.
    /// With `region`, each candidate also carries its runtime, genres, certification and offers read for that
    /// region, and the library the members' age limits and the region's certification order.
    /// With `taste`, the library carries each member's taste, learned from their own ratings.
    ///
    /// Each fact of the candidates is one statement over the members' links, not one per candidate:
    /// with 3 members keeping 300 movies each, the trend, tonight's facts and the offers read a candidate at a
    /// time were about 2,700 statements, most of `pick`'s CPU after the library-wide reads (0018), each paying
    /// GRDB's and SQLite's per-statement cost for a row or two.
    public func movieNight(members names: [String], trendSince: Date, region: String? = nil, taste: Bool = false)
        throws(StoreError) -> NightLibrary
    {
        try read { db in
            let named = try Self.nightMembers(db, names)
            guard named.unknown.isEmpty else {
                return NightLibrary(members: [], candidates: [], prior: nil, unknown: named.unknown)
            }
            let members = named.members
            var candidates = try Self.nightCandidates(db, members, region: region)
            try Self.attachTrends(db, to: &candidates, members: members, since: trendSince)
            if region != nil { try Self.attachOffers(db, to: &candidates, members: members) }
            var library = NightLibrary(
                members: members.map(\.name), candidates: candidates, prior: try Self.nightPrior(db))
            library.ageLimits = named.limits
            if taste { library.tastes = try members.map { try Self.taste(db, memberId: $0.id, name: $0.name) } }
            if let region { library.certifications = try Self.certificationOrder(db, region: region) }
            return library
        }
    }

    /// The named members as stored, each once in the order named, their own age limits by name, and the names
    /// that are no member.
    private static func nightMembers(_ db: Database, _ names: [String]) throws
        -> (members: [NightMember], limits: [String: String], unknown: [String])
    {
        var members: [NightMember] = []
        var limits: [String: String] = [:]
        var unknown: [String] = []
        for name in names {
            let row = try Row.fetchOne(
                db, sql: "SELECT id, name, ageLimit FROM member WHERE nameKey = ?", arguments: [TitleKey.make(name)])
            guard let row else {
                unknown.append(name)
                continue
            }
            if !members.contains(where: { $0.id == row["id"] }) { members.append((row["id"], row["name"])) }
            if let limit = row["ageLimit"] as String? { limits[row["name"]] = limit }
        }
        return (members, limits, unknown)
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

    /// The members' links, one candidate per movie; the primary key (memberId, movieId) reads each member's range.
    /// With `region`, the runtime, genres and certification read for it come in the same rows, and a candidate
    /// whose offers were read for it has an empty list for `attachOffers` to fill.
    private static func nightCandidates(_ db: Database, _ members: [NightMember], region: String?) throws
        -> [NightCandidate]
    {
        guard !members.isEmpty else { return [] }
        let rows = try Row.fetchCursor(
            db,
            sql: """
                SELECT movie.id, movie.title, movie.year, movie.remoteId, movie.voteAverage, movie.voteCount,
                    memberMovie.memberId, memberMovie.watched, movie.overview, movie.posterPath,
                    movie.runtime, movie.genres,
                    CASE WHEN movieSchedule.extrasRegion = ? THEN movie.certification END AS certification,
                    movie.providersRegion = ? AS providersRead
                FROM memberMovie JOIN movie ON movie.id = memberMovie.movieId
                    LEFT JOIN movieSchedule ON movieSchedule.movieId = movie.id
                WHERE memberMovie.memberId IN (\(placeholders(members.count)))
                """,
            arguments: [region, region] + StatementArguments(members.map(\.id)))
        var byMovie: [Int64: NightCandidate] = [:]
        var marks: [Int64: (kept: Set<Int64>, watched: Set<Int64>)] = [:]
        while let row = try rows.next() {
            let movieId: Int64 = row["id"]
            if byMovie[movieId] == nil { byMovie[movieId] = nightCandidate(row, region: region) }
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

    /// One candidate from `nightCandidates`' row, its tonight's facts only when read for a region.
    private static func nightCandidate(_ row: Row, region: String?) -> NightCandidate {
        var candidate = NightCandidate(
            movieId: row["id"], title: row["title"], year: row["year"], remoteId: row["remoteId"],
            voteAverage: row["voteAverage"], voteCount: row["voteCount"], keptBy: [])
        candidate.overview = row["overview"]
        candidate.posterPath = row["posterPath"]
        guard region != nil else { return candidate }
        candidate.runtime = row["runtime"]
        candidate.genres = (row["genres"] as String?)?.split(separator: "\n").map(String.init) ?? []
        candidate.certification = row["certification"]
        if row["providersRead"] as Bool? == true { candidate.providers = [] }
        return candidate
    }

    /// The offers of the candidates read for the region (those `nightCandidates` gave an empty list), in one
    /// statement: a seek of the primary key (movieId, kind, providerId) for each movie the members keep, in that
    /// key's order, then each movie's offers by kind and name, as the movie's page lists them.
    private static func attachOffers(_ db: Database, to candidates: inout [NightCandidate], members: [NightMember])
        throws
    {
        guard !members.isEmpty else { return }
        let rows = try Row.fetchCursor(
            db,
            sql: """
                SELECT movieId, kind, providerId, name FROM movieProvider
                WHERE movieId IN (SELECT movieId FROM memberMovie WHERE memberId IN (\(placeholders(members.count))))
                ORDER BY movieId, kind, providerId
                """,
            arguments: StatementArguments(members.map(\.id)))
        var offers: [Int64: [ProviderOffer]] = [:]
        while let row = try rows.next() {
            guard let offer = ProviderOffer(row: row) else { continue }
            offers[row["movieId"], default: []].append(offer)
        }
        for index in candidates.indices where candidates[index].providers != nil {
            candidates[index].providers = (offers[candidates[index].movieId] ?? [])
                .sorted { ($0.kind, $0.name) < ($1.kind, $1.name) }
        }
    }

    /// The vote average's move since `since`, as `ratings --trend` counts it: from the figure before the window's
    /// first change (or the baseline, when the history starts inside the window) to now; no history in the window
    /// means nothing moved. One statement: for each movie the members keep, a seek of the (movieId, at) index
    /// for its first change in the window, so the cost follows the members' lists, not the library's history.
    private static func attachTrends(
        _ db: Database, to candidates: inout [NightCandidate], members: [NightMember], since: Date
    ) throws {
        guard !members.isEmpty else { return }
        let rows = try Row.fetchCursor(
            db,
            sql: """
                SELECT kept.movieId AS movieId, first.baseline AS baseline,
                    first.voteAverageBefore AS voteAverageBefore, first.voteAverage AS voteAverage
                FROM (SELECT DISTINCT movieId FROM memberMovie
                    WHERE memberId IN (\(placeholders(members.count)))) AS kept
                JOIN movieHistory AS first ON first.id = (
                    SELECT id FROM movieHistory INDEXED BY movieHistory_movieId
                    WHERE movieId = kept.movieId AND at >= ? ORDER BY at, id LIMIT 1)
                """,
            arguments: StatementArguments(members.map(\.id)) + [since.timeIntervalSince1970])
        // The figure each trend starts from; nil when the window's first change lacks it.
        var starts: [Int64: Double?] = [:]
        while let row = try rows.next() {
            let start: Double? = row["baseline"] as Bool ? row["voteAverage"] : row["voteAverageBefore"]
            starts.updateValue(start, forKey: row["movieId"])
        }
        for index in candidates.indices {
            guard let now = candidates[index].voteAverage else { continue }
            let start: Double? = starts[candidates[index].movieId] ?? now
            candidates[index].trend = start.map { FigureText.difference(now, $0) }
        }
    }

    /// "?,?,?": `count` placeholders for an `IN` list.
    private static func placeholders(_ count: Int) -> String {
        Array(repeating: "?", count: count).joined(separator: ",")
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
