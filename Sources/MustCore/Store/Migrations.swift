import Foundation
import GRDB

/// Applies the embedded `Migrations/NNNN_name.sql` files in order, each once, each in its own transaction.
///
/// Hand-rolled rather than GRDB's `DatabaseMigrator` because that one reads the applied list outside the
/// write lock: two processes opening a fresh file at once would both run 0001. Here the check and the
/// apply share one IMMEDIATE transaction.
enum Migrations {
    static var all: [(identifier: String, sql: String)] { embeddedMigrations }

    static func appliedIdentifiers(_ db: Database) throws -> [String] {
        guard try db.tableExists("schemaMigration") else { return [] }
        return try String.fetchAll(db, sql: "SELECT identifier FROM schemaMigration ORDER BY identifier")
    }

    /// Identifiers recorded in the file that this binary does not ship: the file is from a newer mustc.
    static func unknownIdentifiers(_ db: Database) throws -> [String] {
        let known = Set(all.map(\.identifier))
        return try appliedIdentifiers(db).filter { !known.contains($0) }
    }

    /// Migrations this binary ships that the file does not have yet.
    static func pendingIdentifiers(_ db: Database) throws -> [String] {
        let applied = Set(try appliedIdentifiers(db))
        return all.map(\.identifier).filter { !applied.contains($0) }
    }

    static func apply(to writer: any DatabaseWriter) throws {
        // A current schema (every start but the first after an upgrade) needs no write transaction.
        guard try !writer.read(pendingIdentifiers).isEmpty else { return }
        for migration in all {
            try writer.write { db in
                try db.execute(
                    sql: """
                        CREATE TABLE IF NOT EXISTS schemaMigration (
                            identifier TEXT PRIMARY KEY NOT NULL, appliedAt TEXT NOT NULL)
                        """)
                let done = try Bool.fetchOne(
                    db, sql: "SELECT 1 FROM schemaMigration WHERE identifier = ?", arguments: [migration.identifier])
                guard done != true else { return }
                try db.execute(sql: migration.sql)
                // SQLite's own clock, in GRDB's date format: when a file's schema changed is a fact about the file,
                // read by no code, and opening a store takes no time source.
                try db.execute(
                    sql: """
                        INSERT INTO schemaMigration (identifier, appliedAt)
                        VALUES (?, strftime('%Y-%m-%d %H:%M:%f', 'now'))
                        """,
                    arguments: [migration.identifier])
            }
        }
    }
}

extension Store {
    /// The migrations compiled into this binary, in order; tests compare them with `Migrations/`.
    public var embeddedMigrationIdentifiers: [String] { Migrations.all.map(\.identifier) }

    public func embeddedMigrationSQL(_ identifier: String) -> String? {
        Migrations.all.first { $0.identifier == identifier }?.sql
    }
}
