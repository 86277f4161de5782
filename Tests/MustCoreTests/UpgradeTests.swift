import Foundation
import MustCore
import TMDBStub
import Testing

/// A database written by the schema before 0004 (the repository's own migration files, applied by plain SQLite),
/// opened by the new Store: nothing is lost and resolved movies stay resolved.
@Suite struct UpgradeTests {
    let scratch = TemporaryDirectory("upgrade")
    var path: String { scratch.file("old.sqlite") }

    static let migrations = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appending(path: "../../Migrations").standardized

    /// Members, movies resolved and not, links, ratings, a failure and a run, as mustc wrote them before.
    static let oldRows = """
        INSERT INTO member VALUES (1, 'Ann', 'ann', '2026-11-01 10:00:00.000'), (2, 'Bob', 'bob', '2026-11-01 10:00:00.000');
        INSERT INTO movie (id, title, titleKey, remoteId, popularity, voteAverage, voteCount, releaseDate, updatedAt,
            createdAt, fetchError, notFoundAt) VALUES
          (1, 'Amélie', 'amelie', 194, 7.248, 7.9, 11412, '2001-04-25', '2026-11-02 10:00:00.000',
           '2026-11-01 10:00:00.000', NULL, NULL),
          (2, 'Dune', 'dune', 438631, 160.4, 7.8, 12000, '2021-09-15', '2026-11-02 10:00:00.000',
           '2026-11-01 10:00:00.000', NULL, NULL),
          (3, 'No Such Film', 'no such film', NULL, NULL, NULL, NULL, NULL, NULL, '2026-11-01 10:00:00.000',
           'TMDB found nothing', '2026-11-02 10:00:00.000'),
          (4, 'Dune (1984)', 'dune (1984)', NULL, NULL, NULL, NULL, NULL, NULL, '2026-11-01 10:00:00.000', NULL, NULL);
        INSERT INTO memberMovie VALUES (1, 1, '2026-11-01 10:00:00.000'), (2, 1, '2026-11-01 10:00:00.000'),
          (1, 2, '2026-11-01 10:00:00.000'), (2, 3, '2026-11-01 10:00:00.000'), (2, 4, '2026-11-01 10:00:00.000');
        INSERT INTO fetchRun (startedAt, endedAt, result, movies, changed) VALUES
          ('2026-11-02 10:00:00.000', '2026-11-02 10:00:01.000', 'newData', 3, 2);
        """

    /// Writes the old file: every migration before 0004 from `Migrations/`, recorded as mustc records them.
    static func writeOldDatabase(at path: String) throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: migrations.path)
            .filter { $0.hasSuffix(".sql") && $0 < "0004" }.sorted()
        var script = "PRAGMA foreign_keys = ON; BEGIN;\n"
        script += "CREATE TABLE schemaMigration (identifier TEXT PRIMARY KEY NOT NULL, appliedAt TEXT NOT NULL);\n"
        for file in files {
            script += try String(contentsOf: migrations.appending(path: file), encoding: .utf8) + "\n"
            script += "INSERT INTO schemaMigration VALUES ('\(file.dropLast(4))', '2026-11-01 10:00:00.000');\n"
        }
        _ = try sqlite(path, script + oldRows + "\nCOMMIT;")
    }

    @Test func anOldDatabaseUpgradesInPlaceWithNothingLost() throws {
        try Self.writeOldDatabase(at: path)
        #expect(try sqlite(path, "SELECT count(*) FROM memberMovie") == "5")
        let store = try Store(path: path, logger: quietLogger)
        #expect(try sqlite(path, "SELECT identifier FROM schemaMigration ORDER BY 1").contains("0004_identity"))
        #expect(try sqlite(path, "PRAGMA foreign_key_check") == "")
        #expect(try sqlite(path, "PRAGMA integrity_check") == "ok")
        #expect(try store.members().map(\.movies) == [2, 3])
        let report = try store.ratings()
        let ann = try #require(report.members.first?.movies)
        #expect(ann.map(\.shown) == ["Amélie (2001)", "Dune (2021)"])
        #expect(ann.map(\.remoteId) == [194, 438631])
        #expect(ann.first?.voteCount == 11_412 && ann.first?.updatedAt != nil)
        #expect(try store.failingMovies().map(\.title) == ["No Such Film"])
        #expect(try store.recentRuns().map(\.changed) == [2])
        #expect(try store.unresolvedMovies() == ["Dune (1984)", "No Such Film"])
        #expect(
            try sqlite(path, "SELECT id, identityKey FROM movie ORDER BY id")
                == "1|tmdb:194\n2|tmdb:438631\n3|title:no such film\n4|title:dune (1984)")
    }

    @Test func oldTitlesStillNameTheirMoviesAndRemakesCanJoinThem() throws {
        try Self.writeOldDatabase(at: path)
        let store = try Store(path: path, logger: quietLogger)
        let amelie = try store.link(member: "Cleo", title: "AMELIE", now: testStart)
        #expect(amelie.movieId == 1 && amelie.remoteId == 194 && !amelie.movieCreated)
        // "Dune" was typed without a year and resolved to 2021; the 1984 film is another movie.
        #expect(try store.link(member: "Cleo", title: "dune", now: testStart).movieId == 2)
        let old = try store.link(member: "Cleo", movie: .title("Dune", year: 1984), now: testStart)
        #expect(old.movieId == 4 && !old.movieCreated)
        _ = try store.resolve(movieId: old.movieId, with: StoreIdentityTests.dune1984, now: testStart)
        let dunes = try store.movies().filter { $0.title.hasPrefix("Dune") }
        #expect(dunes.map(\.remoteId) == [841, 438631])
        #expect(dunes.map(\.shown) == ["Dune (1984)", "Dune (2021)"])
        #expect(
            try store.unlink(member: "Bob", title: "no such film")
                == .unlinked(member: "Bob", title: "No Such Film", movieDeleted: true))
        #expect(try sqlite(path, "PRAGMA foreign_key_check") == "")
    }

    /// The per-movie schedule (0003) lands before 0004: a table keyed by movie id with ON DELETE CASCADE, filled
    /// by an insert trigger. 0004 must leave both working and lose none of their rows.
    @Test func theScheduleTableAndItsTriggerSurviveTheUpgrade() throws {
        try Self.writeOldDatabase(at: path)
        #expect(try sqlite(path, "SELECT count(*) FROM movieSchedule") == "4")
        _ = try sqlite(path, "UPDATE movieSchedule SET nextCheckAt = 5000, interval = 1800")
        let store = try Store(path: path, logger: quietLogger)
        #expect(try sqlite(path, "SELECT count(*) FROM movieSchedule WHERE nextCheckAt = 5000.0") == "4")
        let added = try store.link(member: "Ann", movie: .title("The Lion King", year: 2019), now: testStart)
        #expect(added.movieCreated)
        #expect(try sqlite(path, "SELECT nextCheckAt FROM movieSchedule WHERE movieId = \(added.movieId)") == "0.0")
        // Resolved to the id movie 2 holds: merged into it, so its row and schedule go, movie 2's stay.
        _ = try store.resolve(movieId: added.movieId, with: StoreIdentityTests.dune2021, now: testStart)
        #expect(try sqlite(path, "SELECT count(*) FROM movieSchedule WHERE movieId = \(added.movieId)") == "0")
        #expect(try sqlite(path, "SELECT nextCheckAt FROM movieSchedule WHERE movieId = 2") == "5000.0")
        #expect(try sqlite(path, "PRAGMA foreign_key_check") == "")
    }
}

extension UpgradeTests {
    /// Each table's rows, in the columns it has now: read again with `rows(_:_:)` after an upgrade, the same columns
    /// must hold the same values, whatever columns later migrations add.
    static func rows(_ path: String, _ tables: [String], orderedBy order: String) throws -> [TableRows] {
        try tables.map { table in
            let columns = try sqlite(path, "SELECT group_concat(name, ', ') FROM pragma_table_info('\(table)')")
            return TableRows(
                table: table, columns: columns, order: order,
                rows: try sqlite(path, "SELECT \(columns) FROM \(table) ORDER BY \(order)"))
        }
    }

    static func rows(_ path: String, _ before: [TableRows]) throws -> [TableRows] {
        try before.map {
            var now = $0
            now.rows = try sqlite(path, "SELECT \($0.columns) FROM \($0.table) ORDER BY \($0.order)")
            return now
        }
    }

    struct TableRows: Equatable {
        var table, columns, order, rows: String
    }

    /// A database as a later release left it, written by plain SQLite, not mustc: 0001–0003, the rows of the
    /// release before identities (`oldRows`), then every later migration `keep` admits, each recorded as applied,
    /// then `extra`. Returns the migrations applied, for the caller to check which schema it made.
    @discardableResult
    static func writeDatabase(at path: String, keeping keep: (String) -> Bool, then extra: String = "") throws
        -> [String]
    {
        let files = try FileManager.default.contentsOfDirectory(atPath: migrations.path)
            .filter { $0.hasSuffix(".sql") && $0 != "schema.sql" && keep($0) }.sorted()
        func migration(_ file: String) throws -> String {
            try String(contentsOf: migrations.appending(path: file), encoding: .utf8) + "\n"
                + "INSERT INTO schemaMigration VALUES ('\(file.dropLast(4))', '2026-11-01 10:00:00.000');\n"
        }
        var script = "PRAGMA foreign_keys = ON; BEGIN;\n"
        script += "CREATE TABLE schemaMigration (identifier TEXT PRIMARY KEY NOT NULL, appliedAt TEXT NOT NULL);\n"
        for file in files where file < "0004" { script += try migration(file) }
        script += oldRows + "\n"
        for file in files where file >= "0004" { script += try migration(file) }
        _ = try sqlite(path, script + extra + "COMMIT;")
        return files
    }
}
