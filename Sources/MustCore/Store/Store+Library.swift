import Foundation
import GRDB

/// The result of linking a member to a movie. Display names are as first typed.
public struct LinkOutcome: Sendable, Equatable {
    public var member: String
    public var movieId: Int64
    public var title: String
    public var remoteId: Int?
    public var memberCreated: Bool
    public var movieCreated: Bool
    /// False when the member already had this movie: nothing changed.
    public var linked: Bool
}

public struct ResolveOutcome: Sendable, Equatable {
    /// The movie that now carries the remote id: the same one, or the row it was merged into.
    public var movieId: Int64
    public var title: String
    public var mergedInto: Bool
}

public enum UnlinkOutcome: Sendable, Equatable {
    case unknownMember
    case unknownMovie
    case notLinked(member: String, title: String)
    case unlinked(member: String, title: String, movieDeleted: Bool)
}

extension Store {
    /// Finds or creates the member and the movie by their folded keys and links them.
    /// Upserts inside one IMMEDIATE transaction, so concurrent processes never create duplicates.
    public func link(member name: String, title: String, now: Date = Date()) throws(StoreError) -> LinkOutcome {
        try write { db in
            let member = try upsert(
                db, table: "member", display: "name", key: "nameKey", value: name, now: now)
            let movie = try upsert(
                db, table: "movie", display: "title", key: "titleKey", value: title, now: now)
            try db.execute(
                sql: """
                    INSERT INTO memberMovie (memberId, movieId, addedAt) VALUES (?, ?, ?)
                    ON CONFLICT (memberId, movieId) DO NOTHING
                    """,
                arguments: [member.id, movie.id, now])
            let linked = db.changesCount > 0
            let remoteId = try Int.fetchOne(db, sql: "SELECT remoteId FROM movie WHERE id = ?", arguments: [movie.id])
            return LinkOutcome(
                member: member.display, movieId: movie.id, title: movie.display, remoteId: remoteId,
                memberCreated: member.created, movieCreated: movie.created, linked: linked)
        }
    }

    private func upsert(
        _ db: Database, table: String, display: String, key: String, value: String, now: Date
    ) throws -> (id: Int64, display: String, created: Bool) {
        try db.execute(
            sql:
                "INSERT INTO \(table) (\(display), \(key), createdAt) VALUES (?, ?, ?) ON CONFLICT (\(key)) DO NOTHING",
            arguments: [value, TitleKey.make(value), now])
        let created = db.changesCount > 0
        let row = try Row.fetchOne(
            db, sql: "SELECT id, \(display) FROM \(table) WHERE \(key) = ?", arguments: [TitleKey.make(value)])
        guard let row else { throw StoreError.failed(reason: "\(table) vanished during upsert") }
        return (row[0], row[1], created)
    }

    /// Stores what TMDB says about a movie. If another movie already holds this remote id,
    /// the two become one: links move to the older row and this row is deleted.
    public func resolve(movieId: Int64, with remote: RemoteMovie, now: Date = Date()) throws(StoreError)
        -> ResolveOutcome
    {
        try write { db in try Self.resolve(db, movieId: movieId, with: remote, now: now) }
    }

    static func resolve(_ db: Database, movieId: Int64, with remote: RemoteMovie, now: Date) throws -> ResolveOutcome {
        var target = movieId
        let holder = try Int64.fetchOne(
            db, sql: "SELECT id FROM movie WHERE remoteId = ? AND id <> ?", arguments: [remote.id, movieId])
        if let holder {
            try db.execute(
                sql: """
                    INSERT INTO memberMovie (memberId, movieId, addedAt)
                    SELECT memberId, ?, addedAt FROM memberMovie WHERE movieId = ?
                    ON CONFLICT (memberId, movieId) DO NOTHING
                    """,
                arguments: [holder, movieId])
            try db.execute(sql: "DELETE FROM movie WHERE id = ?", arguments: [movieId])
            target = holder
        }
        try updateRatings(db, movieId: target, with: remote, now: now, remoteId: remote.id)
        let title = try String.fetchOne(db, sql: "SELECT title FROM movie WHERE id = ?", arguments: [target]) ?? ""
        return ResolveOutcome(movieId: target, title: title, mergedInto: holder != nil)
    }

    /// Writes TMDB's figures and clears any fetch failure recorded for the movie.
    static func updateRatings(_ db: Database, movieId: Int64, with remote: RemoteMovie, now: Date, remoteId: Int? = nil)
        throws
    {
        try db.execute(
            sql: """
                UPDATE movie SET remoteId = coalesce(?, remoteId), popularity = ?, voteAverage = ?, voteCount = ?,
                    releaseDate = ?, updatedAt = ?, fetchError = NULL, notFoundAt = NULL
                WHERE id = ?
                """,
            arguments: [
                remoteId, remote.popularity, remote.voteAverage, remote.voteCount, remote.releaseDate, now, movieId,
            ])
    }

    /// Unlinks a member from a movie, and deletes the movie once no member keeps it.
    public func unlink(member name: String, title: String) throws(StoreError) -> UnlinkOutcome {
        try write { db in
            guard
                let member = try Row.fetchOne(
                    db, sql: "SELECT id, name FROM member WHERE nameKey = ?", arguments: [TitleKey.make(name)])
            else { return .unknownMember }
            guard
                let movie = try Row.fetchOne(
                    db, sql: "SELECT id, title FROM movie WHERE titleKey = ?", arguments: [TitleKey.make(title)])
            else { return .unknownMovie }
            let (memberId, memberName): (Int64, String) = (member[0], member[1])
            let (movieId, movieTitle): (Int64, String) = (movie[0], movie[1])
            try db.execute(
                sql: "DELETE FROM memberMovie WHERE memberId = ? AND movieId = ?", arguments: [memberId, movieId])
            guard db.changesCount > 0 else { return .notLinked(member: memberName, title: movieTitle) }
            try db.execute(
                sql: "DELETE FROM movie WHERE id = ? AND NOT EXISTS (SELECT 1 FROM memberMovie WHERE movieId = ?)",
                arguments: [movieId, movieId])
            return .unlinked(member: memberName, title: movieTitle, movieDeleted: db.changesCount > 0)
        }
    }
}
