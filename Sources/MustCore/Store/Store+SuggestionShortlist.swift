import Foundation
import GRDB
import GRDBSQLite

extension Store {
    /// What `suggest` ranks for `members` (matched ignoring case and accents), without the candidates: their
    /// seeds, the library's prior, their age limits and the region's certifications; with `taste`, each watcher's
    /// taste, as `movieNight` reads it. `suggestionShortlist` then reads the candidates under tonight's choices.
    /// Reads only: the page calls it through `Store.forReading`.
    public func suggestionWatchers(members names: [String], region: String, taste: Bool = false) throws(StoreError)
        -> SuggestionLibrary
    {
        try read { db in try Self.suggestionWatchers(db, names, region: region, taste: taste) }
    }

    static func suggestionWatchers(_ db: Database, _ names: [String], region: String, taste: Bool) throws
        -> SuggestionLibrary
    {
        let (members, unknown) = try Self.memberRows(db, names)
        guard unknown.isEmpty else {
            return SuggestionLibrary(members: [], seeds: [], candidates: [], prior: nil, unknown: unknown)
        }
        var library = SuggestionLibrary(
            members: members.map(\.name), seeds: try Self.seeds(db, members: members), candidates: [],
            prior: try Self.nightPrior(db))
        if taste { library.tastes = try members.map { try Self.taste(db, memberId: $0.id, name: $0.name) } }
        for member in members {
            if let limit = try String.fetchOne(
                db, sql: "SELECT ageLimit FROM member WHERE id = ?", arguments: [member.id])
            {
                library.ageLimits[member.name] = limit
            }
        }
        library.certifications = try Row.fetchAll(
            db, sql: "SELECT certification, rank FROM certificationOrder WHERE region = ? ORDER BY rank",
            arguments: [region]
        ).map { RegionCertification(certification: $0["certification"], order: $0["rank"]) }
        return library
    }

    /// The candidates `Suggestions.rank(library, count:, filters:)` shows, and those tied with its last on score
    /// and weighted rating, read whole with the seeds of `library` that recommend them: `Suggestions.rank` over
    /// them gives what it gives over every candidate (`SuggestionShortlist` says how, and why).
    public func suggestionShortlist(for library: SuggestionLibrary, region: String, count: Int, filters: NightFilters)
        throws(StoreError) -> [SuggestionCandidate]
    {
        try read { db in
            var recommended: [Int64: [Int]] = [:]
            let links = try db.cachedStatement(sql: "SELECT remoteId FROM suggestionSource WHERE seedMovieId = ?")
            for seed in Set(library.seeds.map(\.movieId)) {
                var remoteIds: [Int] = []
                try IntegerColumn(links, arguments: [seed]).forEach { remoteIds.append($0) }
                recommended[seed] = remoteIds
            }
            let loves = SuggestionShortlist.loves(library, recommended: recommended)
            var shortlist = SuggestionShortlist(library, count: count, filters: filters)
            var level = loves.level(below: nil)
            while let love = level, !shortlist.isSettled(before: love) {
                for candidate in try Self.suggestionFacts(db, loves.tier(love), region: region, shortlist) {
                    shortlist.offer(candidate, love: love)
                }
                level = loves.level(below: love)
            }
            return try Self.suggestionCandidates(db, shortlist.chosen.sorted(), region: region).map {
                var candidate = $0
                candidate.seeds = try Int64.fetchAll(
                    db.cachedStatement(sql: "SELECT seedMovieId FROM suggestionSource WHERE remoteId = ?"),
                    arguments: [candidate.remoteId]
                ).filter { recommended[$0] != nil }
                return candidate
            }
        }
    }

    /// The first column of a statement's rows, as integers, straight from SQLite: the seeds' 131,666 links read
    /// through `Int.fetchAll` took 17 ms of CPU in a release build, most of it GRDB's generic decoding of each value
    /// (not specialized across the module), against about 4 ms in the sqlite3 CLI.
    private final class IntegerColumn: DatabaseCursor {
        typealias Element = Int
        let _statement: Statement
        var _isDone = false

        init(_ statement: Statement, arguments: StatementArguments) throws {
            _statement = statement
            try statement.setArguments(arguments)  // resets the statement, as GRDB's own cursors do
        }

        func _element(sqliteStatement: SQLiteStatement) -> Int { Int(sqlite3_column_int64(sqliteStatement, 0)) }
    }

    /// The candidates among `remoteIds` that are still suggestions and scorable, with what tonight's filters and
    /// the score look at (no title, overview or poster; the offers at no extra cost, only under `--streaming`). The
    /// details, the runtime and the services are asked of SQL first when a choice needs them, which only spares
    /// reading rows: `SuggestionShortlist.offer` judges every row as `Suggestions.rank` does.
    private static func suggestionFacts(
        _ db: Database, _ remoteIds: [Int], region: String, _ shortlist: SuggestionShortlist
    ) throws -> [SuggestionCandidate] {
        var conditions = ["voteCount > 0", "voteAverage IS NOT NULL", notSuggestedAtAll]
        if shortlist.needsDetails { conditions.append("extrasRegion = :region") }
        if shortlist.filters.maxMinutes != nil { conditions.append("runtime <= :minutes") }
        if shortlist.filters.streaming != nil {
            conditions.append(
                "EXISTS (SELECT 1 FROM suggestionProvider WHERE suggestionProvider.remoteId = suggestionMovie.remoteId"
                    + " AND kind IN ('flatrate', 'free', 'ads'))")
        }
        var arguments: StatementArguments = ["region": region]
        arguments += ["ids": "[" + remoteIds.map(String.init).joined(separator: ",") + "]"]
        if let minutes = shortlist.filters.maxMinutes { arguments += ["minutes": minutes] }
        let rows = try Row.fetchCursor(
            db,
            sql: """
                SELECT remoteId, voteAverage, voteCount, genres, runtime, certification,
                    extrasRegion = :region AS known
                FROM suggestionMovie
                WHERE remoteId IN (SELECT value FROM json_each(:ids)) AND \(conditions.joined(separator: " AND "))
                """,
            arguments: arguments)
        var candidates: [SuggestionCandidate] = []
        while let row = try rows.next() {
            var candidate = SuggestionCandidate(
                remoteId: row["remoteId"], title: "", voteAverage: row["voteAverage"],
                voteCount: row["voteCount"],
                genres: (row["genres"] as String?)?.split(separator: "\n").map(String.init) ?? [],
                detailsKnown: row["known"] as Bool? ?? false)
            if candidate.detailsKnown {
                (candidate.runtime, candidate.certification) = (row["runtime"], row["certification"])
            }
            candidates.append(candidate)
        }
        guard shortlist.filters.streaming != nil, !candidates.isEmpty else { return candidates }
        let offers = try freeOffers(db, "[" + candidates.map { String($0.remoteId) }.joined(separator: ",") + "]")
        for index in candidates.indices where candidates[index].detailsKnown {
            candidates[index].providers = offers[candidates[index].remoteId] ?? []
        }
        return candidates
    }

    /// `notSuggested` for a tier of thousands: the kept and hidden movies' ids read once into a list SQLite
    /// searches, where `notSuggested` probes two tables a candidate (two thirds of the tier's read in the sqlite3
    /// CLI, 5,000 candidates: 11 ms of CPU against 4). The same movies: a suggestion's id is never NULL, a kept
    /// movie's may be (left out, or `NOT IN` would keep nothing).
    private static let notSuggestedAtAll = """
        suggestionMovie.remoteId NOT IN (
            SELECT movie.remoteId FROM movie JOIN memberMovie ON memberMovie.movieId = movie.id
            WHERE movie.remoteId IS NOT NULL
            UNION ALL SELECT suggestionHidden.remoteId FROM suggestionHidden)
        """

    /// The offers at no extra cost (flatrate, free, ads) of the candidates in the JSON array `ids`, by candidate:
    /// all `--streaming` looks at.
    private static func freeOffers(_ db: Database, _ ids: String) throws -> [Int: [ProviderOffer]] {
        let rows = try Row.fetchCursor(
            db,
            sql: """
                SELECT remoteId, kind, providerId, name FROM suggestionProvider
                WHERE remoteId IN (SELECT value FROM json_each(?)) AND kind IN ('flatrate', 'free', 'ads')
                ORDER BY remoteId, kind, providerId
                """,
            arguments: [ids])
        var offers: [Int: [ProviderOffer]] = [:]
        while let row = try rows.next() {
            guard let kind = ProviderKind(rawValue: row["kind"]) else { continue }
            offers[row["remoteId"], default: []].append(
                ProviderOffer(kind: kind, id: row["providerId"], name: row["name"]))
        }
        return offers
    }
}
