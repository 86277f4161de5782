import Foundation
import GRDB

/// What storing a media server's event did, in one line, and the link a lookup may still be owed.
public struct MediaEventOutcome: Sendable, Equatable {
    /// The member the event went to; nil when the user is no member (the event was ignored, and listed by status).
    public var member: String?
    /// "marked The Matrix (1999) watched for Ann", "…already marked watched today", …
    public var said: String
    /// The member's link to the movie, when the event made or touched one: the movie may still need TMDB.
    public var link: LinkOutcome?
}

/// One event as `status` lists it.
public struct MediaEventRecord: Sendable, Equatable, Encodable {
    public var server: String
    public var receivedAt: Date
    public var user: String
    /// nil: the user is no member, and the event was ignored.
    @NullWhenAbsent public var member: String? = nil
    public var movie: String
    public var outcome: String
}

/// The media servers' part of `status`: the last event of each server, and the last ones from unknown users.
public struct MediaEventStatus: Sendable, Equatable, Encodable {
    public var last: [MediaEventRecord] = []
    public var unknownUsers: [MediaEventRecord] = []
    public var isEmpty: Bool { last.isEmpty && unknownUsers.isEmpty }
}

extension Store {
    /// Events kept per server, for `status`: enough to show the last one and the last unknown users.
    static let mediaEventsKept = 20

    /// When each kind of server's URL was made; empty before the first `mustc webhook`.
    public func webhookTokensMade() throws(StoreError) -> [MediaServer: Date] {
        try read { db in
            var made: [MediaServer: Date] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT server, createdAt FROM webhookToken") {
                if let server = MediaServer(rawValue: row["server"]) { made[server] = row["createdAt"] }
            }
            return made
        }
    }

    /// The stored hash of a server's token, to check a URL against.
    public func webhookTokenHash(_ server: MediaServer) throws(StoreError) -> String? {
        try read { db in
            try String.fetchOne(
                db.cachedStatement(sql: "SELECT tokenHash FROM webhookToken WHERE server = ?"),
                arguments: [server.rawValue])
        }
    }

    /// Replaces every server's token hash at once: the old URLs stop working with this commit.
    public func replaceWebhookTokens(_ hashes: [MediaServer: String], now: Date) throws(StoreError) {
        try write { db in
            try db.execute(sql: "DELETE FROM webhookToken")
            for (server, hash) in hashes {
                try db.execute(
                    sql: "INSERT INTO webhookToken (server, tokenHash, createdAt) VALUES (?, ?, ?)",
                    arguments: [server.rawValue, hash, now.storedValue])
            }
        }
    }

    /// Sends a media server user's events to the member `name` (`mustc member NAME --media-user USER`); the member's
    /// name as stored, or nil when there is no such member (nothing written).
    public func mapMediaUser(_ user: String, toMember name: String) throws(StoreError) -> String? {
        try write { db in
            guard
                let member = try Row.fetchOne(
                    db, sql: "SELECT id, name FROM member WHERE nameKey = ?", arguments: [TitleKey.make(name)])
            else { return nil }
            try db.execute(
                sql: """
                    INSERT INTO mediaUser (userKey, user, memberId) VALUES (?, ?, ?)
                    ON CONFLICT (userKey) DO UPDATE SET user = excluded.user, memberId = excluded.memberId
                    """,
                arguments: [TitleKey.make(user), user, member["id"] as Int64])
            return member["name"]
        }
    }

    /// The member a media server's user stands for: the one mapped to them, else the member of that (folded) name.
    static func mediaMember(_ db: Database, user: String) throws -> (id: Int64, name: String)? {
        let key = TitleKey.make(user)
        let row =
            try Row.fetchOne(
                db.cachedStatement(
                    sql: """
                        SELECT member.id, member.name FROM mediaUser JOIN member ON member.id = mediaUser.memberId
                        WHERE mediaUser.userKey = ?
                        """), arguments: [key])
            ?? Row.fetchOne(
                db.cachedStatement(sql: "SELECT id, name FROM member WHERE nameKey = ?"), arguments: [key])
        return row.map { ($0["id"], $0["name"]) }
    }

    /// The last event of each server and the last few from users who are no member, newest first.
    public func mediaEventStatus() throws(StoreError) -> MediaEventStatus {
        try read { db in try Self.mediaEventStatus(db) }
    }

    static func mediaEventStatus(_ db: Database) throws -> MediaEventStatus {
        func records(_ sql: String) throws -> [MediaEventRecord] {
            try Row.fetchAll(db, sql: sql).map {
                MediaEventRecord(
                    server: $0["server"], receivedAt: $0["receivedAt"], user: $0["user"], member: $0["member"],
                    movie: $0["movie"], outcome: $0["outcome"])
            }
        }
        let columns = """
            SELECT mediaEvent.server, mediaEvent.receivedAt, mediaEvent.user, member.name AS member, mediaEvent.movie,
                mediaEvent.outcome
            FROM mediaEvent LEFT JOIN member ON member.id = mediaEvent.memberId
            """
        return MediaEventStatus(
            last: try records(
                columns + " WHERE mediaEvent.id IN (SELECT max(id) FROM mediaEvent GROUP BY server) ORDER BY server"),
            unknownUsers: try records(
                columns + " WHERE mediaEvent.memberId IS NULL ORDER BY mediaEvent.id DESC LIMIT 5")
        )
    }
}
