import Dispatch
import GRDB
import GRDBSQLite
import Logging
import Synchronization

/// Copies the write-ahead log into the database on a queue of its own, rather than inside the commit that filled it.
///
/// SQLite's automatic checkpoint (at 1,000 WAL pages) runs in the COMMIT that crosses the mark, on the one writer
/// connection, so every write queued behind it waits for the copy and its two fsyncs. That is what put the webhooks
/// of new movies over their goal (contrib/benchmarks/hooks, release build, 2026-11-27, load average ~11):
/// an event naming a movie new to the library dirties about nine pages (the movie row and its three indexes, its
/// schedule row and index, the link and its index, the event kept for status) against two for a repeat, so 3.4 times
/// as many checkpoints came an event (13 in 2,013 events against 8 in 4,225), each holding the writer 10-70 ms while
/// ten clients' events waited behind it.
///
/// Here the writer's commit only notes the log's size; past `mark` pages a passive checkpoint runs on a connection
/// of its own, which never blocks the writer. A log that grows past `hardMark` anyway (writes that never pause, so
/// the checkpoint never catches up and the log never restarts) is checkpointed in the commit, as SQLite would.
final class BackgroundCheckpoints: Sendable {
    static let mark: Int32 = 1000
    static let hardMark: Int32 = 8000
    /// The log's size kept when it starts over (`journal_size_limit`): the most `hardMark` lets it grow to (4 KB pages
    /// and their 24-byte headers), and some. Cut at each start over, the file was truncated (11.6 ms of the writer's
    /// time under strace, load average 7.5) and grown again a page at a time; it is still cut to nothing on close.
    static let keptLog = 40 * 1024 * 1024

    private let path: String
    /// The store's own (its kept -wal among them): this connection may be the file's last to close.
    private let configuration: Configuration
    private let logger: Logger
    private let queue = DispatchQueue(label: "mustc.checkpoint")
    /// One checkpoint queued or running at a time.
    private let pending = Atomic<Bool>(false)
    /// The log's pages the last checkpoint copied.
    private let copied = Atomic<Int32>(0)
    /// Opened by the first checkpoint; touched on `queue` only, so the writer's commit never waits for this lock.
    private let connection = Mutex<DatabaseQueue?>(nil)

    init(path: String, configuration: Configuration, logger: Logger) {
        self.path = path
        self.configuration = configuration
        self.logger = logger
    }

    /// Takes over the writer connection's WAL hook (which turns SQLite's automatic checkpoint off for it). The hook
    /// holds this object unretained: the `Store` keeps it, and the writer connection closes with the `Store`.
    func install(on writer: any DatabaseWriter) {
        let context = Unmanaged.passUnretained(self).toOpaque()
        writer.writeWithoutTransaction { db in
            _ = sqlite3_wal_hook(
                db.sqliteConnection,
                { context, connection, _, pages in
                    guard let context else { return SQLITE_OK }
                    let checkpoints = Unmanaged<BackgroundCheckpoints>.fromOpaque(context).takeUnretainedValue()
                    if pages >= BackgroundCheckpoints.hardMark {
                        // In the commit, as SQLite's own hook does; a busy reader only leaves the rest for later.
                        _ = sqlite3_wal_checkpoint(connection, nil)
                    } else {
                        checkpoints.committed(pages: pages)
                    }
                    return SQLITE_OK
                }, context)
        }
    }

    /// Queues a passive checkpoint when `mark` pages were written since the last one copied the log (or since it
    /// started over), unless one is already queued or running. Under writes that never pause, the log does not
    /// start over, and asking at each commit past `mark` would copy a few pages and fsync twice, again and again.
    private func committed(pages: Int32) {
        var copied = copied.load(ordering: .acquiring)
        if pages < copied {
            // The log started over since the last checkpoint.
            self.copied.store(0, ordering: .releasing)
            copied = 0
        }
        guard pages - copied >= Self.mark,
            pending.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged
        else { return }
        queue.async { self.run() }
    }

    private func run() {
        do {
            let (path, configuration, logger) = (path, configuration, logger)
            try connection.withLock { connection in
                if connection == nil {
                    connection = try DatabaseQueue(path: path, configuration: configuration)
                    logger.debug("checkpoints run in the background", metadata: ["path": "\(path)"])
                }
                let done = try connection?.writeWithoutTransaction { db in try db.checkpoint(.passive) }
                if let done { copied.store(Int32(clamping: done.checkpointedFrameCount), ordering: .releasing) }
            }
        } catch {
            logger.debug(
                "a background checkpoint did not run; the next commit asks again", metadata: ["error": "\(error)"])
        }
        pending.store(false, ordering: .releasing)
    }

    /// Tests: holds queued checkpoints back until `resume`, then waits for them.
    func hold() { queue.suspend() }
    func resume() { queue.resume() }
    func drain() { queue.sync {} }
}
