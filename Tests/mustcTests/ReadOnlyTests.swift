import Foundation
import TMDBStub
import TestSupport
import Testing

/// The read commands as a user who may read the database but not write it: a family member reading the
/// database of a fetch service that runs as its own user. Tests run as root, which ignores file modes, so the
/// reader runs as `nobody` through setpriv.
@Suite(.enabled(if: getuid() == 0, "needs root to run mustc as another user"))
struct ReadOnlyTests {
    static let migrations = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appending(path: "Migrations")

    let mustc: MustcBinary
    /// The same binary and environment, run as nobody.
    let reader: MustcBinary
    let directory: String
    let binaryCopy: String

    init() throws {
        var writer = MustcBinary()
        // The database in a directory of its own, so that the test can make it read-only; the binary linked
        // next to it, since nobody may not be able to reach the build directory.
        directory = writer.home.file("db")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        binaryCopy = writer.home.file("mustc")
        try MustcBinary.link(to: binaryCopy)
        writer.environment["MUSTC_DATABASE"] = directory + "/mustc.sqlite"
        mustc = writer
        var reader = writer
        reader.executable = URL(fileURLWithPath: "/usr/bin/setpriv")
        self.reader = reader
    }

    var database: String { directory + "/mustc.sqlite" }

    func read(_ arguments: String...) async throws -> Outcome { try await read(arguments) }

    func read(_ arguments: [String]) async throws -> Outcome {
        let command = ["--reuid=65534", "--regid=65534", "--clear-groups", binaryCopy] + arguments
        // The copy can still be open for writing in a child another test thread forked before its exec (see
        // `MustcBinary.start`); setpriv then reports ETXTBSY as exit 126. Try again briefly, as `start` does.
        var outcome = try await reader.run(command)
        try await Poll.until(within: .seconds(2), every: .milliseconds(50)) {
            guard outcome.status == 126, outcome.stderr.contains("Text file busy") else { return true }
            outcome = try await reader.run(command)
            return false
        }
        return outcome
    }

    /// The database and its WAL files, byte for byte.
    func snapshot() throws -> [Data] {
        try ["", "-wal"].map { try Data(contentsOf: URL(fileURLWithPath: database + $0)) }
    }

    func makeReadOnly() throws {
        for file in [database, database + "-wal", database + "-shm"] {
            try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: file)
        }
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: directory)
    }

    @Test func everyReadCommandWorksWithoutWriteAccessAndWritesNothing() async throws {
        #expect(try await mustc("add", "--no-lookup", "Ann", "Up", "Amélie").status == 0)
        // The writer kept the WAL files for readers, the -wal emptied.
        let wal = try FileManager.default.attributesOfItem(atPath: database + "-wal")[.size] as? Int
        #expect(wal == 0)
        #expect(FileManager.default.fileExists(atPath: database + "-shm"))
        try makeReadOnly()
        let before = try snapshot()
        let commands: [[String]] = [
            ["ratings"], ["ratings", "--format", "json"], ["members"], ["members", "--format", "csv"],
            ["movies"], ["movies", "--format", "json"], ["status"], ["status", "--json"], ["changes"],
            ["changes", "--format", "json"], ["ratings", "--trend", "30d"], ["pick", "Ann"],
            ["pick", "ann", "--format", "json"], ["movies", "--member", "Ann", "--format", "csv"],
        ]
        for command in commands {
            let outcome = try await read(command)
            #expect(outcome.status == 0, "\(command): \(outcome.all)")
            let expected =
                ["status": "due", "members": "Ann", "changes": "since"][command[0]] ?? "Amélie"
            #expect(outcome.stdout.contains(expected), "\(command): \(outcome.stdout)")
        }
        #expect(try snapshot() == before)
    }

    @Test func aReaderSeesCommittedRowsWhileAWriterHoldsTheLock() async throws {
        #expect(try await mustc("add", "--no-lookup", "Ann", "Up").status == 0)
        let marker = mustc.home.file("writer-started")
        let release = mustc.home.file("writer-may-commit")
        let writer = Process()
        writer.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        // The writer holds its transaction until the test has read (or 30 s have passed), whatever the load.
        writer.arguments = [
            database, ".filectrl persist_wal 1", "BEGIN IMMEDIATE",
            "INSERT INTO member (name, nameKey, createdAt) VALUES ('Uncommitted', 'uncommitted', '2026-11-23')",
            ".shell touch \(marker)",
            ".shell for i in $(seq 600); do [ -e \(release) ] && break; sleep 0.05; done", "COMMIT",
        ]
        try ChildLaunch.run(writer)
        await Poll.until(within: .seconds(10), every: .milliseconds(20)) {
            FileManager.default.fileExists(atPath: marker)
        }
        try #require(FileManager.default.fileExists(atPath: marker), "the writer never took the lock")
        let members = try await read("members")
        #expect(members.status == 0, "\(members.all)")
        #expect(members.stdout.contains("Ann") && !members.stdout.contains("Uncommitted"))
        #expect(writer.isRunning, "the writer let go before the read finished")
        _ = FileManager.default.createFile(atPath: release, contents: nil)
        await Poll.until(within: .seconds(30), every: .milliseconds(50)) { !writer.isRunning }
        if writer.isRunning { writer.terminate() }
        #expect(try sqlite(database, "SELECT count(*) FROM member") == "2", "the writer committed in the end")
    }

    @Test func aSchemaThatNeedsMigratingNamesWhoCanMigrateIt() async throws {
        var sql = "CREATE TABLE schemaMigration (identifier TEXT PRIMARY KEY NOT NULL, appliedAt TEXT NOT NULL);\n"
        for name in ["0001_initial", "0002_fetch"] {
            sql += try String(contentsOf: Self.migrations.appending(path: name + ".sql"), encoding: .utf8) + "\n"
            sql += "INSERT INTO schemaMigration VALUES ('\(name)', '2026-11-01 10:00:00.000');\n"
        }
        sql += "INSERT INTO member VALUES (1, 'Ann', 'ann', '2026-11-01 10:00:00.000');"
        _ = try sqlite(database, sql)
        let before = try Data(contentsOf: URL(fileURLWithPath: database))

        let refused = try await read("ratings")
        #expect(refused.status == 78, "\(refused.all)")
        #expect(refused.stderr.contains("0003_movie_schedule"), "\(refused.stderr)")
        #expect(refused.stderr.contains("`mustc fetch`") && refused.stderr.contains("as root (the file's owner)"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: database)) == before)

        // The owner, who may write the file, migrates it with a read command as before; then anyone can read.
        #expect(try await mustc("members").status == 0)
        let members = try await read("members")
        #expect(members.status == 0, "\(members.all)")
        #expect(members.stdout.contains("Ann"))
    }

    /// sqlite3 with the WAL files kept, as mustc keeps them, so that nobody can still read afterwards.
    func sqliteKeepingWAL(_ sql: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        process.arguments = ["-cmd", ".timeout 5000", database, ".filectrl persist_wal 1", sql]
        let pipe = Pipe()
        process.standardOutput = pipe
        try ChildLaunch.run(process)
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        // The first line is what .filectrl printed.
        return String(decoding: data, as: UTF8.self).split(separator: "\n").dropFirst().joined(separator: "\n")
    }

    @Test func keysFromAnOlderFoldAreReadAsTheyAreAndReKeyedByTheOwner() async throws {
        #expect(try await mustc("add", "--no-lookup", "Ann", "Up").status == 0)
        let fold = "SELECT value FROM setting WHERE name = 'titleKeyFold'"
        // As if an older fold had made the keys.
        _ = try sqliteKeepingWAL("UPDATE setting SET value = '0' WHERE name = 'titleKeyFold'")
        #expect(try sqliteKeepingWAL(fold) == "0")

        let members = try await read("members")
        #expect(members.status == 0, "\(members.all)")
        #expect(members.stdout.contains("Ann"))
        #expect(try sqliteKeepingWAL(fold) == "0", "a reader never re-keys")
        #expect(try await mustc("members").status == 0)
        let rekeyed = try sqliteKeepingWAL(fold)
        #expect(!rekeyed.isEmpty && rekeyed != "0", "the owner's open re-keyed")
    }

    @Test func aWALDatabaseWithoutItsWALFilesNamesWhoCanFixIt() async throws {
        #expect(try await mustc("add", "--no-lookup", "Ann", "Up").status == 0)
        // sqlite3 deletes the -wal and -shm files when it closes, as mustc did before it kept them.
        #expect(try sqlite(database, "PRAGMA journal_mode") == "wal")
        #expect(!FileManager.default.fileExists(atPath: database + "-shm"))
        let refused = try await read("ratings")
        #expect(refused.status == 78, "\(refused.all)")
        #expect(refused.stderr.contains("-wal and -shm") && refused.stderr.contains("as root"), "\(refused.stderr)")
        #expect(try await mustc("add", "--no-lookup", "Ann", "Amélie").status == 0)
        let ratings = try await read("ratings")
        #expect(ratings.status == 0, "\(ratings.all)")
        #expect(ratings.stdout.contains("Amélie"))
    }
}
