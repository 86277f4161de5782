import Foundation
import GRDB
import Logging

/// Owns the SQLite database: opening, migrating, and every read and write, named for intent.
public final class Store: Sendable {
    public let path: String
    let writer: DatabasePool
    let logger: Logger

    /// Opens (creating if needed) the database at `path` and brings its schema up to date.
    public init(path: String, logger: Logger) throws(StoreError) {
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
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        configuration.foreignKeysEnabled = true
        configuration.label = "mustc"
        do {
            writer = try DatabasePool(path: path, configuration: configuration)
        } catch {
            throw .cannotOpen(path: path, reason: Self.reason(error))
        }
        try run {
            try Migrations.apply(to: writer)
            try Self.rekeyIfFoldChanged(writer)
        }
        logger.debug("database ready", metadata: ["path": "\(path)"])
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
