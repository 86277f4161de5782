import Foundation
import GRDB
import GRDBSQLite

/// A movie as the fetch sees it: what is stored, to compare TMDB's answer with.
public struct StoredMovie: Sendable, Equatable {
    public var id: Int64
    public var title: String
    public var remoteId: Int?
    public var popularity: Double?
    public var voteAverage: Double?
    public var voteCount: Int?
    public var fetchError: String?
    public var notFoundAt: Date?
    /// Its place in the per-movie schedule; nil when it has no schedule row.
    public var check: MovieCheck?
    /// The year the user gave: a search for an unresolved movie must ask for that one, not its remake.
    public var year: Int?
    /// When its release and provider data were last read, and for which region (nil: never).
    public var extrasCheckedAt: Date?
    public var extrasRegion: String?
    /// TMDB's poster path as last stored; a check that brings another one writes it.
    public var posterPath: String?
    /// The IMDb id as stored; a details answer that names one the movie lacks writes it.
    public var imdbId: String?

    public init(
        id: Int64, title: String, remoteId: Int? = nil, popularity: Double? = nil, voteAverage: Double? = nil,
        voteCount: Int? = nil, fetchError: String? = nil, notFoundAt: Date? = nil, check: MovieCheck? = nil,
        year: Int? = nil, extrasCheckedAt: Date? = nil, extrasRegion: String? = nil, posterPath: String? = nil,
        imdbId: String? = nil
    ) {
        self.id = id
        self.title = title
        self.remoteId = remoteId
        self.popularity = popularity
        self.voteAverage = voteAverage
        self.voteCount = voteCount
        self.fetchError = fetchError
        self.notFoundAt = notFoundAt
        self.check = check
        self.year = year
        self.extrasCheckedAt = extrasCheckedAt
        self.extrasRegion = extrasRegion
        self.posterPath = posterPath
        self.imdbId = imdbId
    }
}

/// One row change an UpdateMovieOperation asks for; the runner applies them in batches.
public enum MovieWrite: Sendable, Equatable {
    case ratings(movieId: Int64, RemoteMovie)
    /// A movie without a remote id was found by an exact search match (or by its IMDb id); it may merge into the
    /// movie that already has the id, taking its links and aliases along.
    case resolved(movieId: Int64, RemoteMovie)
    /// A movie with no year whose title several TMDB movies have exactly: the most popular is taken, as `add`
    /// takes it, unless a media server's watch of the bare title waits on the movie (`pendingMark`): then the
    /// remakes are saved for a choice, since nobody would see the guess.
    case remakes(movieId: Int64, RemoteMovie, others: [RemoteMovie])
    case failure(movieId: Int64, message: String, notFound: Bool)
    /// Runtime, genres, certification and providers read for `region`; written whatever the ratings did.
    case extras(movieId: Int64, MovieExtras, region: String)
    /// A movie that failed before answered normally, unchanged.
    case recovered(movieId: Int64)
    /// Where the movie now stands in the per-movie schedule; every check that got this far writes one.
    case checked(movieId: Int64, MovieCheck)
    /// Figures unchanged, but TMDB names another poster (or names one for the first time, as it does for every
    /// movie of a library older than posters): the path alone, and any recorded failure cleared as `recovered` does.
    case poster(movieId: Int64, path: String)
    /// Figures unchanged, but the details name the movie's IMDb id, which it lacked (a movie linked by title or
    /// imported: search results carry none): the id alone, never replacing one stored.
    case imdbId(movieId: Int64, String)
}

extension MovieWrite {
    public var movieId: Int64 {
        switch self {
        case .ratings(let id, _), .resolved(let id, _), .remakes(let id, _, _), .failure(let id, _, _),
            .recovered(let id), .checked(let id, _), .extras(let id, _, _), .poster(let id, _), .imdbId(let id, _):
            id
        }
    }

    /// True for the writes whose outcome the run counted as a change.
    public var isChange: Bool {
        switch self {
        case .ratings, .resolved, .remakes: true
        case .failure, .recovered, .checked, .extras, .poster, .imdbId: false
        }
    }
}

/// A write SQLite refused, alone: the rest of its batch was committed.
public struct WriteFailure: Sendable, Equatable {
    public var write: MovieWrite
    public var reason: String
}

/// The movies a run starting now covers.
public struct FetchScope: Sendable, Equatable {
    /// Movies in the library.
    public var total: Int
    /// Movies due at the start (all of them for a forced run).
    public var due: Int
    /// The last movie id present at the start; a forced run stops there, so movies added later wait.
    public var lastId: Int64
    /// The start: a scheduled run takes the movies due by then.
    public var asOf: Date
    public var force: Bool

    public init(total: Int, due: Int, lastId: Int64, asOf: Date, force: Bool) {
        (self.total, self.due, self.lastId, self.asOf, self.force) = (total, due, lastId, asOf, force)
    }
}

/// Where a page of due movies ended: the next page starts after this schedule position.
public struct DueCursor: Sendable, Equatable {
    public var nextCheckAt: Double
    public var movieId: Int64
}

extension Store {
    /// How many movies a run starting at `now` covers: every movie when forced, else those due by then.
    public func fetchScope(force: Bool = true, now: Date) throws(StoreError) -> FetchScope {
        try read { db in
            let row = try Row.fetchOne(db, sql: "SELECT count(*) AS total, coalesce(max(id), 0) AS lastId FROM movie")
            let total: Int = row?["total"] ?? 0
            let due =
                force
                ? total
                : try Int.fetchOne(
                    db, sql: "SELECT count(*) FROM movieSchedule WHERE nextCheckAt <= ?",
                    arguments: [now.timeIntervalSince1970]) ?? 0
            return FetchScope(total: total, due: due, lastId: row?["lastId"] ?? 0, asOf: now, force: force)
        }
    }

    private static let storedMovieColumns = """
        movie.id, movie.title, movie.remoteId, movie.popularity, movie.voteAverage, movie.voteCount,
        movie.fetchError, movie.notFoundAt, movieSchedule.checkedAt, movieSchedule.interval,
        movieSchedule.nextCheckAt, movie.year, movieSchedule.extrasCheckedAt, movieSchedule.extrasRegion,
        movie.posterPath, movie.imdbId
        """

    /// Up to `limit` movies with ids after `afterId` and up to `lastId`, in id order: one page of a forced run.
    public func moviesToRefresh(after afterId: Int64 = 0, through lastId: Int64 = .max, limit: Int = .max)
        throws(StoreError) -> [StoredMovie]
    {
        try read { db in
            try Self.storedMovies(
                db,
                sql: """
                    SELECT \(Self.storedMovieColumns)
                    FROM movie LEFT JOIN movieSchedule ON movieSchedule.movieId = movie.id
                    WHERE movie.id > ? AND movie.id <= ? ORDER BY movie.id LIMIT ?
                    """,
                arguments: [afterId, lastId, limit])
        }
    }

    /// Up to `limit` movies due by `asOf`, most overdue first, after `cursor`: one page of a scheduled run.
    /// Paging by schedule position rather than by offset, so rows this run has already rescheduled (now due
    /// later than `asOf`) drop out and nothing is read twice. Reads the index range, not the table.
    public func dueMovies(asOf: Date, after cursor: DueCursor? = nil, limit: Int = .max) throws(StoreError)
        -> [StoredMovie]
    {
        try read { db in
            try Self.storedMovies(db, sql: Self.dueMoviesSQL, arguments: Self.dueArguments(asOf, cursor, limit))
        }
    }

    static let dueMoviesSQL = """
        SELECT \(storedMovieColumns)
        FROM movieSchedule JOIN movie ON movie.id = movieSchedule.movieId
        WHERE movieSchedule.nextCheckAt <= ? AND (movieSchedule.nextCheckAt, movieSchedule.movieId) > (?, ?)
        ORDER BY movieSchedule.nextCheckAt, movieSchedule.movieId LIMIT ?
        """

    static func dueArguments(_ asOf: Date, _ cursor: DueCursor?, _ limit: Int) -> StatementArguments {
        [asOf.timeIntervalSince1970, cursor?.nextCheckAt ?? -Double.infinity, cursor?.movieId ?? 0, limit]
    }

    /// SQLite's plan for the due query, so a test can hold it to the index (1,000 of 1,000,000 rows must not
    /// read the table).
    /// A fixed date: the test asks which index the query uses, not what it finds.
    func dueSelectionPlan(asOf: Date = Date(timeIntervalSince1970: 1_800_000_000)) throws(StoreError) -> [String] {
        try read { db in
            try Row.fetchAll(
                db, sql: "EXPLAIN QUERY PLAN " + Self.dueMoviesSQL, arguments: Self.dueArguments(asOf, nil, 1000)
            ).map { $0["detail"] as String? ?? "" }
        }
    }

    private static func storedMovies(_ db: Database, sql: String, arguments: StatementArguments) throws
        -> [StoredMovie]
    {
        let rows = try Row.fetchCursor(db, sql: sql, arguments: arguments)
        var movies: [StoredMovie] = []
        while let row = try rows.next() {
            let next: Double? = row["nextCheckAt"]
            movies.append(
                StoredMovie(
                    id: row["id"], title: row["title"], remoteId: row["remoteId"], popularity: row["popularity"],
                    voteAverage: row["voteAverage"], voteCount: row["voteCount"], fetchError: row["fetchError"],
                    notFoundAt: row["notFoundAt"],
                    check: next.map { next in
                        MovieCheck(
                            checkedAt: (row["checkedAt"] as Double?).map(Date.init(timeIntervalSince1970:)),
                            interval: row["interval"], nextCheckAt: Date(timeIntervalSince1970: next))
                    }, year: row["year"],
                    extrasCheckedAt: (row["extrasCheckedAt"] as Double?).map(Date.init(timeIntervalSince1970:)),
                    extrasRegion: row["extrasRegion"], posterPath: row["posterPath"], imdbId: row["imdbId"]))
        }
        return movies
    }

    /// When the earliest movie is due; nil for an empty library. One step down the index.
    public func earliestCheck() throws(StoreError) -> Date? {
        try read { db in
            try Double.fetchOne(db, sql: "SELECT min(nextCheckAt) FROM movieSchedule")
                .map(Date.init(timeIntervalSince1970:))
        }
    }

    /// Applies a batch in one short transaction, so `mustc add` never waits long behind a fetch.
    ///
    /// A row SQLite refuses (a constraint, a value it cannot store) must not sink the rest: it is returned as a
    /// failure, its movie records why, and the others commit. Errors that concern the whole database (busy, disk
    /// full, I/O) still fail the batch. The batch is first tried whole, with no savepoint; only when a row is
    /// refused is that transaction rolled back and the batch redone with a savepoint per write. A savepoint per
    /// write, every time, cost 8 of a changed movie's 161 µs of CPU (two writes each: its figures and its
    /// schedule; perf).
    @discardableResult
    public func apply(_ writes: [MovieWrite], now: Date) throws(StoreError) -> [WriteFailure] {
        guard !writes.isEmpty else { return [] }
        return try run {
            do {
                try writer.write { db in
                    let batch = Batch(now: now, run: try RatingHistory.runInProgress(db))
                    for change in writes {
                        do {
                            try Self.apply(change, db, batch)
                        } catch let error as DatabaseError where !Self.isRowError(error) {
                            throw error
                        } catch {
                            throw RowRefused()
                        }
                    }
                }
                return []
            } catch is RowRefused {
                return try writer.write { db in
                    try Self.applyEach(writes, db, Batch(now: now, run: RatingHistory.runInProgress(db)))
                }
            }
        }
    }

    /// Thrown out of a batch's first try, to roll it back and redo it a write at a time.
    private struct RowRefused: Error {}

    /// What every write of a batch shares. The time is turned into its stored text once: for each write, that cost
    /// a changed movie 0.9 µs of CPU (perf).
    private struct Batch {
        var now: Date
        var stamp: DatabaseValue
        var run: Int64?

        init(now: Date, run: Int64?) { (self.now, stamp, self.run) = (now, now.storedValue, run) }
    }

    /// Each write in a savepoint of its own: a refused one rolls back only itself (with the history entry it made).
    private static func applyEach(_ writes: [MovieWrite], _ db: Database, _ batch: Batch) throws
        -> [WriteFailure]
    {
        var failures: [WriteFailure] = []
        for change in writes {
            do {
                try db.inSavepoint {
                    try apply(change, db, batch)
                    return .commit
                }
            } catch let error as DatabaseError where !isRowError(error) {
                throw error
            } catch {
                let failure = WriteFailure(write: change, reason: "could not store: \(reason(error))")
                failures.append(failure)
                try? db.inSavepoint {
                    try apply(
                        .failure(movieId: change.movieId, message: failure.reason, notFound: false), db, batch)
                    return .commit
                }
            }
        }
        return failures
    }

    /// Errors that belong to one row rather than to the database.
    private static func isRowError(_ error: DatabaseError) -> Bool {
        [.SQLITE_CONSTRAINT, .SQLITE_MISMATCH, .SQLITE_TOOBIG, .SQLITE_RANGE].contains(error.resultCode)
    }

    private static func apply(_ change: MovieWrite, _ db: Database, _ batch: Batch) throws {
        switch change {
        case .ratings(let movieId, let remote):
            try updateRatings(db, movieId: movieId, with: remote, now: batch.now, stamp: batch.stamp, runId: batch.run)
        case .resolved(let movieId, let remote):
            _ = try resolve(db, movieId: movieId, with: remote, now: batch.now, runId: batch.run)
        case .remakes(let movieId, let remote, let others):
            guard try holdsMarks(db, movieId: movieId) else {
                _ = try resolve(db, movieId: movieId, with: remote, now: batch.now, runId: batch.run)
                return
            }
            try saveCandidates(db, movieId: movieId, ([remote] + others).map(MovieCandidate.init))
            let message =
                "\(others.count + 1) TMDB movies are titled exactly \"\(remote.title ?? "")\" and a media "
                + "server's watch waits for the choice; pick one with mustc resolve"
            try apply(.failure(movieId: movieId, message: message, notFound: true), db, batch)
        case .failure(let movieId, let message, let notFound):
            try db.cachedStatement(
                sql: """
                    UPDATE movie SET fetchError = ?, notFoundAt = CASE WHEN ? THEN ? ELSE notFoundAt END
                    WHERE id = ?
                    """
            ).execute(arguments: [message, notFound, batch.stamp, movieId])
        case .recovered(let movieId):
            try db.cachedStatement(sql: "UPDATE movie SET fetchError = NULL, notFoundAt = NULL WHERE id = ?")
                .execute(arguments: [movieId])
        case .checked(let movieId, let check):
            try record(check, movieId: movieId, db)
        case .extras(let movieId, let extras, let region):
            try applyExtras(extras, region: region, movieId: movieId, db, now: batch.now, runId: batch.run)
        case .poster(let movieId, let path):
            try db.cachedStatement(
                sql: "UPDATE movie SET posterPath = ?, fetchError = NULL, notFoundAt = NULL WHERE id = ?"
            ).execute(arguments: [path, movieId])
        case .imdbId(let movieId, let imdbId):
            try db.cachedStatement(sql: "UPDATE movie SET imdbId = ? WHERE id = ? AND imdbId IS NULL")
                .execute(arguments: [imdbId, movieId])
        }
    }

    /// An UPDATE, not an upsert: a movie removed (or merged away) during the run stays gone.
    ///
    /// Every check writes one, changed or not, and 050fdc5 wrote nothing for an unchanged movie: so the cached
    /// statement is bound and stepped through SQLite's C API. Through GRDB's `execute(arguments:)` the write cost
    /// 2.6 µs of CPU per movie, 1.1 of them GRDB's own (perf, 3,000 movies none changed).
    static func record(_ check: MovieCheck, movieId: Int64, _ db: Database) throws {
        let statement = try db.cachedStatement(
            sql: "UPDATE movieSchedule SET checkedAt = ?, interval = ?, nextCheckAt = ? WHERE movieId = ?")
        let handle = statement.sqliteStatement
        sqlite3_reset(handle)
        if let checkedAt = check.checkedAt {
            sqlite3_bind_double(handle, 1, checkedAt.timeIntervalSince1970)
        } else {
            sqlite3_bind_null(handle, 1)
        }
        if let interval = check.interval {
            sqlite3_bind_double(handle, 2, interval)
        } else {
            sqlite3_bind_null(handle, 2)
        }
        sqlite3_bind_double(handle, 3, check.nextCheckAt.timeIntervalSince1970)
        sqlite3_bind_int64(handle, 4, movieId)
        let code = sqlite3_step(handle)
        let message = code == SQLITE_DONE ? nil : String(cString: sqlite3_errmsg(db.sqliteConnection))
        sqlite3_reset(handle)
        if let message {
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: message, sql: statement.sql)
        }
    }
}
