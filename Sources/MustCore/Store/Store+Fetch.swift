import Foundation
import GRDB

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
    /// The year the user gave: a search for an unresolved movie must ask for that one, not its remake.
    public var year: Int?

    public init(
        id: Int64, title: String, remoteId: Int? = nil, popularity: Double? = nil, voteAverage: Double? = nil,
        voteCount: Int? = nil, fetchError: String? = nil, notFoundAt: Date? = nil, year: Int? = nil
    ) {
        self.id = id
        self.title = title
        self.remoteId = remoteId
        self.popularity = popularity
        self.voteAverage = voteAverage
        self.voteCount = voteCount
        self.fetchError = fetchError
        self.notFoundAt = notFoundAt
        self.year = year
    }
}

/// One row change an UpdateMovieOperation asks for; the runner applies them in batches.
public enum MovieWrite: Sendable, Equatable {
    case ratings(movieId: Int64, RemoteMovie)
    /// A movie without a remote id was found by an exact search match (or by its IMDb id); it may merge into the
    /// movie that already has the id, taking its links and aliases along.
    case resolved(movieId: Int64, RemoteMovie)
    case failure(movieId: Int64, message: String, notFound: Bool)
    /// A movie that failed before answered normally, unchanged.
    case recovered(movieId: Int64)
}

extension Store {
    /// How many movies a run starting now covers, and the last id among them; movies added later wait for the
    /// next run.
    public func fetchScope() throws(StoreError) -> (count: Int, lastId: Int64) {
        try read { db in
            let row = try Row.fetchOne(db, sql: "SELECT count(*), coalesce(max(id), 0) FROM movie")
            return (row?[0] ?? 0, row?[1] ?? 0)
        }
    }

    /// Up to `limit` movies with ids after `afterId` and up to `lastId`, in id order: one page of a run.
    public func moviesToRefresh(after afterId: Int64 = 0, through lastId: Int64 = .max, limit: Int = .max)
        throws(StoreError) -> [StoredMovie]
    {
        try read { db in
            let rows = try Row.fetchCursor(
                db,
                sql: """
                    SELECT id, title, remoteId, popularity, voteAverage, voteCount, fetchError, notFoundAt, year
                    FROM movie WHERE id > ? AND id <= ? ORDER BY id LIMIT ?
                    """,
                arguments: [afterId, lastId, limit])
            var movies: [StoredMovie] = []
            while let row = try rows.next() {
                movies.append(
                    StoredMovie(
                        id: row[0], title: row[1], remoteId: row[2], popularity: row[3], voteAverage: row[4],
                        voteCount: row[5], fetchError: row[6], notFoundAt: row[7], year: row[8]))
            }
            return movies
        }
    }

    /// Applies a batch in one short transaction, so `mustc add` never waits long behind a fetch.
    public func apply(_ writes: [MovieWrite], now: Date = Date()) throws(StoreError) {
        guard !writes.isEmpty else { return }
        try write { db in
            for change in writes {
                switch change {
                case .ratings(let movieId, let remote):
                    try Self.updateRatings(db, movieId: movieId, with: remote, now: now)
                case .resolved(let movieId, let remote):
                    _ = try Self.resolve(db, movieId: movieId, with: remote, now: now)
                case .failure(let movieId, let message, let notFound):
                    try db.execute(
                        sql: """
                            UPDATE movie SET fetchError = ?, notFoundAt = CASE WHEN ? THEN ? ELSE notFoundAt END
                            WHERE id = ?
                            """,
                        arguments: [message, notFound, now, movieId])
                case .recovered(let movieId):
                    try db.execute(
                        sql: "UPDATE movie SET fetchError = NULL, notFoundAt = NULL WHERE id = ?", arguments: [movieId])
                }
            }
        }
    }
}
