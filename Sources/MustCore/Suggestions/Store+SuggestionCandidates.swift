import Foundation
import GRDB

extension Store {
    /// A recommended movie that is no suggestion: someone in the family keeps it (watched or not), or the family
    /// said "not for us".
    static let notSuggested = """
        EXISTS (SELECT 1 FROM movie JOIN memberMovie ON memberMovie.movieId = movie.id
                WHERE movie.remoteId = suggestionMovie.remoteId)
        OR EXISTS (SELECT 1 FROM suggestionHidden WHERE suggestionHidden.remoteId = suggestionMovie.remoteId)
        """

    /// What `suggest` ranks for `members` (matched ignoring case and accents): `suggestionWatchers`, and every
    /// candidate their seeds recommend. `suggest` and the page read only a shortlist (`suggestionShortlist`);
    /// reading them all is for checking it. Reads only.
    public func suggestionLibrary(members names: [String], region: String, taste: Bool = false) throws(StoreError)
        -> SuggestionLibrary
    {
        try read { db in
            var library = try Self.suggestionWatchers(db, names, region: region, taste: taste)
            let seedIds = Set(library.seeds.map(\.movieId))
            var sources: [Int: [Int64]] = [:]
            if !seedIds.isEmpty {
                let rows = try Row.fetchAll(
                    db,
                    sql: "SELECT seedMovieId, remoteId FROM suggestionSource WHERE seedMovieId IN ("
                        + seedIds.map { _ in "?" }.joined(separator: ",") + ")",
                    arguments: StatementArguments(Array(seedIds)))
                for row in rows { sources[row["remoteId"], default: []].append(row["seedMovieId"]) }
            }
            library.candidates = try Self.suggestionCandidates(db, Array(sources.keys), region: region).map {
                var candidate = $0
                candidate.seeds = sources[candidate.remoteId] ?? []
                return candidate
            }
            return library
        }
    }

    /// The candidates among `remoteIds` that are still suggestions, with their offers when read for `region`.
    static func suggestionCandidates(_ db: Database, _ remoteIds: [Int], region: String) throws
        -> [SuggestionCandidate]
    {
        guard !remoteIds.isEmpty else { return [] }
        var candidates: [SuggestionCandidate] = []
        // In chunks: SQLite allows at most 32,766 arguments a statement.
        for chunk in stride(from: 0, to: remoteIds.count, by: 10_000).map({
            remoteIds[$0..<min($0 + 10_000, remoteIds.count)]
        }) {
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT remoteId, title, year, voteAverage, voteCount, genres, overview, posterPath, runtime,
                        certification, extrasRegion = ? AS known
                    FROM suggestionMovie
                    WHERE remoteId IN (\(chunk.map { _ in "?" }.joined(separator: ","))) AND NOT (\(notSuggested))
                    """,
                arguments: StatementArguments([region as DatabaseValueConvertible] + chunk.map { $0 }))
            let offers = try Self.suggestionOffers(db, chunk, region: region)
            for row in rows {
                var candidate = SuggestionCandidate(
                    remoteId: row["remoteId"], title: row["title"], year: row["year"],
                    voteAverage: row["voteAverage"], voteCount: row["voteCount"],
                    genres: (row["genres"] as String?)?.split(separator: "\n").map(String.init) ?? [],
                    detailsKnown: row["known"] as Bool? ?? false)
                (candidate.overview, candidate.posterPath) = (row["overview"], row["posterPath"])
                if candidate.detailsKnown {
                    (candidate.runtime, candidate.certification) = (row["runtime"], row["certification"])
                    candidate.providers = (offers[candidate.remoteId] ?? []).sorted {
                        ($0.kind, $0.name) < ($1.kind, $1.name)
                    }
                }
                candidates.append(candidate)
            }
        }
        return candidates
    }

    /// The offers of the candidates among `remoteIds` whose details were read for `region`, by candidate, in one
    /// query (from the `sperf` attempt): a query a candidate took a third of `suggest`'s 10 s over 100,000. In the
    /// order of the primary key, as that query gave them, so that offers of one kind and name keep their order.
    private static func suggestionOffers(_ db: Database, _ remoteIds: ArraySlice<Int>, region: String) throws
        -> [Int: [ProviderOffer]]
    {
        let rows = try Row.fetchAll(
            db,
            sql: """
                SELECT suggestionProvider.remoteId, kind, providerId, name
                FROM suggestionProvider JOIN suggestionMovie USING (remoteId)
                WHERE suggestionMovie.extrasRegion = ?
                    AND suggestionProvider.remoteId IN (\(remoteIds.map { _ in "?" }.joined(separator: ",")))
                ORDER BY suggestionProvider.remoteId, kind, providerId
                """,
            arguments: StatementArguments([region as DatabaseValueConvertible] + remoteIds.map { $0 }))
        var offers: [Int: [ProviderOffer]] = [:]
        for row in rows {
            guard let kind = ProviderKind(rawValue: row["kind"]) else { continue }
            offers[row["remoteId"], default: []].append(
                ProviderOffer(kind: kind, id: row["providerId"], name: row["name"]))
        }
        return offers
    }

    /// The candidates whose details to read next: still suggestions, scorable, and unknown for `region` or read
    /// before `staleBefore`. Never read first (the most recommended, then the best rated), then the longest ago:
    /// with a daily cap below the candidates' count, the best could otherwise be read every day and the rest never.
    public func suggestionsNeedingDetails(region: String, staleBefore: Date, limit: Int) throws(StoreError) -> [Int] {
        try read { db in
            try Int.fetchAll(
                db,
                sql: """
                    SELECT remoteId FROM suggestionMovie
                    WHERE voteCount > 0 AND voteAverage IS NOT NULL AND NOT (\(Self.notSuggested))
                        AND (extrasRegion IS NOT ? OR detailsAt IS NULL OR detailsAt < ?)
                    ORDER BY detailsAt IS NOT NULL, detailsAt,
                        (SELECT count(*) FROM suggestionSource WHERE suggestionSource.remoteId =
                            suggestionMovie.remoteId) DESC,
                        voteAverage DESC, remoteId
                    LIMIT ?
                    """,
                arguments: [region, staleBefore.timeIntervalSince1970, limit])
        }
    }

    /// Stores a candidate's details: figures, runtime, genres, certification and offers for `region`; nil extras
    /// (a block missing) leaves it unknown for the region, to be asked again after the cadence.
    public func recordSuggestionDetails(
        remoteId: Int, _ movie: RemoteMovie, extras: MovieExtras?, region: String, now: Date
    ) throws(StoreError) {
        try write { db in
            let known = extras?.certification != nil && extras?.providers != nil
            try db.execute(
                sql: """
                    UPDATE suggestionMovie SET voteAverage = coalesce(?, voteAverage), voteCount = coalesce(?, voteCount),
                        posterPath = coalesce(?, posterPath), runtime = ?,
                        genres = coalesce(?, genres), certification = ?, extrasRegion = ?, detailsAt = ?
                    WHERE remoteId = ?
                    """,
                arguments: [
                    movie.voteAverage, movie.voteCount, movie.posterPath, extras?.runtime,
                    extras?.genres?.joined(separator: "\n"), extras?.certification ?? nil, known ? region : nil,
                    now.timeIntervalSince1970, remoteId,
                ])
            try db.execute(sql: "DELETE FROM suggestionProvider WHERE remoteId = ?", arguments: [remoteId])
            // Compiled once for the offers, not once each.
            let insert = try db.cachedStatement(
                sql: "INSERT OR IGNORE INTO suggestionProvider (remoteId, kind, providerId, name) VALUES (?, ?, ?, ?)")
            for offer in extras?.providers ?? [] {
                try insert.execute(arguments: [remoteId, offer.kind.rawValue, offer.id, offer.name])
            }
            try Self.spendDetails(db, now: now)
        }
    }

    /// A candidate's details could not be had. `gone` (TMDB answered 404): it is no suggestion any more; the
    /// others stand. Otherwise it is asked again after the cadence.
    public func recordSuggestionDetailsFailed(remoteId: Int, gone: Bool, now: Date) throws(StoreError) {
        try write { db in
            if gone {
                try db.execute(sql: "DELETE FROM suggestionMovie WHERE remoteId = ?", arguments: [remoteId])
            } else {
                try db.execute(
                    sql: "UPDATE suggestionMovie SET detailsAt = ? WHERE remoteId = ?",
                    arguments: [now.timeIntervalSince1970, remoteId])
            }
            try Self.spendDetails(db, now: now)
        }
    }

    private static func spendDetails(_ db: Database, now: Date) throws {
        try db.execute(
            sql: "INSERT INTO suggestionSpend (at, kind) VALUES (?, 'details')", arguments: [now.timeIntervalSince1970])
    }

    /// "Not for us": the suggestion named `reference` (its TMDB id, or its title, ignoring case and accents, with
    /// its year when given) is never suggested again. Returns the titles hidden; empty when no suggestion is so named.
    public func hideSuggestion(_ reference: MovieReference, now: Date) throws(StoreError) -> [String] {
        try write { db in
            let rows = try Row.fetchAll(db, sql: "SELECT remoteId, title, year FROM suggestionMovie")
            let chosen = rows.filter { row in
                switch reference {
                case .tmdb(let id): return row["remoteId"] == id
                case .title(let title, let year):
                    return TitleKey.make(row["title"]) == TitleKey.make(title)
                        && (year == nil || (row["year"] as Int?) == year)
                default: return false
                }
            }
            for row in chosen {
                try db.execute(
                    sql: "INSERT OR REPLACE INTO suggestionHidden (remoteId, title, hiddenAt) VALUES (?, ?, ?)",
                    arguments: [row["remoteId"] as Int, row["title"] as String, now.timeIntervalSince1970])
            }
            return chosen.map { MovieName.shown($0["title"], $0["year"]) }
        }
    }

    /// Takes back one "not for us" (the page's Undo); the title it was hidden under, nil when it was not hidden.
    public func unhideSuggestion(remoteId: Int) throws(StoreError) -> String? {
        try write { db in
            let title = try String.fetchOne(
                db, sql: "SELECT title FROM suggestionHidden WHERE remoteId = ?", arguments: [remoteId])
            try db.execute(sql: "DELETE FROM suggestionHidden WHERE remoteId = ?", arguments: [remoteId])
            return title
        }
    }

    /// Clears every "not for us"; returns how many there were.
    public func forgetHiddenSuggestions() throws(StoreError) -> Int {
        try write { db in
            try db.execute(sql: "DELETE FROM suggestionHidden")
            return db.changesCount
        }
    }
}
