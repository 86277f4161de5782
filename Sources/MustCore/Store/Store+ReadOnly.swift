import Foundation
import GRDB
import Logging

extension Store {
    /// Opens the database for a command that only reads (`ratings`, `members`, `movies`, `status`).
    ///
    /// A current schema is read through a read-only connection that never writes, never migrates and never
    /// takes the write lock, so it works for a user who may read the file but not write it, even while a fetch
    /// holds it. A file that does not exist yet, or needs migrating, is opened for writing as every command did
    /// before, when this user may write it; otherwise the error names who can migrate it.
    public static func forReading(path: String, logger: Logger) throws(StoreError) -> Store {
        guard FileManager.default.fileExists(atPath: path) else { return try Store(path: path, logger: logger) }
        let (reader, state) = try openReadOnly(path)
        guard state.unknown.isEmpty else { throw .newerSchema(path: path, unknownMigrations: state.unknown) }
        let writable = access(path, W_OK) == 0
        if !state.pending.isEmpty {
            guard writable else {
                throw .needsWriteAccess(
                    path: path,
                    why: "needs its schema upgraded (\(state.pending.joined(separator: ", "))), and this user "
                        + "cannot write it",
                    owner: owner(of: path))
            }
            return try Store(path: path, logger: logger)
        }
        // Keys an older fold made are re-keyed by the first open that may write; a reader who may not still
        // reads every row, and only a lookup by a name whose key changed misses until then.
        if !state.foldCurrent && writable { return try Store(path: path, logger: logger) }
        logger.debug("database ready (read-only)", metadata: ["path": "\(path)"])
        return Store(path: path, logger: logger, readOnly: reader)
    }

    private struct SchemaState {
        var unknown: [String]
        var pending: [String]
        var foldCurrent: Bool
    }

    private static func openReadOnly(_ path: String) throws(StoreError) -> (DatabaseQueue, SchemaState) {
        do {
            let reader = try DatabaseQueue(path: path, configuration: readOnlyConfiguration)
            let state = try reader.read { db in
                let pending = try Migrations.pendingIdentifiers(db)
                let fold =
                    pending.isEmpty
                    ? try String.fetchOne(db, sql: "SELECT value FROM setting WHERE name = ?", arguments: [foldSetting])
                    : nil
                return SchemaState(
                    unknown: try Migrations.unknownIdentifiers(db), pending: pending,
                    foldCurrent: fold == String(TitleKey.version))
            }
            return (reader, state)
        } catch let error as DatabaseError where missingWALFiles(error, path: path) {
            throw .needsWriteAccess(
                path: path,
                why: "is in WAL mode without the -wal and -shm files a reader needs, and this user cannot create "
                    + "them (writers keep them from this version of mustc on)",
                owner: owner(of: path))
        } catch {
            throw .cannotOpen(path: path, reason: reason(error))
        }
    }

    static var readOnlyConfiguration: Configuration {
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(10)
        configuration.label = "mustc"
        return configuration
    }

    /// SQLite opens a WAL database read-only only when its -wal and -shm files exist or can be created
    /// (https://sqlite.org/wal.html#readonly); without them the first read fails with SQLITE_READONLY or
    /// SQLITE_CANTOPEN.
    private static func missingWALFiles(_ error: DatabaseError, path: String) -> Bool {
        guard error.resultCode == .SQLITE_READONLY || error.resultCode == .SQLITE_CANTOPEN else { return false }
        let manager = FileManager.default
        return !manager.fileExists(atPath: path + "-wal") || !manager.fileExists(atPath: path + "-shm")
    }

    /// The user name of the file's owner, who can always migrate it.
    static func owner(of path: String) -> String {
        var info = stat()
        guard stat(path, &info) == 0 else { return "the file's owner" }
        var entry = passwd()
        var result: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 4096)
        guard getpwuid_r(info.st_uid, &entry, &buffer, buffer.count, &result) == 0, result != nil,
            let name = entry.pw_name
        else { return "uid \(info.st_uid)" }
        return String(cString: name)
    }
}
