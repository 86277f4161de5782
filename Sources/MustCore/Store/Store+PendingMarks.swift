import Foundation
import GRDB

/// A watched mark held back until the family says which movie a title names (`pendingMark`).
public struct HeldMark: Sendable, Equatable, Encodable {
    public var member: String
    /// The day the watch counts on once applied.
    public var day: String
    /// The media server that sent it.
    public var source: String

    public init(member: String, day: String, source: String) {
        (self.member, self.day, self.source) = (member, day, source)
    }
}

/// Watched marks a media server sent for a title that may name several movies: held, not applied, until the movie
/// is settled. Settling (`resolve`: a choice, or TMDB naming one movie) applies them, so every way a movie gets its
/// TMDB id applies them alike.
extension Store {
    /// Whether a movie is still waiting to be told apart: no TMDB id and no year, and either not asked about yet or
    /// waiting for a choice. A movie TMDB found nothing for has nothing to choose from, so a mark is not held for it.
    static func isUndecided(_ db: Database, movieId: Int64) throws -> Bool {
        try Bool.fetchOne(
            db.cachedStatement(
                sql: """
                    SELECT remoteId IS NULL AND year IS NULL AND (notFoundAt IS NULL
                        OR EXISTS (SELECT 1 FROM movieCandidate WHERE movieId = movie.id))
                    FROM movie WHERE id = ?
                    """),
            arguments: [movieId]) ?? false
    }

    /// Holds the member's watched mark on the movie; true when it changed what is held (a first hold, or a later
    /// day). The link must exist.
    static func holdMark(
        _ db: Database, memberId: Int64, movieId: Int64, day: WatchDay, source: String, now: Date
    ) throws -> Bool {
        try db.execute(
            cached: """
                INSERT INTO pendingMark (memberId, movieId, watchedOn, source, heldAt) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT (memberId, movieId) DO UPDATE
                    SET watchedOn = excluded.watchedOn, source = excluded.source, heldAt = excluded.heldAt
                    WHERE excluded.watchedOn > pendingMark.watchedOn
                """,
            arguments: [memberId, movieId, day.text, source, now.storedValue])
        return db.changesCount > 0
    }

    /// Drops the member's held mark (a server's un-mark took it back); true when there was one.
    static func dropHeldMark(_ db: Database, memberId: Int64, movieId: Int64) throws -> Bool {
        try db.execute(
            cached: "DELETE FROM pendingMark WHERE memberId = ? AND movieId = ?", arguments: [memberId, movieId])
        return db.changesCount > 0
    }

    /// Applies the movie's held marks as the server's own watched marks (a later day than one already there moves
    /// it forward; a mark by hand keeps its source), then forgets them.
    static func applyHeldMarks(_ db: Database, movieId: Int64) throws {
        try db.execute(
            cached: """
                UPDATE memberMovie SET watched = 1, watchedOn = held.watchedOn,
                    watchedSource = CASE WHEN memberMovie.watched = 1 THEN memberMovie.watchedSource ELSE held.source END
                FROM (SELECT memberId, watchedOn, source FROM pendingMark WHERE movieId = ?) AS held
                WHERE memberMovie.movieId = ? AND memberMovie.memberId = held.memberId
                    AND (memberMovie.watched = 0 OR memberMovie.watchedOn IS NULL
                        OR memberMovie.watchedOn < held.watchedOn)
                """,
            arguments: [movieId, movieId])
        try db.execute(cached: "DELETE FROM pendingMark WHERE movieId = ?", arguments: [movieId])
    }

    /// Moves held marks to the movie another is merged into, before the merged one (and its links) is deleted; the
    /// holder's links must already be there. Two held marks of one member keep the later day.
    static func moveHeldMarks(_ db: Database, from movieId: Int64, into holder: Int64) throws {
        try db.execute(
            sql: """
                INSERT INTO pendingMark (memberId, movieId, watchedOn, source, heldAt)
                SELECT memberId, ?, watchedOn, source, heldAt FROM pendingMark WHERE movieId = ?
                ON CONFLICT (memberId, movieId) DO UPDATE
                    SET watchedOn = excluded.watchedOn, source = excluded.source, heldAt = excluded.heldAt
                    WHERE excluded.watchedOn > pendingMark.watchedOn
                """,
            arguments: [holder, movieId])
    }

    /// Whether someone's watched mark waits on this movie being told apart.
    static func holdsMarks(_ db: Database, movieId: Int64) throws -> Bool {
        try Bool.fetchOne(
            db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM pendingMark WHERE movieId = ?)"),
            arguments: [movieId]) ?? false
    }

    /// Applies the movie's held marks where nothing is left to choose (TMDB found no movie of the title): the
    /// marks land on the movie as it is, as they would have without the hold.
    public func applyHeldMarks(movieId: Int64) throws(StoreError) {
        try write { db in try Self.applyHeldMarks(db, movieId: movieId) }
    }

    /// Every held mark, by movie, in member name order: for the movies that need a choice in `status`.
    static func heldMarks(_ db: Database) throws -> [Int64: [HeldMark]] {
        let rows = try Row.fetchAll(
            db,
            sql: """
                SELECT pendingMark.movieId, member.name, pendingMark.watchedOn, pendingMark.source FROM pendingMark
                JOIN member ON member.id = pendingMark.memberId ORDER BY member.nameKey
                """)
        return Dictionary(grouping: rows, by: { $0["movieId"] as Int64 }).mapValues { rows in
            rows.map { HeldMark(member: $0["name"], day: $0["watchedOn"], source: $0["source"]) }
        }
    }
}
