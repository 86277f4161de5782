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
        library.certifications = try Self.certificationOrder(db, region: region)
        return library
    }

    /// The candidates `Suggestions.rank(library, count:, filters:)` shows, and those tied with its last on score
    /// and weighted rating, read whole with the seeds of `library` that recommend them: `Suggestions.rank` over
    /// them gives what it gives over every candidate (`SuggestionShortlist` says how, and why).
    public func suggestionShortlist(for library: SuggestionLibrary, region: String, count: Int, filters: NightFilters)
        throws(StoreError) -> [SuggestionCandidate]
    {
        try read { db in
            let links = try db.cachedStatement(sql: "SELECT remoteId FROM suggestionSource WHERE seedMovieId = ?")
            let loves = try SuggestionShortlist.loves(library) { seed, add in
                try IntegerColumn(links, arguments: [seed]).forEach(add)
            }
            var shortlist = SuggestionShortlist(library, count: count, filters: filters)
            let offers = try db.cachedStatement(sql: Self.freeOffers)
            var level = loves.level(below: nil)
            while let love = level, !shortlist.isSettled(before: love) {
                try shortlist.offer(Self.suggestionFacts(db, loves.tier(love), region: region, shortlist), love: love) {
                    try Self.offers(offers, remoteId: $0)
                }
                level = loves.level(below: love)
            }
            let seeds = Set(library.seeds.map(\.movieId))
            let recommending = try db.cachedStatement(
                sql: "SELECT seedMovieId FROM suggestionSource WHERE remoteId = ?")
            return try Self.suggestionCandidates(db, shortlist.chosen.sorted(), region: region).map {
                var candidate = $0
                try IntegerColumn(recommending, arguments: [candidate.remoteId]).forEach {
                    if seeds.contains(Int64($0)) { candidate.seeds.append(Int64($0)) }
                }
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
    /// the score look at (no title, overview or poster, and no offers: `SuggestionShortlist.offer` asks for those
    /// of the few it needs). The details and the runtime are asked of SQL first when a choice needs them, which
    /// only spares reading rows: `SuggestionShortlist.offer` judges every row as `Suggestions.rank` does.
    ///
    /// Read through the covering index `suggestionMovie_facts` (migration 0019), which SQLite does not choose on
    /// its own over the table's integer key: the table's rows carry the overview, and the 5,002 candidates of the
    /// benchmark's first tier lay on 3,710 of its 7,162 pages (15 MB read with pread, most of `suggest`'s I/O),
    /// against the index's 1,055 pages in all (the query: 15.6 ms of CPU against 11.7 ms in sqlite3 through
    /// Python, tier of 5,002, every choice).
    private static func suggestionFacts(
        _ db: Database, _ remoteIds: [Int], region: String, _ shortlist: SuggestionShortlist
    ) throws -> [SuggestionCandidate] {
        var conditions = ["voteCount > 0", "voteAverage IS NOT NULL", notSuggestedAtAll]
        if shortlist.needsDetails { conditions.append("extrasRegion = :region") }
        if shortlist.filters.maxMinutes != nil { conditions.append("runtime <= :minutes") }
        var arguments: StatementArguments = ["region": region]
        arguments += ["ids": "[" + remoteIds.map(String.init).joined(separator: ",") + "]"]
        if let minutes = shortlist.filters.maxMinutes { arguments += ["minutes": minutes] }
        let statement = try db.makeStatement(
            sql: """
                SELECT remoteId, voteAverage, voteCount, genres, runtime, certification,
                    extrasRegion = :region AS known
                FROM suggestionMovie INDEXED BY suggestionMovie_facts
                WHERE remoteId IN (SELECT value FROM json_each(:ids)) AND \(conditions.joined(separator: " AND "))
                """)
        return try Array(FactsCursor(statement, arguments: arguments))
    }

    /// `suggestionFacts`' rows as candidates, each column found by its name once: `Row`'s subscript by name
    /// lowercases the name and looks it up for every value, and the genres were split for every row (about 3 % of
    /// the every-choice run's `perf record` samples in Swift's strings and hashing, 2,779 rows); this cursor, SQLite's
    /// column reads included, takes about 1.4 %.
    private final class FactsCursor: DatabaseCursor {
        typealias Element = SuggestionCandidate
        let _statement: Statement
        var _isDone = false
        private let remoteId, voteAverage, voteCount, genres, runtime, certification, known: Int32
        /// Few distinct lists of genres over thousands of candidates: each split once.
        private var genreLists: [String: [String]] = [:]

        init(_ statement: Statement, arguments: StatementArguments) throws {
            _statement = statement
            try statement.setArguments(arguments)  // resets the statement, as GRDB's own cursors do
            func column(_ name: String) throws -> Int32 {
                guard let index = statement.index(ofColumn: name) else {
                    throw DatabaseError(message: "no column \(name) in \(statement.sql)")
                }
                return Int32(index)
            }
            (remoteId, voteAverage, voteCount, genres) = (
                try column("remoteId"), try column("voteAverage"), try column("voteCount"), try column("genres")
            )
            (runtime, certification, known) = (try column("runtime"), try column("certification"), try column("known"))
        }

        func _element(sqliteStatement: SQLiteStatement) -> SuggestionCandidate {
            func isNull(_ column: Int32) -> Bool { sqlite3_column_type(sqliteStatement, column) == SQLITE_NULL }
            func integer(_ column: Int32) -> Int? {
                isNull(column) ? nil : Int(sqlite3_column_int64(sqliteStatement, column))
            }
            func text(_ column: Int32) -> String? {
                sqlite3_column_text(sqliteStatement, column).map { String(cString: $0) }
            }
            var candidate = SuggestionCandidate(
                remoteId: integer(remoteId) ?? 0, title: "",
                voteAverage: isNull(voteAverage) ? nil : sqlite3_column_double(sqliteStatement, voteAverage),
                voteCount: integer(voteCount), genres: text(genres).map(genreList) ?? [],
                detailsKnown: (integer(known) ?? 0) != 0)
            if candidate.detailsKnown {
                (candidate.runtime, candidate.certification) = (integer(runtime), text(certification))
            }
            return candidate
        }

        private func genreList(_ text: String) -> [String] {
            if let list = genreLists[text] { return list }
            let list = text.split(separator: "\n").map(String.init)
            genreLists[text] = list
            return list
        }
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

    /// The offers at no extra cost (flatrate, free, ads) of one candidate: all `--streaming` looks at. Asked one
    /// candidate at a time, for the few `SuggestionShortlist.offer` needs: the offers of every candidate passing the
    /// other choices (2,779 of the benchmark's first tier of 5,002; and an `EXISTS` per candidate in the facts'
    /// query before that) took about 15 ms of `suggest`'s CPU, reading the 791 pages of `suggestionProvider` twice.
    private static let freeOffers = """
        SELECT kind, providerId, name FROM suggestionProvider
        WHERE remoteId = ? AND kind IN ('flatrate', 'free', 'ads')
        ORDER BY kind, providerId
        """

    private static func offers(_ statement: Statement, remoteId: Int) throws -> [ProviderOffer] {
        let rows = try Row.fetchCursor(statement, arguments: [remoteId])
        var offers: [ProviderOffer] = []
        while let row = try rows.next() {
            guard let kind = ProviderKind(rawValue: row["kind"]) else { continue }
            offers.append(ProviderOffer(kind: kind, id: row["providerId"], name: row["name"]))
        }
        return offers
    }
}
