import Foundation
import GRDB

/// Applies the embedded `Migrations/NNNN_name.sql` files in order, each once, each in its own transaction; a new,
/// empty file gets `Migrations/schema.sql` instead, the schema they make, in one (`createIfEmpty`).
///
/// Hand-rolled rather than GRDB's `DatabaseMigrator` because that one reads the applied list outside the
/// write lock: two processes opening a fresh file at once would both run 0001. Here the check and the
/// apply share one IMMEDIATE transaction.
enum Migrations {
    static var all: [(identifier: String, sql: String)] { embeddedMigrations }

    /// `contrib/schema.sh` writes it from the migrations; NewFileSchemaTests checks that both make the same file.
    static var schema: String { embeddedSchema }

    static let createLedger = """
        CREATE TABLE IF NOT EXISTS schemaMigration (
            identifier TEXT PRIMARY KEY NOT NULL, appliedAt TEXT NOT NULL)
        """

    /// SQLite's own clock, in GRDB's date format: when a file's schema changed is a fact about the file, read by no
    /// code, and opening a store takes no time source.
    static let record = """
        INSERT INTO schemaMigration (identifier, appliedAt) VALUES (?, strftime('%Y-%m-%d %H:%M:%f', 'now'))
        """

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
        guard try !writer.write(createIfEmpty) else { return }
        try applyEach(to: writer)
    }

    /// The migrations one by one, each in its own transaction: how a file of an earlier release catches up.
    static func applyEach(to writer: any DatabaseWriter) throws {
        for migration in all {
            try writer.write { db in
                try db.execute(sql: createLedger)
                let done = try Bool.fetchOne(
                    db, sql: "SELECT 1 FROM schemaMigration WHERE identifier = ?", arguments: [migration.identifier])
                guard done != true else { return }
                try db.execute(sql: migration.sql)
                try db.execute(sql: record, arguments: [migration.identifier])
            }
        }
    }

    /// A file with nothing in it yet gets the schema the migrations make in one transaction, each migration
    /// recorded as applied; false, and nothing written, when it holds anything (an earlier release's file, or one
    /// that another process made first). A new store took 10 ms of CPU through the 22 migrations and 2.2 ms on an
    /// existing file, most of the difference SQLite parsing the migrations' changes one after another; the test
    /// suite opens about 430 new files a run.
    static func createIfEmpty(_ db: Database) throws -> Bool {
        guard try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_schema") == 0, !schema.isEmpty else {
            return false
        }
        try db.execute(sql: createLedger)
        try db.execute(sql: schema)
        for migration in all { try db.execute(sql: record, arguments: [migration.identifier]) }
        return true
    }
}

extension Store {
    /// The migrations compiled into this binary, in order; tests compare them with `Migrations/`.
    public var embeddedMigrationIdentifiers: [String] { Migrations.all.map(\.identifier) }

    public func embeddedMigrationSQL(_ identifier: String) -> String? {
        Migrations.all.first { $0.identifier == identifier }?.sql
    }
}
