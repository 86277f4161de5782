import Foundation
import GRDB

/// A signed-in browser, as the database keeps it: never the token, only its hash.
public struct WebSession: Sendable, Equatable {
    public var tokenHash: String
    public var createdAt: Date
    public var lastUsedAt: Date
    /// The member whose profile was chosen; nil: none (the family password alone).
    public var memberId: Int64?
    /// Signed in with the family password.
    public var parent: Bool

    public init(tokenHash: String, createdAt: Date, lastUsedAt: Date, memberId: Int64? = nil, parent: Bool = true) {
        self.tokenHash = tokenHash
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
        self.memberId = memberId
        self.parent = parent
    }
}

extension Store {
    static let passwordSetting = "web.passwordHash"

    /// The family password's bcrypt hash, or nil when none is set (edits from the page are off).
    public func passwordHash() throws(StoreError) -> String? {
        try read { db in
            try String.fetchOne(db, sql: "SELECT value FROM setting WHERE name = ?", arguments: [Self.passwordSetting])
        }
    }

    /// Sets (or, with nil, removes) the password's hash and ends every session in the same transaction: a changed
    /// password leaves no browser signed in with the old one. Returns how many sessions were ended, and whether
    /// a password was set before.
    @discardableResult
    public func replacePassword(hash: String?) throws(StoreError) -> (endedSessions: Int, hadPassword: Bool) {
        try write { db in
            let had =
                try Bool.fetchOne(
                    db, sql: "SELECT 1 FROM setting WHERE name = ?", arguments: [Self.passwordSetting]) ?? false
            if let hash {
                try db.execute(
                    sql: "INSERT INTO setting (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = ?",
                    arguments: [Self.passwordSetting, hash, hash])
            } else {
                try db.execute(sql: "DELETE FROM setting WHERE name = ?", arguments: [Self.passwordSetting])
            }
            try db.execute(sql: "DELETE FROM webSession")
            return (db.changesCount, had)
        }
    }

    /// Records a new session: the family password's (`parent`), a member's (`memberId`), or both; sessions already
    /// expired at `expiredBefore` are deleted on the way.
    public func startSession(
        tokenHash: String, now: Date, expiredBefore: Date, memberId: Int64? = nil, parent: Bool = true
    ) throws(StoreError) {
        try write { db in
            try db.execute(sql: "DELETE FROM webSession WHERE lastUsedAt < ?", arguments: [expiredBefore.storedValue])
            try db.execute(
                sql: """
                    INSERT INTO webSession (tokenHash, createdAt, lastUsedAt, memberId, parent) VALUES (?, ?, ?, ?, ?)
                    """,
                arguments: [tokenHash, now.storedValue, now.storedValue, memberId, parent])
        }
    }

    /// The session with this token hash, if there is one (expired or not: `SessionPolicy` decides).
    public func session(tokenHash: String) throws(StoreError) -> WebSession? {
        try read { db in
            try Row.fetchOne(
                db, sql: "SELECT createdAt, lastUsedAt, memberId, parent FROM webSession WHERE tokenHash = ?",
                arguments: [tokenHash]
            ).map {
                WebSession(
                    tokenHash: tokenHash, createdAt: $0["createdAt"], lastUsedAt: $0["lastUsedAt"],
                    memberId: $0["memberId"], parent: $0["parent"])
            }
        }
    }

    /// Moves the session's last use to `now`, which keeps it alive for another lifetime.
    public func touchSession(tokenHash: String, now: Date) throws(StoreError) {
        try write { db in
            try db.execute(
                sql: "UPDATE webSession SET lastUsedAt = ? WHERE tokenHash = ?",
                arguments: [now.storedValue, tokenHash])
        }
    }

    /// Ends one session (sign-out, or found expired).
    public func endSession(tokenHash: String) throws(StoreError) {
        try write { db in
            try db.execute(sql: "DELETE FROM webSession WHERE tokenHash = ?", arguments: [tokenHash])
        }
    }
}

extension Store {
    /// The candidates saved for a movie no TMDB title matched exactly, best first: the page's settle buttons.
    public func candidates(movieId: Int64) throws(StoreError) -> [MovieCandidate] {
        try read { db in
            try Row.fetchAll(
                db, sql: "SELECT remoteId, title, year FROM movieCandidate WHERE movieId = ? ORDER BY rank",
                arguments: [movieId]
            ).map { MovieCandidate(remoteId: $0["remoteId"], title: $0["title"], year: $0["year"]) }
        }
    }
}
