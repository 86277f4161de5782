import Foundation
import GRDB
import GRDBSQLite
import Logging

/// Owns the SQLite database: opening, migrating, and every read and write, named for intent.
public final class Store: Sendable {
    public let path: String
    /// A pool for commands that write; a read-only queue for those that only read (`Store.forReading`).
    let writer: any DatabaseWriter
    let logger: Logger
    /// The writer's checkpoints, when they run off its commits (`backgroundCheckpoints`).
    let checkpoints: BackgroundCheckpoints?

    /// Opens (creating if needed) the database at `path` and brings its schema up to date.
    /// - Parameter pooled: false for a command that should write nothing when nothing changes (`import`): an
    ///   existing file is opened through one connection. GRDB's pool, opening a database whose -wal is empty (as
    ///   every clean close leaves it), creates and drops a table to make one, which rewrites the file's header.
    /// - Parameter backgroundCheckpoints: true for `serve`, whose short writes come from many clients at once: the
    ///   log is copied into the database on a queue of its own, not in the commit that fills it
    ///   (`BackgroundCheckpoints` says what that took off a webhook's answer).
    public init(path: String, logger: Logger, pooled: Bool = true, backgroundCheckpoints: Bool = false)
        throws(StoreError)
    {
        self.path = path
        self.logger = logger
        let directory = (path as NSString).deletingLastPathComponent
        do {
            if !directory.isEmpty {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            }
        } catch {
            throw .cannotOpen(path: path, reason: "cannot create directory \(directory)")
        }
        try Self.refuseNewerSchema(at: path)
        var configuration = Self.configuration
        // Keep the -wal and -shm files when the last writer closes: a user who may only read the database
        // cannot create them, and SQLite cannot open a WAL database read-only without them.
        // With a size limit, the kept -wal is truncated to zero bytes on close and to 4 MB after each checkpoint,
        // rather than keeping the largest size a run ever gave it. `serve`'s limit is the largest log its background
        // checkpoints let grow (`BackgroundCheckpoints.keptLog`): the log starts over in a webhook's commit, and
        // cutting it there (then growing the file again) was half of that commit's pause.
        let sizeLimit = backgroundCheckpoints ? BackgroundCheckpoints.keptLog : 4_194_304
        configuration.prepareDatabase { db in
            var keep: Int32 = 1
            let kept = sqlite3_file_control(db.sqliteConnection, nil, SQLITE_FCNTL_PERSIST_WAL, &keep)
            if kept != SQLITE_OK { throw DatabaseError(resultCode: ResultCode(rawValue: kept)) }
            try db.execute(sql: "PRAGMA journal_size_limit = \(sizeLimit)")
        }
        checkpoints =
            backgroundCheckpoints
            ? BackgroundCheckpoints(path: path, configuration: configuration, logger: logger) : nil
        do {
            if !pooled, FileManager.default.fileExists(atPath: path) {
                writer = try DatabaseQueue(path: path, configuration: configuration)
            } else {
                writer = try DatabasePool(path: path, configuration: configuration)
            }
        } catch {
            throw .cannotOpen(path: path, reason: Self.reason(error))
        }
        try run {
            try Migrations.apply(to: writer)
            try Self.rekeyIfFoldChanged(writer)
            checkpoints?.install(on: writer)
        }
        logger.debug("database ready", metadata: ["path": "\(path)"])
    }

    init(path: String, logger: Logger, readOnly reader: DatabaseQueue) {
        self.path = path
        self.logger = logger
        self.writer = reader
        checkpoints = nil
    }

    private static var configuration: Configuration {
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        configuration.foreignKeysEnabled = true
        configuration.label = "mustc"
        return configuration
    }

    /// Looks for migrations this binary does not know through a read-only connection, so that a file
    /// from a newer mustc is refused before anything (even the switch to WAL) touches it.
    private static func refuseNewerSchema(at path: String) throws(StoreError) {
        guard FileManager.default.fileExists(atPath: path) else { return }
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(10)
        let unknown: [String]
        do {
            unknown = try DatabaseQueue(path: path, configuration: configuration).read(Migrations.unknownIdentifiers)
        } catch {
            throw .cannotOpen(path: path, reason: reason(error))
        }
        guard unknown.isEmpty else { throw .newerSchema(path: path, unknownMigrations: unknown) }
    }

    /// Runs database work, turning GRDB's errors into `StoreError`.
    func run<T>(_ work: () throws -> T) throws(StoreError) -> T {
        do {
            return try work()
        } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY {
            throw .busy(path: path)
        } catch let error as StoreError {
            throw error
        } catch {
            throw .failed(reason: Self.reason(error))
        }
    }

    func write<T>(_ updates: (Database) throws -> T) throws(StoreError) -> T {
        try run { try writer.write(updates) }
    }

    func read<T>(_ value: (Database) throws -> T) throws(StoreError) -> T {
        try run { try writer.read(value) }
    }

    static func reason(_ error: any Error) -> String {
        if let error = error as? DatabaseError { return error.message ?? "\(error.resultCode)" }
        return "\(error)"
    }
}

extension Database {
    /// Runs `sql` through the connection's statement cache, for the statements a hot path runs again and again. A
    /// webhook's event runs about ten; compiling them every time (SQLite's parser, GRDB's authorizer) was about a
    /// quarter of the CPU its write took (perf on contrib/benchmarks/hooks, release build, 2026-11-27).
    func execute(cached sql: String, arguments: StatementArguments) throws {
        try cachedStatement(sql: sql).execute(arguments: arguments)
    }
}
