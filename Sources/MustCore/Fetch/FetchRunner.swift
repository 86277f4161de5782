import Foundation
import Logging

/// Progress of a running fetch, for a terminal progress bar.
public struct FetchProgress: Sendable, Equatable {
    public var done: Int
    public var total: Int
    public var changed: Int
    public var failed: Int
    public var requests: Int
    public var elapsed: TimeInterval

    public var requestsPerSecond: Double { elapsed > 0 ? Double(requests) / elapsed : 0 }
}

/// What a run did, before the scheduler has its say.
public struct FetchReport: Sendable, Equatable {
    public var summary: FetchSummary
    public var requests: Int
    public var elapsed: TimeInterval
    /// Stopped by cancellation (a signal): the result is partial and the schedule is left as it was.
    public var interrupted: Bool
}

/// Runs one UpdateMovieOperation per movie, at most `maxConcurrentOperations` in flight, then hands the outcomes
/// to the completion step (`FetchSummary.result`). Row changes are applied in short batched transactions.
public struct FetchRunner: Sendable {
    public struct Settings: Sendable {
        public var maxConcurrentOperations: Int
        public var runBudget: TimeInterval
        public var writeBatchSize: Int
        public var notFoundRetryInterval: TimeInterval
        /// Pending writes are committed at least this often, so a crash loses little.
        public var flushInterval: TimeInterval = 1
        /// Movies read from the store per query.
        public var readPageSize = 500

        public init(_ config: Config) {
            maxConcurrentOperations = max(config.fetch.maxConcurrentOperations, 1)
            runBudget = config.fetch.runBudget
            writeBatchSize = max(config.fetch.writeBatchSize, 1)
            notFoundRetryInterval = config.schedule.notFoundRetryInterval
        }
    }

    public var store: Store
    public var client: TMDBClient
    public var settings: Settings
    public var logger: Logger
    public var now: @Sendable () -> Date

    public init(
        store: Store, client: TMDBClient, settings: Settings, logger: Logger,
        now: @escaping @Sendable () -> Date = Date.init
    ) {
        self.store = store
        self.client = client
        self.settings = settings
        self.logger = logger
        self.now = now
    }

    private enum Event: Sendable {
        case finished(FetchOutcome, MovieWrite?)
        case budgetExhausted
    }

    /// Runs on the client's executor when it has one, so answers reach their operation on the thread they arrive on.
    public func run(progress: (@Sendable (FetchProgress) -> Void)? = nil) async -> FetchReport {
        await withTaskExecutorPreference(client.executor) { await runAll(progress: progress) }
    }

    private func runAll(progress: (@Sendable (FetchProgress) -> Void)?) async -> FetchReport {
        let started = ContinuousClock.now
        let requestsBefore = client.counter?.value ?? 0
        var summary = FetchSummary()
        let scope: (count: Int, lastId: Int64)
        do {
            scope = try store.fetchScope()
        } catch {
            summary.storeFailure = error.description
            return FetchReport(summary: summary, requests: 0, elapsed: 0, interrupted: false)
        }
        let startedAt = now()
        var pages = MoviePages(store: store, pageSize: settings.readPageSize, lastId: scope.lastId)
        var seen = 0
        var writes = WriteBuffer(store: store, batchSize: settings.writeBatchSize, interval: settings.flushInterval)
        var stopReason: SkipReason?

        /// The next movie that needs a request; movies TMDB did not know recently are counted as skipped.
        func nextDue() -> StoredMovie? {
            while stopReason == nil {
                let next: StoredMovie?
                do {
                    next = try pages.next()
                } catch {
                    summary.storeFailure = error.description
                    stopReason = .cancelled
                    return nil
                }
                guard let movie = next else { return nil }
                seen += 1
                guard let notFoundAt = movie.notFoundAt,
                    startedAt.timeIntervalSince(notFoundAt) < settings.notFoundRetryInterval
                else { return movie }
                summary.add(.skipped(.recentlyNotFound))
            }
            return nil
        }

        await withTaskGroup(of: Event.self) { group in
            let budget = settings.runBudget
            group.addTask {
                try? await Task.sleep(for: .seconds(budget))
                return .budgetExhausted
            }
            var inFlight = 0
            while inFlight < settings.maxConcurrentOperations, let movie = nextDue() {
                let operation = UpdateMovieOperation(movie: movie, client: client)
                group.addTask { await Self.finished(operation) }
                inFlight += 1
            }
            while inFlight > 0, let event = await group.next() {
                switch event {
                case .budgetExhausted:
                    // Also seen when the group is cancelled; the check below tells which.
                    if stopReason == nil { stopReason = Task.isCancelled ? .cancelled : .budgetExhausted }
                    group.cancelAll()
                    continue
                case .finished(let outcome, let write):
                    inFlight -= 1
                    summary.add(outcome)
                    if let write { writes.append(write, now: now()) }
                    if case .failed(let failure) = outcome, failure.kind == .unauthorized, stopReason == nil {
                        // Every other request would be rejected the same way.
                        stopReason = .cancelled
                        group.cancelAll()
                    }
                }
                if Task.isCancelled, stopReason == nil {
                    stopReason = .cancelled
                    group.cancelAll()
                }
                if let movie = nextDue() {
                    let operation = UpdateMovieOperation(movie: movie, client: client)
                    group.addTask { await Self.finished(operation) }
                    inFlight += 1
                }
                progress?(
                    FetchProgress(
                        done: summary.movies, total: scope.count, changed: summary.changed,
                        failed: summary.failed, requests: (client.counter?.value ?? 0) - requestsBefore,
                        elapsed: (ContinuousClock.now - started).seconds))
            }
            group.cancelAll()
        }
        let unseen = stopReason == nil ? 0 : max(scope.count - seen, 0)
        for _ in 0..<unseen { summary.add(.skipped(stopReason ?? .cancelled)) }
        writes.flush(now: now())
        if let failure = writes.failure { summary.storeFailure = summary.storeFailure ?? failure }
        if stopReason == .budgetExhausted {
            logger.warning("fetch run budget exhausted", metadata: ["skipped": "\(unseen)"])
        }
        let interrupted = Task.isCancelled
        return FetchReport(
            summary: summary, requests: (client.counter?.value ?? 0) - requestsBefore,
            elapsed: (ContinuousClock.now - started).seconds, interrupted: interrupted)
    }

    private static func finished(_ operation: UpdateMovieOperation) async -> Event {
        let (outcome, write) = await operation.run()
        return .finished(outcome, write)
    }
}

extension Duration {
    var seconds: TimeInterval { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}

/// Collects row changes and commits them in batches: by count, or when the oldest has waited `interval`.
struct WriteBuffer {
    let store: Store
    let batchSize: Int
    let interval: TimeInterval
    private var pending: [MovieWrite] = []
    private var oldest: Date?
    private(set) var failure: String?

    init(store: Store, batchSize: Int, interval: TimeInterval) {
        self.store = store
        self.batchSize = batchSize
        self.interval = interval
    }

    mutating func append(_ write: MovieWrite, now: Date) {
        pending.append(write)
        oldest = oldest ?? now
        if pending.count >= batchSize || now.timeIntervalSince(oldest ?? now) >= interval { flush(now: now) }
    }

    mutating func flush(now: Date) {
        guard !pending.isEmpty else { return }
        do {
            try store.apply(pending, now: now)
        } catch {
            failure = failure ?? error.description
        }
        pending.removeAll(keepingCapacity: true)
        oldest = nil
    }
}
