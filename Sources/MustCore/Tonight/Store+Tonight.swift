import Foundation
import GRDB

extension Store {
    /// Writes what a details answer with the appended blocks told for `region`. A part the answer lacked (a block
    /// missing or malformed) keeps what was stored, unless that was read for another region; the first provider
    /// reading for a region is a baseline, and later ones record each provider starting or ceasing to offer the
    /// movie at no extra cost.
    static func applyExtras(
        _ extras: MovieExtras, region: String, movieId: Int64, _ db: Database, now: Date, runId: Int64?
    ) throws {
        guard
            let stored = try Row.fetchOne(
                db.cachedStatement(
                    sql: """
                        SELECT movieSchedule.extrasRegion, movie.providersRegion, movie.runtime, movie.genres,
                            movie.certification
                        FROM movie JOIN movieSchedule ON movieSchedule.movieId = movie.id WHERE movie.id = ?
                        """),
                arguments: [movieId])
        else { return }
        let sameRegion = (stored["extrasRegion"] as String?) == region
        // A part the answer lacked keeps what was read for this region, and is unknown for another.
        let (storedRuntime, storedGenres, storedCertification): (Int?, String?, String?) =
            (stored["runtime"], stored["genres"], stored["certification"])
        let runtime = extras.runtime ?? (sameRegion ? storedRuntime : nil)
        let genres = extras.genres?.joined(separator: "\n") ?? (sameRegion ? storedGenres : nil)
        let certification = extras.certification ?? (sameRegion ? storedCertification : nil)
        if runtime != storedRuntime || genres != storedGenres || certification != storedCertification {
            try db.cachedStatement(sql: "UPDATE movie SET runtime = ?, genres = ?, certification = ? WHERE id = ?")
                .execute(arguments: [runtime, genres, certification, movieId])
        }
        if let overview = extras.overview {
            // Not region-bound: kept until TMDB sends another.
            try db.cachedStatement(sql: "UPDATE movie SET overview = ? WHERE id = ? AND overview IS NOT ?")
                .execute(arguments: [overview, movieId, overview])
        }
        try db.cachedStatement(sql: "UPDATE movieSchedule SET extrasCheckedAt = ?, extrasRegion = ? WHERE movieId = ?")
            .execute(arguments: [now.timeIntervalSince1970, region, movieId])
        if let providers = extras.providers {
            let comparable = (stored["providersRegion"] as String?) == region
            try replaceProviders(providers, movieId: movieId, compare: comparable, db, now: now, runId: runId)
            if !comparable {
                try db.cachedStatement(sql: "UPDATE movie SET providersRegion = ? WHERE id = ?")
                    .execute(arguments: [region, movieId])
            }
        } else if (stored["providersRegion"] as String?) != region {
            try db.cachedStatement(sql: "DELETE FROM movieProvider WHERE movieId = ?").execute(arguments: [movieId])
            try db.cachedStatement(sql: "UPDATE movie SET providersRegion = NULL WHERE id = ?")
                .execute(arguments: [movieId])
        }
    }

    /// Replaces the movie's offers, recording arrivals and departures of no-extra-cost providers when `compare`.
    /// Nothing is written when nothing moved, the common case.
    private static func replaceProviders(
        _ providers: [ProviderOffer], movieId: Int64, compare: Bool, _ db: Database, now: Date, runId: Int64?
    ) throws {
        let rows = try Row.fetchAll(
            db.cachedStatement(sql: "SELECT kind, providerId, name FROM movieProvider WHERE movieId = ?"),
            arguments: [movieId])
        let before = Set(rows.compactMap(ProviderOffer.init(row:)))
        guard before != Set(providers) else { return }
        if compare {
            let free = { (offers: any Sequence<ProviderOffer>) -> [Int: String] in
                var byId: [Int: String] = [:]
                for offer in offers where offer.kind.noExtraCost { byId[offer.id] = byId[offer.id] ?? offer.name }
                return byId
            }
            let (old, new) = (free(before), free(providers))
            let insert = try db.cachedStatement(
                sql: """
                    INSERT INTO availabilityChange (movieId, at, runId, providerId, provider, arrived)
                    VALUES (?, ?, ?, ?, ?, ?)
                    """)
            for (id, name) in new.sorted(by: { $0.key < $1.key }) where old[id] == nil {
                try insert.execute(arguments: [movieId, now.timeIntervalSince1970, runId, id, name, true])
            }
            for (id, name) in old.sorted(by: { $0.key < $1.key }) where new[id] == nil {
                try insert.execute(arguments: [movieId, now.timeIntervalSince1970, runId, id, name, false])
            }
        }
        try db.cachedStatement(sql: "DELETE FROM movieProvider WHERE movieId = ?").execute(arguments: [movieId])
        let insert = try db.cachedStatement(
            sql: "INSERT OR IGNORE INTO movieProvider (movieId, kind, providerId, name) VALUES (?, ?, ?, ?)")
        for offer in providers {
            try insert.execute(arguments: [movieId, offer.kind.rawValue, offer.id, offer.name])
        }
    }

    /// Arrivals and departures on the family's services recorded by the fetch run in progress.
    public func availabilityChangesOfRunInProgress(services: [String]) throws(StoreError) -> Int {
        let matcher = ServiceMatcher(services)
        return try read { db in
            guard let run = try RatingHistory.runInProgress(db) else { return 0 }
            let rows = try Row.fetchAll(
                db, sql: "SELECT providerId, provider FROM availabilityChange WHERE runId = ?", arguments: [run])
            return rows.filter { matcher.matches(id: $0["providerId"], name: $0["provider"]) }.count
        }
    }
}

/// A provider seen in the library for the region, and how many movies it offers in any way.
public struct SeenProvider: Sendable, Equatable, Encodable {
    public var id: Int
    public var name: String
    public var movies: Int
    /// The kinds it offers them in, cheapest first.
    public var kinds: [ProviderKind]
}

extension Store {
    /// `mustc providers`: every provider of the region's stored offers, most movies first. Reads only.
    public func providersSeen(region: String) throws(StoreError) -> [SeenProvider] {
        try read { db in
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT movieProvider.providerId, max(movieProvider.name) AS name,
                        count(DISTINCT movieProvider.movieId) AS movies, group_concat(DISTINCT movieProvider.kind) AS kinds
                    FROM movieProvider JOIN movie ON movie.id = movieProvider.movieId
                    WHERE movie.providersRegion = ?
                    GROUP BY movieProvider.providerId
                    """,
                arguments: [region])
            return rows.map { row in
                let kinds = ((row["kinds"] as String?) ?? "").split(separator: ",").compactMap {
                    ProviderKind(rawValue: String($0))
                }
                return SeenProvider(
                    id: row["providerId"], name: row["name"], movies: row["movies"], kinds: kinds.sorted())
            }
            .sorted { ($0.movies, $1.name, $1.id) > ($1.movies, $0.name, $0.id) }
        }
    }

    /// The providers `providersSeen` lists for the region, each by its id and the same name, without counting
    /// their movies: what `pick --streaming` checks family.services against. Walks the distinct (provider, name)
    /// pairs through their index and asks each for one offer on a movie read for the region, so its cost follows
    /// the providers, not the offers: grouping 150,000 offers took 0.22 s CPU, the walk under 0.01 s.
    public func providerNamesSeen(region: String) throws(StoreError) -> [(id: Int, name: String)] {
        try read { db in
            let first = "SELECT providerId, name FROM movieProvider ORDER BY providerId, name LIMIT 1"
            let next = try db.cachedStatement(
                sql: """
                    SELECT providerId, name FROM movieProvider WHERE (providerId, name) > (?, ?)
                    ORDER BY providerId, name LIMIT 1
                    """)
            // CROSS JOIN keeps the offers outside, so the look-up is a seek on the pair, not a scan of `movie`.
            let inRegion = try db.cachedStatement(
                sql: """
                    SELECT 1 FROM movieProvider CROSS JOIN movie ON movie.id = movieProvider.movieId
                    WHERE movieProvider.providerId = ? AND movieProvider.name = ? AND movie.providersRegion = ?
                    LIMIT 1
                    """)
            var names: [Int: String] = [:]
            var pair = try Row.fetchOne(db, sql: first)
            while let row = pair {
                let (id, name): (Int, String) = (row["providerId"], row["name"])
                // The greatest name seen for the region, as providersSeen's max(name).
                if try Row.fetchOne(inRegion, arguments: [id, name, region]) != nil { names[id] = name }
                pair = try Row.fetchOne(next, arguments: [id, name])
            }
            return names.sorted { $0.key < $1.key }.map { (id: $0.key, name: $0.value) }
        }
    }

    /// The region's certifications in TMDB's order, as kept; empty when never asked.
    public func certificationOrder(region: String) throws(StoreError) -> [RegionCertification] {
        try read { db in try Self.certificationOrder(db, region: region) }
    }

    /// The one read of a region's kept order, for the picks, the suggestions, a kid's share and the settings.
    static func certificationOrder(_ db: Database, region: String) throws -> [RegionCertification] {
        try Row.fetchAll(
            db,
            sql: "SELECT certification, rank FROM certificationOrder WHERE region = ? ORDER BY rank, certification",
            arguments: [region]
        ).map { RegionCertification(certification: $0["certification"], order: $0["rank"]) }
    }

}

/// What the movie's page shows of tonight's facts, for the family's region.
public struct MovieTonight: Sendable, Equatable {
    public var runtime: Int?
    public var certification: String?
    public var genres: [String]
    /// nil: the region's offers were never read.
    public var providers: [ProviderOffer]?
    /// TMDB's overview, as one line; nil until the fetch has read it.
    public var overview: String?
}

extension Store {
    /// Runtime, genres, certification and offers of a movie, as read for `region`; reads only.
    public func movieTonight(localId: Int64, region: String) throws(StoreError) -> MovieTonight {
        try read { db in
            let row = try Row.fetchOne(
                db,
                sql: """
                    SELECT movie.runtime, movie.genres,
                        CASE WHEN movieSchedule.extrasRegion = ? THEN movie.certification END AS certification,
                        movie.providersRegion = ? AS providersRead
                    FROM movie LEFT JOIN movieSchedule ON movieSchedule.movieId = movie.id WHERE movie.id = ?
                    """,
                arguments: [region, region, localId])
            guard let row else { return MovieTonight(genres: []) }
            var tonight = MovieTonight(
                runtime: row["runtime"], certification: row["certification"],
                genres: (row["genres"] as String?)?.split(separator: "\n").map(String.init) ?? [])
            tonight.overview = try String.fetchOne(
                db, sql: "SELECT overview FROM movie WHERE id = ?", arguments: [localId])
            if row["providersRead"] as Bool? == true {
                tonight.providers = try Row.fetchAll(
                    db, sql: "SELECT kind, providerId, name FROM movieProvider WHERE movieId = ?", arguments: [localId]
                ).compactMap(ProviderOffer.init(row:))
            }
            return tonight
        }
    }

    /// The genres of the library's movies, for the page's choice; sorted.
    public func genresSeen() throws(StoreError) -> [String] {
        try read { db in
            var seen = Set<String>()
            let rows = try String.fetchCursor(db, sql: "SELECT DISTINCT genres FROM movie WHERE genres IS NOT NULL")
            while let list = try rows.next() { seen.formUnion(list.split(separator: "\n").map(String.init)) }
            return seen.sorted()
        }
    }
}

extension ProviderOffer {
    /// A `movieProvider` row's `kind`, `providerId` and `name`; nil for a kind this mustc does not know.
    init?(row: Row) {
        guard let kind = ProviderKind(rawValue: row["kind"]) else { return nil }
        self.init(kind: kind, id: row["providerId"], name: row["name"])
    }
}
