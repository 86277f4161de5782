import Foundation
import GRDB

/// Where an imported row's movie stands before any lookup.
public enum ImportPlacement: Sendable, Equatable {
    /// The member already keeps it.
    case alreadyLinked
    /// The movie was known (or is named by a TMDB id the file gives): linked without asking TMDB.
    case linked
    /// Not known yet: TMDB must be asked which movie it is.
    case needsLookup
}

extension Store {
    /// Links, in one transaction, every entry whose movie is already known (by TMDB id, IMDb id, or a title and
    /// year typed before) or named by a TMDB id; the others need a lookup and are left alone.
    public func placeKnown(member: String, _ entries: [ImportEntry], now: Date) throws(StoreError)
        -> [ImportPlacement]
    {
        try place(member: member, entries, now: now).map(\.placement)
    }

    /// `placeKnown`, with what each linked row's watched mark and rating changed (nothing for a row that needs a
    /// lookup: `linkImported` applies its mark).
    public func place(member: String, _ entries: [ImportEntry], now: Date) throws(StoreError)
        -> [(placement: ImportPlacement, marked: MarkChange)]
    {
        try write { db in
            let memberId = try upsertMember(db, name: member, now: now).id
            return try entries.map { entry in
                let key = TitleKey.make(entry.title)
                let known = try Self.knownMovie(db, entry, key: key)
                guard entry.tmdbId != nil || known != nil else { return (.needsLookup, MarkChange()) }
                let movieId = try movieId(db, for: entry, key: key, known: known, now: now)
                let linked = try Self.link(db, memberId: memberId, movieId: movieId, now: now)
                let marked = try Self.applyImported(db, memberId: memberId, movieId: movieId, entry.mark)
                return (linked ? .linked : .alreadyLinked, marked)
            }
        }
    }

    /// Finds or creates the entry's movie (with its title, year and IMDb id) and links the member to it; for a
    /// row TMDB was asked about, whatever it answered: an unmatched row is kept, unresolved, with its year.
    public func linkImported(member: String, _ entry: ImportEntry, now: Date) throws(StoreError)
        -> LinkOutcome
    {
        try write { db in
            let member = try upsertMember(db, name: member, now: now)
            let key = TitleKey.make(entry.title)
            let known = try Self.knownMovie(db, entry, key: key)
            let movieId = try movieId(db, for: entry, key: key, known: known, now: now)
            let linked = try Self.link(db, memberId: member.id, movieId: movieId, now: now)
            let marked = try Self.applyImported(db, memberId: member.id, movieId: movieId, entry.mark)
            let row = try Row.fetchOne(
                db, sql: "SELECT title, year, remoteId, updatedAt FROM movie WHERE id = ?", arguments: [movieId])
            guard let row else { throw StoreError.failed(reason: "movie vanished while importing") }
            return LinkOutcome(
                member: member.display, movieId: movieId, title: row["title"], year: row["year"],
                remoteId: row["remoteId"], memberCreated: member.created, movieCreated: false, linked: linked,
                updatedAt: row["updatedAt"], marked: marked)
        }
    }

    /// Copies the database at `path` into `copy` through SQLite's backup API, opening the original read-only:
    /// a dry run imports into the copy, so the original is not touched at all (GRDB's pool writes on opening).
    public static func snapshot(of path: String, into copy: String) throws(StoreError) {
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(10)
        do {
            let source = try DatabaseQueue(path: path, configuration: configuration)
            try source.backup(to: try DatabaseQueue(path: copy))
        } catch {
            throw .cannotOpen(path: path, reason: reason(error))
        }
    }

    /// Statements run once per row are cached, and each row's movie is looked for once: compiling them for every
    /// row made a 100,000-row import several times slower (contrib/benchmarks/run --only import measures it).
    private static func link(_ db: Database, memberId: Int64, movieId: Int64, now: Date) throws -> Bool {
        try db.cachedStatement(
            sql: """
                INSERT INTO memberMovie (memberId, movieId, addedAt) VALUES (?, ?, ?)
                ON CONFLICT (memberId, movieId) DO NOTHING
                """
        ).execute(arguments: [memberId, movieId, now.storedValue])
        return db.changesCount > 0
    }

    /// The known movie, given the ids it learns from the entry, or a new one. A new movie named by a TMDB id
    /// carries the file's title and year until the next fetch asks TMDB; the schedule has it due at once.
    private func movieId(_ db: Database, for entry: ImportEntry, key: String, known: Int64?, now: Date) throws
        -> Int64
    {
        let movieId: Int64
        if let known {
            movieId = known
            // Learns ids the movie lacked; an unresolved title named here by its TMDB id now is that movie.
            if let imdbId = entry.imdbId {
                try db.cachedStatement(sql: "UPDATE movie SET imdbId = ? WHERE id = ? AND imdbId IS NULL")
                    .execute(arguments: [imdbId, known])
            }
            if let tmdbId = entry.tmdbId {
                try db.cachedStatement(
                    sql: "UPDATE movie SET remoteId = ?, identityKey = ? WHERE id = ? AND remoteId IS NULL"
                ).execute(arguments: [tmdbId, Self.identityKey(remoteId: tmdbId), known])
            }
            // A title stored with U+FFFD (a Latin-1 list read as UTF-8 before encodings were detected) takes
            // the row's spelling when the row has none.
            if !entry.title.unicodeScalars.contains("\u{FFFD}") {
                try db.cachedStatement(
                    sql: "UPDATE movie SET title = ?, titleKey = ? WHERE id = ? AND instr(title, char(65533)) > 0"
                ).execute(arguments: [entry.title, key, known])
            }
            if let uri = entry.letterboxdUri {
                try db.cachedStatement(sql: "UPDATE movie SET letterboxdUri = ? WHERE id = ? AND letterboxdUri IS NULL")
                    .execute(arguments: [uri, known])
            }
        } else {
            // A Letterboxd film is its URI until TMDB names it: "Rain" and "rain" (2019) are two films.
            let identity =
                entry.tmdbId.map(Self.identityKey(remoteId:)) ?? entry.letterboxdUri.map { "letterboxd:" + $0 }
                ?? Self.identityKey(titleKey: key, year: entry.year)
            try db.cachedStatement(
                sql: """
                    INSERT INTO movie (title, titleKey, year, identityKey, remoteId, imdbId, letterboxdUri, createdAt)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING
                    """
            ).execute(
                arguments: [
                    entry.title, key, entry.year, identity, entry.tmdbId, entry.imdbId, entry.letterboxdUri,
                    now.storedValue,
                ])
            if db.changesCount > 0 {
                movieId = db.lastInsertedRowID
            } else if let twin = try Self.caseTwinIdentity(db, entry, identity: identity, now: now) {
                movieId = twin
            } else {
                // Another process made it a moment ago: its identity finds it.
                let found = try Int64.fetchOne(
                    db.cachedStatement(sql: "SELECT id FROM movie WHERE identityKey = ?"), arguments: [identity])
                guard let found else { throw StoreError.failed(reason: "movie vanished during import") }
                movieId = found
            }
        }
        try db.cachedStatement(
            sql: "INSERT INTO movieAlias (key, year, movieId, title) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING"
        ).execute(arguments: [key, entry.year ?? 0, movieId, entry.title])
        return movieId
    }

    /// A Letterboxd row spelled apart from the movie holding its folded identity only by case ("rain" beside
    /// "Rain", 2019) is another film: a movie of its own, under an identity of its exact title. Nil otherwise.
    private static func caseTwinIdentity(_ db: Database, _ entry: ImportEntry, identity: String, now: Date) throws
        -> Int64?
    {
        guard entry.exactTitle, entry.tmdbId == nil, entry.letterboxdUri == nil,
            let holder = try String.fetchOne(
                db.cachedStatement(sql: "SELECT title FROM movie WHERE identityKey = ?"), arguments: [identity]),
            isCaseTwin(holder, entry.title)
        else { return nil }
        let exact = "letterboxd-title:" + entry.title + (entry.year.map { " (\($0))" } ?? "")
        try db.cachedStatement(
            sql: """
                INSERT INTO movie (title, titleKey, year, identityKey, imdbId, createdAt)
                VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING
                """
        ).execute(arguments: [
            entry.title, TitleKey.make(entry.title), entry.year, exact, entry.imdbId, now.storedValue,
        ])
        if db.changesCount > 0 { return db.lastInsertedRowID }
        return try Int64.fetchOne(
            db.cachedStatement(sql: "SELECT id FROM movie WHERE identityKey = ?"), arguments: [exact])
    }

    /// Two spellings of one title that differ only in case: "Rain" and "rain".
    static func isCaseTwin(_ one: String, _ other: String) -> Bool {
        one != other && one.lowercased() == other.lowercased()
    }

    /// The stored movie an entry names: by TMDB id, by IMDb id, by Letterboxd URI, else by exactly its title and
    /// year, else by a title and year typed before (folded), unless that movie has another TMDB or IMDb id or URI
    /// than the entry gives (then it is another movie of that name). `key` is the title's fold.
    static func knownMovie(_ db: Database, _ entry: ImportEntry, key: String) throws -> Int64? {
        if let tmdbId = entry.tmdbId,
            let id = try Int64.fetchOne(
                db.cachedStatement(sql: "SELECT id FROM movie WHERE remoteId = ?"), arguments: [tmdbId])
        {
            return id
        }
        if let imdbId = entry.imdbId,
            let id = try Int64.fetchOne(
                db.cachedStatement(
                    sql: "SELECT id FROM movie WHERE imdbId = ? ORDER BY remoteId IS NULL, id LIMIT 1"),
                arguments: [imdbId])
        {
            return id
        }
        if let uri = entry.letterboxdUri,
            let id = try Int64.fetchOne(
                db.cachedStatement(sql: "SELECT id FROM movie WHERE letterboxdUri = ?"), arguments: [uri])
        {
            return id
        }
        // An export read back into the database it came from: its id, if that movie still has its exact title.
        if let mustcId = entry.mustcId,
            let row = try Row.fetchOne(
                db.cachedStatement(
                    sql: """
                        SELECT id, remoteId, imdbId, letterboxdUri FROM movie WHERE id = ? AND title = ? AND year IS ?
                        """),
                arguments: [mustcId, entry.title, entry.year]),
            let id = Self.same(entry, as: row)
        {
            return id
        }
        // "Rain" and "rain" (both 2019) fold alike but are two films: the one spelled exactly so comes first.
        let exact = try Row.fetchAll(
            db.cachedStatement(
                sql: """
                    SELECT id, remoteId, imdbId, letterboxdUri FROM movie
                    WHERE titleKey = ? AND title = ? AND year IS ? ORDER BY id
                    """),
            arguments: [key, entry.title, entry.year])
        if let id = exact.lazy.compactMap({ Self.same(entry, as: $0) }).first { return id }
        let row = try Row.fetchOne(
            db.cachedStatement(
                sql: """
                    SELECT movie.id, movie.remoteId, movie.imdbId, movie.letterboxdUri, movieAlias.title AS spelled
                    FROM movieAlias JOIN movie ON movie.id = movieAlias.movieId
                    WHERE movieAlias.key = ? AND movieAlias.year = ?
                    """),
            arguments: [key, entry.year ?? 0])
        // A Letterboxd title spelled apart only by case from the one that made the alias is another film.
        if entry.exactTitle, let spelled: String = row?["spelled"], isCaseTwin(spelled, entry.title) { return nil }
        return row.flatMap { Self.same(entry, as: $0) }
    }

    /// The movie of `row` (id, remoteId, imdbId, letterboxdUri), unless it has another TMDB or IMDb id or
    /// Letterboxd URI than the entry gives.
    private static func same(_ entry: ImportEntry, as row: Row) -> Int64? {
        let (remoteId, imdbId): (Int?, String?) = (row["remoteId"], row["imdbId"])
        if let tmdbId = entry.tmdbId, let remoteId, remoteId != tmdbId { return nil }
        if let wanted = entry.imdbId, let imdbId, imdbId != wanted { return nil }
        if let wanted = entry.letterboxdUri, let uri = row["letterboxdUri"] as String?, uri != wanted { return nil }
        return row["id"]
    }
}
