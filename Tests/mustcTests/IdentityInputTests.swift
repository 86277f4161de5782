import Foundation
import TMDBStub
import Testing

/// Malformed movie names exit 64 naming the argument and write nothing; an old database upgrades through the binary.
@Suite struct IdentityInputTests {
    let mustc = MustcBinary()

    @Test(arguments: [
        (["add", "Ann", "tmdb:abc"], "tmdb:abc"), (["add", "Ann", "imdb:123"], "imdb:123"),
        (["add", "Ann", "Dune (1700)"], "Dune (1700)"), (["add", "Ann", "Dune", "--year", "3000"], "--year 3000"),
        (["add", "Ann", "Up", "https://example.com/movie/1"], "https://example.com/movie/1"),
        (["add", "Ann", "https://www.imdb.com/name/nm0000123/"], "imdb.com/name"),
        (["remove", "Ann", "tmdb:abc"], "tmdb:abc"), (["resolve", "Ann", "Dune", "Dune (1984)"], "not an id"),
        (["resolve", "Ann", "Dune", "imdb:123"], "imdb:123"),
    ])
    func malformedNamesExit64NamingTheArgumentAndWriteNothing(_ arguments: [String], _ named: String) async throws {
        let outcome = try await mustc.run(arguments)
        #expect(outcome.status == 64)
        #expect(outcome.stderr.contains(named), "\(outcome.stderr)")
        #expect(!FileManager.default.fileExists(atPath: mustc.databasePath))
    }

    @Test func resolveWithoutCredentialsIsAConfigurationError() async throws {
        #expect(try await mustc("add", "Ann", "Disney").status == 0)
        let outcome = try await mustc("resolve", "Ann", "Disney", "tmdb:603692")
        #expect(outcome.status == 78 && outcome.stderr.contains("TMDB_API_KEY"), "\(outcome.all)")
    }

    @Test func anOldSchemaDatabaseUpgradesWithNothingLost() async throws {
        try writeOldDatabase(
            at: mustc.databasePath,
            rows: """
                INSERT INTO member VALUES (1, 'Ann', 'ann', '2026-11-01'), (2, 'Bob', 'bob', '2026-11-01');
                INSERT INTO movie (id, title, titleKey, remoteId, voteAverage, voteCount, releaseDate, updatedAt,
                    createdAt)
                VALUES (1, 'Amélie', 'amelie', 194, 7.9, 11412, '2001-04-25', '2026-11-02 10:00:00.000', '2026-11-01'),
                       (2, 'Heat', 'heat', NULL, NULL, NULL, NULL, NULL, '2026-11-01');
                INSERT INTO memberMovie VALUES (1, 1, '2026-11-01'), (2, 1, '2026-11-01'), (2, 2, '2026-11-01');
                """)

        let report = try await mustc("ratings", "--format", "json")
        #expect(report.status == 0, "\(report.all)")
        let members = try #require(try report.json()["members"] as? [[String: Any]])
        let movies = members.map { ($0["movies"] as? [[String: Any]] ?? []).map { $0["title"] as? String } }
        #expect(movies == [["Amélie"], ["Amélie", "Heat"]])
        let amelie = try #require((members.first?["movies"] as? [[String: Any]])?.first)
        #expect(
            amelie["remoteId"] as? Int == 194 && amelie["year"] as? Int == 2001 && amelie["voteCount"] as? Int == 11_412
        )
        #expect(try sqlite(mustc.databasePath, "PRAGMA foreign_key_check") == "")
        #expect(try await mustc("remove", "bob", "HEAT").stdout.contains("Bob no longer has \"Heat\"."))
        #expect(
            try await mustc("add", "--no-lookup", "Cleo", "amelie").stdout.contains("Cleo now has \"Amélie (2001)\"."))
    }
}

/// Writes a database as mustc did before migration 0004: the repository's earlier migration files, recorded as
/// applied, then `rows`, all through plain SQLite.
func writeOldDatabase(at path: String, rows: String) throws {
    let migrations = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appending(path: "../../Migrations").standardized
    var script = "BEGIN; CREATE TABLE schemaMigration (identifier TEXT PRIMARY KEY NOT NULL, appliedAt TEXT NOT NULL);"
    for file in ["0001_initial", "0002_fetch"] {
        script += try String(contentsOf: migrations.appending(path: file + ".sql"), encoding: .utf8)
        script += "\nINSERT INTO schemaMigration VALUES ('\(file)', '2026-11-01 10:00:00.000');\n"
    }
    try FileManager.default.createDirectory(
        atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    _ = try sqlite(path, script + rows + "\nCOMMIT;")
}
