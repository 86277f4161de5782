import Foundation
import Logging
import Synchronization

/// What a run did with posters: `mustc fetch` prints it and `--json` carries it as `posters`.
public struct PosterTally: Sendable, Equatable, Encodable {
    /// Posters newly kept (both sizes of one path).
    public var downloaded = 0
    /// Posters that could not be kept; each is asked for again at its movie's next check.
    public var failed = 0
    /// Answers whose `poster_path` was refused (`PosterPath`), counted per movie.
    public var malformed = 0
    /// Posters removed to keep the directory within `posters.maxBytes`.
    public var removed = 0

    public init() {}
}

/// Downloads the posters a fetch's answers name, apart from the API: its own transport and concurrency, no rate
/// limiter, no request counter. The fetch hands each checked movie's poster path to `want` and goes on at once; a
/// poster already on disk costs a stat, a missing one a download of both sizes. Nothing here writes the database
/// or can change the fetch's result.
public final class PosterDownloads: Sendable {
    public struct Settings: Sendable {
        /// The directory's bound; 0 keeps no posters at all (none downloaded, any kept removed).
        public var maxBytes: Int64
        public var maxConcurrentDownloads: Int
        /// After this many host failures in a row (timeouts, refused connections, 5xx), the run asks no more: the
        /// rest count as failed and wait for their movie's next check. A hanging host then costs one timeout.
        public var hostFailureLimit = 4

        public init(maxBytes: Int64, maxConcurrentDownloads: Int) {
            self.maxBytes = maxBytes
            self.maxConcurrentDownloads = max(maxConcurrentDownloads, 1)
        }
    }

    /// What every run's downloads share; `start` makes one run's.
    public struct Setup: Sendable {
        public var shelf: PosterShelf
        public var client: PosterClient
        public var settings: Settings
        public var logger: Logger

        public init(shelf: PosterShelf, client: PosterClient, settings: Settings, logger: Logger) {
            (self.shelf, self.client, self.settings, self.logger) = (shelf, client, settings, logger)
        }

        /// `listing: false` when the caller hands over only paths it found missing: the shelf is not listed.
        public func start(listing: Bool = true) -> PosterDownloads {
            PosterDownloads(shelf: shelf, client: client, settings: settings, logger: logger, listing: listing)
        }
    }

    private struct State {
        var asked: Set<String> = []
        var tally = PosterTally()
        var hostFailuresInARow = 0
        var hostDown = false
        /// Bytes of the files this run added to the shelf.
        var bytesAdded: Int64 = 0
    }

    /// The run's shared count, held by the downloads and by each download's work.
    private final class Ledger: Sendable {
        let state = Mutex(State())
    }

    public let shelf: PosterShelf
    let client: PosterClient
    let settings: Settings
    let logger: Logger
    private let ledger = Ledger()
    /// The paths whose two sizes were on disk when the run started, listed once: a steady refresh hands over the
    /// same path for every movie, and a lock, a task and two stats each cost the run a tenth of its CPU. Empty
    /// when not listed: each download still stats its files before asking for them.
    private let onShelf: Set<String>
    private let queue: AsyncStream<String>.Continuation
    private let worker: Task<Void, Never>

    public init(shelf: PosterShelf, client: PosterClient, settings: Settings, logger: Logger, listing: Bool = true) {
        self.shelf = shelf
        self.client = client
        self.settings = settings
        self.logger = logger
        onShelf = settings.maxBytes > 0 && listing ? shelf.keptPaths() : []
        let (stream, queue) = AsyncStream.makeStream(of: String.self)
        self.queue = queue
        let work = Work(shelf: shelf, client: client, limit: settings.hostFailureLimit, logger: logger)
        let concurrency = settings.maxConcurrentDownloads
        let ledger = ledger
        worker = Task {
            await withTaskGroup(of: Void.self) { group in
                var inFlight = 0
                for await path in stream {
                    if inFlight >= concurrency, await group.next() != nil { inFlight -= 1 }
                    group.addTask { await work.keep(path, ledger: ledger) }
                    inFlight += 1
                }
            }
        }
    }

    /// Asks for the poster of `path` (valid by construction: RemoteMovie keeps no other). Returns at once.
    public func want(_ path: String) {
        guard settings.maxBytes > 0, !onShelf.contains(path) else { return }
        let first = ledger.state.withLock { $0.asked.insert(path).inserted }
        if first { queue.yield(path) }
    }

    /// An answer's refused `poster_path`, counted.
    public func refused() {
        ledger.state.withLock { $0.tally.malformed += 1 }
    }

    /// Waits for every download asked for, then keeps the directory within its bound; `inUse` reads the poster
    /// paths the library holds. A cancelled caller (a signal) cancels the downloads under way.
    public func finish(inUse: @escaping @Sendable () -> Set<String>?) async -> PosterTally {
        queue.finish()
        let worker = worker
        await withTaskCancellationHandler {
            await worker.value
        } onCancel: {
            worker.cancel()
        }
        let (shelf, maxBytes, logger) = (shelf, settings.maxBytes, logger)
        let added = ledger.state.withLock { $0.bytesAdded }
        let pruned = await BlockingWork.run { () -> PosterPrune? in
            // While what the last prune kept plus what this run added is within the bound, there is nothing to
            // remove: skipping the prune saves a stat(2) of every file (6,000 for 3,000 movies), which was 7% of a
            // steady refresh's CPU (steady refresh against 050fdc5, 15 rounds: 1.017× and 1.045× skipped; 1.067×
            // and 1.101× not), and most of a paced suggestion run's. The total is carried on.
            if let kept = shelf.lastKept(), kept + added <= maxBytes {
                if added > 0 { shelf.noteKept(kept + added) }
                return nil
            }
            // Without the library's paths every poster would look unused: skip this time rather than guess.
            guard let used = inUse() else { return nil }
            let pruned = shelf.prune(maxBytes: maxBytes, inUse: used)
            shelf.noteKept(pruned.bytes)
            return pruned
        }
        if let pruned, pruned.removed > 0 {
            logger.info("removed posters to stay within posters.maxBytes", metadata: ["posters": "\(pruned.removed)"])
        }
        return ledger.state.withLock {
            $0.tally.removed = pruned?.removed ?? 0
            return $0.tally
        }
    }

    /// One poster's work; a value of its own so the worker task holds no reference to the class.
    private struct Work: Sendable {
        let shelf: PosterShelf
        let client: PosterClient
        let limit: Int
        let logger: Logger

        func keep(_ path: String, ledger: Ledger) async {
            // w342 first: a list shows a poster once its w185 file is there, and its srcset names w342.
            let missing = PosterSize.allCases.reversed().filter { !shelf.has(path, size: $0) }
            guard !missing.isEmpty else { return }
            for size in missing {
                if ledger.state.withLock({ $0.hostDown }) {
                    ledger.state.withLock { $0.tally.failed += 1 }
                    return
                }
                if let failure = await keep(path, size: size, ledger: ledger) {
                    let stopping = ledger.state.withLock { state -> Bool in
                        state.tally.failed += 1
                        state.hostFailuresInARow = failure.hostDown ? state.hostFailuresInARow + 1 : 0
                        let stops = !state.hostDown && state.hostFailuresInARow >= limit
                        if stops { state.hostDown = true }
                        return stops
                    }
                    logger.debug(
                        "poster not kept", metadata: ["path": "\(path)", "size": "\(size)", "why": "\(failure)"])
                    if stopping {
                        logger.warning("the image host is not answering; posters wait for the next fetch: \(failure)")
                    }
                    return
                }
                ledger.state.withLock { $0.hostFailuresInARow = 0 }
            }
            ledger.state.withLock { $0.tally.downloaded += 1 }
        }

        private func keep(_ path: String, size: PosterSize, ledger: Ledger) async -> PosterFailure? {
            switch await client.download(path, size: size) {
            case .failure(let failure):
                return failure
            case .success(let bytes):
                let (shelf, ledger) = (shelf, ledger)
                // fsync blocks its thread: a Dispatch thread, never a cooperative one.
                return await BlockingWork.run { () -> PosterFailure? in
                    do throws(PosterWriteError) {
                        try shelf.store(bytes, as: path, size: size)
                        ledger.state.withLock { $0.bytesAdded += Int64(bytes.count) }
                        return nil
                    } catch {
                        return PosterFailure(description: error.description, hostDown: false)
                    }
                }
            }
        }
    }
}
