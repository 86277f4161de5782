import Foundation
import GRDB

/// A message waiting in the outbox for one destination.
public struct OutboxEntry: Sendable, Equatable {
    public var id: Int64
    public var destination: String
    public var message: NotifyMessage
    public var createdAt: Date
    public var attempts: Int
}

/// What `status` says of one destination; in its JSON, what never happened is null.
public struct NotifyDestinationStatus: Sendable, Equatable, Encodable {
    public var name: String
    @NullWhenAbsent public var lastSuccessAt: Date? = nil
    @NullWhenAbsent public var lastFailureAt: Date? = nil
    /// The last failure in words, sanitised and without any token.
    @NullWhenAbsent public var lastFailure: String? = nil
    /// The last answer was a refusal retrying cannot cure (401, 403): the config needs a look.
    public var configProblem: Bool
    public var waiting: Int
    public var dropped: Int
    @NullWhenAbsent public var lastDroppedAt: Date? = nil
}

extension Store {
    static let tonightSentSetting = "notify.tonightSent"

    /// Stores `message` once for each destination before anything is sent: a crash or a server that is down
    /// loses nothing. Each copy is due at once.
    public func enqueue(_ message: NotifyMessage, to destinations: [String], now: Date) throws(StoreError) {
        try write { db in
            for destination in destinations {
                try db.execute(
                    sql: """
                        INSERT INTO notifyOutbox
                            (destination, title, body, click, items, createdAt, attempts, nextAttemptAt)
                        VALUES (?, ?, ?, ?, ?, ?, 0, ?)
                        """,
                    arguments: [
                        destination, message.title, message.body, message.click, message.items,
                        now.timeIntervalSince1970,
                        now.timeIntervalSince1970,
                    ])
            }
        }
    }

    /// The destination's messages due by `now`, oldest first.
    public func dueMessages(destination: String, now: Date, limit: Int) throws(StoreError) -> [OutboxEntry] {
        try read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT id, destination, title, body, click, items, createdAt, attempts FROM notifyOutbox
                    WHERE destination = ? AND nextAttemptAt <= ? ORDER BY createdAt, id LIMIT ?
                    """,
                arguments: [destination, now.timeIntervalSince1970, limit]
            ).map { row in
                OutboxEntry(
                    id: row["id"], destination: row["destination"],
                    message: NotifyMessage(
                        title: row["title"], body: row["body"], click: row["click"], items: row["items"]),
                    createdAt: Date(timeIntervalSince1970: row["createdAt"]), attempts: row["attempts"])
            }
        }
    }

    /// The server accepted the message (`id` nil: a test message, never stored).
    public func notifyDelivered(_ id: Int64?, destination: String, now: Date) throws(StoreError) {
        try write { db in
            if let id { try db.execute(sql: "DELETE FROM notifyOutbox WHERE id = ?", arguments: [id]) }
            try db.execute(
                sql: """
                    INSERT INTO notifyDestination (name, lastSuccessAt, configProblem) VALUES (?, ?, 0)
                    ON CONFLICT (name) DO UPDATE SET lastSuccessAt = excluded.lastSuccessAt, configProblem = 0
                    """,
                arguments: [destination, now.timeIntervalSince1970])
        }
    }

    /// The message stays, due again at `retryAt` (`id` nil: a test message, never stored).
    public func notifyFailed(
        _ id: Int64?, destination: String, failure: String, configProblem: Bool, retryAt: Date, now: Date
    ) throws(StoreError) {
        try write { db in
            if let id {
                try db.execute(
                    sql: "UPDATE notifyOutbox SET attempts = attempts + 1, nextAttemptAt = ? WHERE id = ?",
                    arguments: [retryAt.timeIntervalSince1970, id])
            }
            try db.execute(
                sql: """
                    INSERT INTO notifyDestination (name, lastFailureAt, lastFailure, configProblem) VALUES (?, ?, ?, ?)
                    ON CONFLICT (name) DO UPDATE SET lastFailureAt = excluded.lastFailureAt,
                        lastFailure = excluded.lastFailure, configProblem = excluded.configProblem
                    """,
                arguments: [destination, now.timeIntervalSince1970, failure, configProblem])
        }
    }

    /// Drops messages stored before `cutoff`, counting them per destination for `status`; returns how many.
    @discardableResult
    public func dropExpiredNotifications(before cutoff: Date, now: Date) throws(StoreError) -> Int {
        try write { db in
            let counts = try Row.fetchAll(
                db,
                sql:
                    "SELECT destination, count(*) AS dropped FROM notifyOutbox WHERE createdAt < ? GROUP BY destination",
                arguments: [cutoff.timeIntervalSince1970])
            var total = 0
            for row in counts {
                let dropped: Int = row["dropped"]
                total += dropped
                try db.execute(
                    sql: """
                        INSERT INTO notifyDestination (name, dropped, lastDroppedAt) VALUES (?, ?, ?)
                        ON CONFLICT (name) DO UPDATE SET dropped = dropped + excluded.dropped,
                            lastDroppedAt = excluded.lastDroppedAt
                        """,
                    arguments: [row["destination"] as String, dropped, now.timeIntervalSince1970])
            }
            try db.execute(
                sql: "DELETE FROM notifyOutbox WHERE createdAt < ?", arguments: [cutoff.timeIntervalSince1970])
            return total
        }
    }

    /// The weekly tonight message sent last: the occurrence it was for.
    public func tonightLastSent() throws(StoreError) -> Date? {
        try read { db in
            try String.fetchOne(
                db, sql: "SELECT value FROM setting WHERE name = ?", arguments: [Self.tonightSentSetting]
            )
            .flatMap(Double.init).map(Date.init(timeIntervalSince1970:))
        }
    }

    public func markTonightSent(for occurrence: Date) throws(StoreError) {
        try write { db in
            try db.execute(
                sql:
                    "INSERT INTO setting (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value",
                arguments: [Self.tonightSentSetting, String(occurrence.timeIntervalSince1970)])
        }
    }

    /// Every member's name, for tonight's pick for the whole family.
    public func memberNames() throws(StoreError) -> [String] {
        try read { db in try String.fetchAll(db, sql: "SELECT name FROM member ORDER BY nameKey") }
    }

    public func notifyStatus() throws(StoreError) -> [NotifyDestinationStatus] {
        try read { db in try Self.notifyStatus(db) }
    }

    /// Each destination that was ever tried or has messages waiting, by name.
    static func notifyStatus(_ db: Database) throws -> [NotifyDestinationStatus] {
        let rows = try Row.fetchAll(
            db,
            sql: """
                SELECT name, lastSuccessAt, lastFailureAt, lastFailure, configProblem, dropped, lastDroppedAt,
                    (SELECT count(*) FROM notifyOutbox WHERE destination = name) AS waiting
                FROM (SELECT name FROM notifyDestination UNION SELECT destination FROM notifyOutbox) AS names
                LEFT JOIN notifyDestination USING (name)
                ORDER BY name
                """)
        func date(_ value: Double?) -> Date? { value.map(Date.init(timeIntervalSince1970:)) }
        return rows.map { row in
            NotifyDestinationStatus(
                name: row["name"], lastSuccessAt: date(row["lastSuccessAt"]), lastFailureAt: date(row["lastFailureAt"]),
                lastFailure: row["lastFailure"], configProblem: row["configProblem"] ?? false,
                waiting: row["waiting"], dropped: row["dropped"] ?? 0, lastDroppedAt: date(row["lastDroppedAt"]))
        }
    }
}
