import Foundation
import GRDB
import TMDBStub
import Testing

@testable import MustCore

/// A new file gets `Migrations/schema.sql` in one transaction; a file of an earlier release, the migrations one by
/// one. Both must make the same file.
@Suite struct NewFileSchemaTests {
    let scratch = TemporaryDirectory("schema")

    static let objects =
        "SELECT type || ' ' || name || ' on ' || tbl_name || ': ' || ifnull(sql, '') FROM sqlite_schema ORDER BY type, name"
    static let ledger = "SELECT group_concat(identifier) FROM (SELECT identifier FROM schemaMigration ORDER BY 1)"

    /// Every table, index and trigger, with its SQL as SQLite keeps it, and the same migrations recorded. After a
    /// new migration, `contrib/schema.sh` writes the schema again.
    @Test func aNewFileHasTheSchemaTheMigrationsMake() throws {
        let created = try Store(path: scratch.file("new.sqlite"), logger: quietLogger)
        try Migrations.applyEach(to: try DatabaseQueue(path: scratch.file("migrated.sqlite")))
        let made = try sqlite(created.path, Self.objects)
        #expect(
            made == (try sqlite(scratch.file("migrated.sqlite"), Self.objects)),
            "Migrations/schema.sql is not the schema the migrations make: run contrib/schema.sh")
        #expect(made.contains("table movie on movie: CREATE TABLE movie") && made.contains("trigger "), "\(made)")
        let recorded = try sqlite(created.path, Self.ledger)
        #expect(recorded == Migrations.all.map(\.identifier).joined(separator: ","))
        #expect(recorded == (try sqlite(scratch.file("migrated.sqlite"), Self.ledger)))
    }

    /// A file that holds anything, though no migration is recorded in it, is not given the schema: the migrations
    /// run one by one and the first one's refusal is the store's error, with the file as it was.
    @Test func aFileWithATableIsNotGivenTheSchema() throws {
        let path = scratch.file("taken.sqlite")
        _ = try sqlite(path, "CREATE TABLE member (id INTEGER PRIMARY KEY)")
        #expect(throws: StoreError.self) { try Store(path: path, logger: quietLogger) }
        #expect(try sqlite(path, "SELECT group_concat(name) FROM sqlite_schema") == "member")
    }
}
