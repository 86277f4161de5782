import Foundation
import TMDBStub
import Testing

/// Databases written by earlier releases open with the current binary and keep every row.
@Suite struct UpgradeTests {
    static let migrations = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appending(path: "Migrations")

    /// A database as the release before the per-movie schedule wrote it: migrations 0001 and 0002 only.
    func previousSchemaDatabase(at path: String) throws {
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        var sql = "CREATE TABLE schemaMigration (identifier TEXT PRIMARY KEY NOT NULL, appliedAt TEXT NOT NULL);\n"
        for name in ["0001_initial", "0002_fetch"] {
            sql += try String(contentsOf: Self.migrations.appending(path: name + ".sql"), encoding: .utf8) + "\n"
            sql += "INSERT INTO schemaMigration VALUES ('\(name)', '2026-11-01 10:00:00.000');\n"
        }
        sql += """
            INSERT INTO member VALUES (1, 'Ann', 'ann', '2026-11-01 10:00:00.000');
            INSERT INTO member VALUES (2, 'Bob', 'bob', '2026-11-01 10:00:00.000');
            INSERT INTO movie (id, title, titleKey, remoteId, popularity, voteAverage, voteCount, releaseDate,
                updatedAt, createdAt, fetchError, notFoundAt)
            VALUES (1, 'Up', 'up', 14160, 80.3, 7.9, 19300, '2009-05-28', '2026-11-01 10:00:00.000',
                    '2026-11-01 10:00:00.000', NULL, NULL),
                   (2, 'Amélie', 'amelie', 194, 7.248, 7.9, 11412, '2001-04-25', '2026-11-01 10:00:00.000',
                    '2026-11-01 10:00:00.000', 'HTTP 503', NULL),
                   (3, 'Spirited Away', 'spirited away', NULL, NULL, NULL, NULL, NULL, NULL,
                    '2026-11-01 10:00:00.000', NULL, NULL);
            INSERT INTO memberMovie VALUES (1, 1, '2026-11-01 10:00:00.000'), (1, 2, '2026-11-01 10:00:00.000'),
                (2, 1, '2026-11-01 10:00:00.000'), (2, 3, '2026-11-01 10:00:00.000');
            INSERT INTO schedule VALUES (1, 3600, '2026-11-01 11:00:00.000', 'noData', 2, 0);
            INSERT INTO fetchRun (startedAt, endedAt, result, movies, unchanged, requests, interval, nextFetchAt)
            VALUES ('2026-11-01 10:00:00.000', '2026-11-01 10:00:01.000', 'noData', 2, 2, 2, 3600,
                    '2026-11-01 11:00:00.000');
            """
        _ = try sqlite(path, sql)
        #expect(try sqlite(path, "SELECT count(*) FROM movie") == "3")
    }

    @Test func aDatabaseFromBeforeThePerMovieScheduleKeepsEveryRowAndChecksEveryMovieOnce() async throws {
        let stub = TMDBStubServer(movies: StubMovie.classics)
        try stub.start()
        defer { stub.stop() }
        let mustc = MustcBinary(stub: stub)
        try previousSchemaDatabase(at: mustc.databasePath)

        let report = try await mustc("ratings", "--format", "json")
        #expect(report.status == 0, "\(report.all)")
        #expect(report.stdout.contains("\"Ann\"") && report.stdout.contains("\"Bob\""))
        #expect(report.stdout.contains("19300") && report.stdout.contains("11412"))
        let path = mustc.databasePath
        #expect(
            try sqlite(path, "SELECT group_concat(identifier) FROM schemaMigration").contains("0003_movie_schedule"))
        #expect(try sqlite(path, "SELECT count(*) FROM memberMovie") == "4")
        #expect(try sqlite(path, "SELECT count(*) FROM movieSchedule WHERE nextCheckAt = 0") == "3")
        #expect(try sqlite(path, "SELECT fetchError FROM movie WHERE id = 2") == "HTTP 503")
        #expect(try sqlite(path, "SELECT count(*) FROM fetchRun") == "1")
        #expect(try sqlite(path, "PRAGMA foreign_key_check") == "")

        // The old schedule is long past: a plain fetch runs and checks each movie once, resolving the third.
        let fetch = try await mustc("fetch", "--json")
        #expect(fetch.status == 0, "\(fetch.all)")
        let json = try fetch.json()
        #expect(json["due"] as? Int == 3)
        #expect(json["changed"] as? Int == 1)
        #expect(json["unchanged"] as? Int == 2)
        #expect(try sqlite(path, "SELECT remoteId FROM movie WHERE id = 3") == "129")
        #expect(try sqlite(path, "SELECT fetchError IS NULL FROM movie WHERE id = 2") == "1")
        #expect(try sqlite(path, "SELECT count(*) FROM movieSchedule WHERE nextCheckAt > 0") == "3")
    }
}
