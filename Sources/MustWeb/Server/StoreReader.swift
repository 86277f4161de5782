import Foundation
import MustCore

/// Runs the store's blocking reads through `BlockingWork`: never on the event loop that serves connections, nor on
/// Swift's few cooperative threads.
struct StoreReader: Sendable {
    let store: Store

    func read<T: Sendable>(_ body: @escaping @Sendable (Store) throws -> T) async throws -> T {
        let store = store
        return try await BlockingWork.runThrowing { try body(store) }
    }

    /// What the validators of a page are made of: the database file and its write-ahead log, whose size or
    /// modification time changes with every commit and checkpoint. Read with stat(2), without opening SQLite.
    func dataStamp() -> DataStamp {
        DataStamp(database: FileStamp(path: store.path), log: FileStamp(path: store.path + "-wal"))
    }
}

struct FileStamp: Sendable, Equatable {
    var modified: timespec
    var size: Int64

    init(path: String) {
        var info = stat()
        if stat(path, &info) == 0 {
            modified = info.st_mtim
            size = Int64(info.st_size)
        } else {
            modified = timespec()
            size = -1
        }
    }

    static func == (lhs: FileStamp, rhs: FileStamp) -> Bool {
        lhs.modified.tv_sec == rhs.modified.tv_sec && lhs.modified.tv_nsec == rhs.modified.tv_nsec
            && lhs.size == rhs.size
    }

    var tag: String { "\(modified.tv_sec).\(modified.tv_nsec).\(size)" }
}

struct DataStamp: Sendable, Equatable {
    var database: FileStamp
    var log: FileStamp

    /// The latest write, to the second, for `Last-Modified`.
    var lastModified: Date {
        Date(timeIntervalSince1970: TimeInterval(max(database.modified.tv_sec, log.modified.tv_sec)))
    }
}
