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
    /// Movies due when the run started (every movie for a forced run), and movies in the library.
    public var due = 0
    public var total = 0
    /// Posters downloaded, failed, refused and removed; they never change the result.
    public var posters = PosterTally()
    /// When the scheduler recorded the run: its chosen delay runs from here, not from the end of the work after
    /// it (suggestions, posters, notifications), which can take a send deadline.
    public var recordedAt: Date?
}

/// Runs one UpdateMovieOperation per due movie (every movie when forced), at most `maxConcurrentOperations` in
/// flight, then hands the outcomes to the completion step (`FetchSummary.result`). Each check also moves the
/// movie along its own schedule. Row changes are applied in short batched transactions.
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
        /// When each movie is checked next.
        public var checkPolicy: MovieSchedulePolicy
        /// The family's region, and how old its release and provider data may grow.
        public var region: String
        public var availabilityEvery: TimeInterval
        /// The family's services: an availability change on one of them makes the run newData.
        public var services: [String]

        public init(_ config: Config) {
            maxConcurrentOperations = max(config.fetch.maxConcurrentOperations, 1)
            runBudget = config.fetch.runBudget
            writeBatchSize = max(config.fetch.writeBatchSize, 1)
            notFoundRetryInterval = config.schedule.notFoundRetryInterval
            checkPolicy = MovieSchedulePolicy(config.schedule)
            region = config.family.region
            availabilityEvery = config.family.availabilityEvery
            services = config.family.services
        }
    }

    public var store: Store
    public var client: TMDBClient
    public var settings: Settings
    public var logger: Logger
    /// The dates written, the run budget, the flush ticks, the elapsed time and the schedule's jitter.
    public var time: TimeSource
    /// How each run downloads the answers' posters; nil downloads none.
    public var posters: PosterDownloads.Setup?

    public init(
        store: Store, client: TMDBClient, settings: Settings, logger: Logger, time: TimeSource
    ) {
        self.store = store
        self.client = client
        self.settings = settings
        self.logger = logger
        self.time = time
    }

    func now() -> Date { time.now() }

    enum Event: Sendable {
        case finished(StoredMovie, FetchOutcome, [MovieWrite], UpdateMovieOperation.PosterNote)
        case budgetExhausted
        /// Time to commit what is pending, even when no answer arrived.
        case flushTick
    }

    /// Runs on the client's executor when it has one, so answers reach their operation on the thread they arrive on.
    /// - Parameter force: check every movie now, not only the due ones.
    public func run(force: Bool = true, progress: (@Sendable (FetchProgress) -> Void)? = nil) async -> FetchReport {
        await withTaskExecutorPreference(client.executor) { await runAll(force: force, progress: progress) }
    }

    private func runAll(force: Bool, progress: (@Sendable (FetchProgress) -> Void)?) async -> FetchReport {
        let started = time.instant
        let requestsBefore = client.counter?.value ?? 0
        let scope: FetchScope
        do {
            scope = try store.fetchScope(force: force, now: now())
            logger.debug("fetch scope counted", metadata: ["ms": "\(milliseconds(since: started))"])
        } catch {
            var summary = FetchSummary()
            summary.storeFailure = error.description
            return FetchReport(summary: summary, requests: 0, elapsed: 0, interrupted: false)
        }
        let downloads = posters?.start()
        var run = FetchRun(runner: self, scope: scope, downloads: downloads)
        let plan = ExtrasPlan(
            region: settings.region, every: settings.availabilityEvery, force: force, now: scope.asOf)
        await withTaskGroup(of: Event.self) { group in
            let (budget, flushInterval, time) = (settings.runBudget, settings.flushInterval, time)
            group.addTask {
                try? await time.sleep(seconds: budget)
                return .budgetExhausted
            }
            let tick: @Sendable () async -> Event = {
                try? await time.sleep(seconds: flushInterval)
                return .flushTick
            }
            group.addTask(operation: tick)
            var inFlight = 0
            while inFlight < settings.maxConcurrentOperations, let movie = run.nextDue() {
                group.addTask { await Self.check(movie, client: client, plan: plan) }
                inFlight += 1
            }
            while inFlight > 0, let event = await group.next() {
                if case .finished = event { inFlight -= 1 }
                if case .flushTick = event, !Task.isCancelled { group.addTask(operation: tick) }
                // A budget timer also fires when the group is cancelled: a signal is what stopped the run then.
                if let reason = run.record(event) ?? (Task.isCancelled ? .cancelled : nil) {
                    run.stop(Task.isCancelled ? .cancelled : reason, group: &group)
                }
                // Only in a free slot: a flush tick or the budget timer frees none (each tick used to start
                // one movie more, 4 in flight under a limit of 3 in any run longer than a tick).
                if inFlight < settings.maxConcurrentOperations, let movie = run.nextDue() {
                    group.addTask { await Self.check(movie, client: client, plan: plan) }
                    inFlight += 1
                }
                progress?(run.progress(requests: (client.counter?.value ?? 0) - requestsBefore, since: started))
            }
            group.cancelAll()
        }
        var report = await run.finish()
        if let downloads {
            let store = store
            report.posters = await downloads.finish(inUse: { try? store.posterPathsInUse() })
        }
        report.requests = (client.counter?.value ?? 0) - requestsBefore
        report.elapsed = time.seconds(since: started)
        report.interrupted = Task.isCancelled
        return report
    }

    /// How many arrivals on, or departures from, the family's services the run in progress recorded.
    func availabilityChangesInRun() -> Int {
        guard !settings.services.isEmpty else { return 0 }
        do {
            return try store.availabilityChangesOfRunInProgress(services: settings.services)
        } catch {
            logger.warning("could not count the run's availability changes: \(error)")
            return 0
        }
    }

    func milliseconds(since start: TimeSource.Instant) -> String {
        String(format: "%.1f", time.seconds(since: start) * 1000)
    }

    private static func check(_ movie: StoredMovie, client: TMDBClient, plan: ExtrasPlan) async -> Event {
        let (outcome, writes, poster) = await UpdateMovieOperation(movie: movie, client: client, extras: plan).check()
        return .finished(movie, outcome, writes, poster)
    }
}

/// One run's running state: the pages it reads, the outcomes it counts, the writes it buffers.
struct FetchRun {
    let runner: FetchRunner
    let scope: FetchScope
    let downloads: PosterDownloads?
    private(set) var summary = FetchSummary()
    private var pages: MoviePages
    private var writes: WriteBuffer
    private var seen = 0
    private var stopReason: SkipReason?

    init(runner: FetchRunner, scope: FetchScope, downloads: PosterDownloads? = nil) {
        self.runner = runner
        self.scope = scope
        self.downloads = downloads
        let settings = runner.settings
        pages = MoviePages(store: runner.store, pageSize: settings.readPageSize, scope: scope, time: runner.time)
        writes = WriteBuffer(
            writer: StoreWriter(store: runner.store), batchSize: settings.writeBatchSize,
            interval: settings.flushInterval)
    }

    /// The next movie that needs a request; movies TMDB did not know recently are counted as skipped.
    mutating func nextDue() -> StoredMovie? {
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
            guard let notFoundAt = movie.notFoundAt else { return movie }
            let retryAt = notFoundAt.addingTimeInterval(runner.settings.notFoundRetryInterval)
            guard retryAt > scope.asOf else { return movie }
            summary.add(.skipped(.recentlyNotFound))
            // Only a schedule written before per-movie checks can bring it here unforced: put it where it belongs.
            if let check = movie.check, check.nextCheckAt < retryAt {
                writes.append(.checked(movieId: movie.id, MovieCheck(checkedAt: check.checkedAt, nextCheckAt: retryAt)))
                writes.endMovie(now: runner.now())
            }
        }
        return nil
    }

    /// Counts an event and buffers its writes; returns why the run must stop, if it must.
    mutating func record(_ event: FetchRunner.Event) -> SkipReason? {
        switch event {
        case .budgetExhausted:
            return .budgetExhausted
        case .flushTick:
            writes.flushIfDue(now: runner.now())
            return nil
        case .finished(let movie, let outcome, let movieWrites, let poster):
            summary.add(outcome)
            // Handed over, not awaited: the downloads run apart and never hold up this movie's writes.
            if let path = poster.path { downloads?.want(path) }
            if poster.malformed {
                downloads?.refused()
                runner.logger.warning(
                    "TMDB's poster_path for this movie is not a poster path; ignored",
                    metadata: ["movie": "\(movie.id)", "remoteId": "\(movie.remoteId.map(String.init) ?? "-")"])
            }
            let now = runner.now()
            for write in movieWrites { writes.append(write) }
            if let result = Self.checkResult(outcome) {
                let check = runner.settings.checkPolicy.next(
                    after: result, from: movie.check, at: now, random: runner.time.random())
                writes.append(.checked(movieId: movie.id, check))
            }
            writes.endMovie(now: now)
            // A rejected key or a wrong address: every other request would fail the same way.
            if case .failed(let failure) = outcome, failure.kind.stopsTheRun { return .cancelled }
            return nil
        }
    }

    /// What an outcome means for the movie's schedule; nil when it says nothing about the movie.
    static func checkResult(_ outcome: FetchOutcome) -> CheckResult? {
        switch outcome {
        case .changed: .changed
        case .unchanged: .unchanged
        case .skipped: nil
        case .failed(let failure):
            switch failure.kind {
            case .unauthorized, .wrongAddress: nil
            case .notFound: .notFound
            case .unavailable: .failed
            }
        }
    }

    mutating func stop(_ reason: SkipReason, group: inout TaskGroup<FetchRunner.Event>) {
        if stopReason == nil { stopReason = reason }
        group.cancelAll()
    }

    func progress(requests: Int, since started: TimeSource.Instant) -> FetchProgress {
        FetchProgress(
            done: summary.movies, total: scope.due, changed: summary.changed, failed: summary.failed,
            requests: requests, elapsed: runner.time.seconds(since: started))
    }

    /// Counts what the run never reached as skipped, commits what is pending, and counts a change SQLite refused
    /// as a failure, so the report matches what was written.
    mutating func finish() async -> FetchReport {
        let unseen = stopReason == nil ? 0 : max(scope.due - seen, 0)
        for _ in 0..<unseen { summary.add(.skipped(stopReason ?? .cancelled)) }
        writes.flush(now: runner.now())
        let written = await writes.writer.drain()
        for refused in written.refused where refused.write.isChange { summary.unrecorded(refused.reason) }
        if let failure = written.batchFailure { summary.storeFailure = summary.storeFailure ?? failure }
        summary.availabilityChanges = runner.availabilityChangesInRun()
        if stopReason == .budgetExhausted {
            runner.logger.warning("fetch run budget exhausted", metadata: ["skipped": "\(unseen)"])
        }
        runner.logger.debug(
            "movies read",
            metadata: [
                "due": "\(scope.due)", "total": "\(scope.total)", "read": "\(seen)",
                "readMs": "\(String(format: "%.1f", pages.readTime.seconds * 1000))",
            ])
        return FetchReport(
            summary: summary, requests: 0, elapsed: 0, interrupted: false, due: scope.due, total: scope.total)
    }
}

/// Collects row changes and hands them to the writer in batches of `batchSize` movies (a movie's writes, its
/// figures and its schedule, always go together), or once the oldest has waited `interval` (checked after each
/// movie and on the run's flush tick, so a quiet spell still commits). Counting writes instead of movies committed
/// twice as often, each commit a WAL sync.
struct WriteBuffer {
    let writer: StoreWriter
    let batchSize: Int
    let interval: TimeInterval
    private var pending: [MovieWrite] = []
    private var movies = 0
    /// How many of `pending` belong to movies already counted.
    private var counted = 0
    private var oldest: Date?

    init(writer: StoreWriter, batchSize: Int, interval: TimeInterval) {
        self.writer = writer
        self.batchSize = batchSize
        self.interval = interval
    }

    /// Adds one of the current movie's writes; `endMovie` follows the last of them.
    mutating func append(_ write: MovieWrite) {
        pending.append(write)
    }

    mutating func endMovie(now: Date) {
        guard pending.count > counted else { return }
        movies += 1
        counted = pending.count
        oldest = oldest ?? now
        if movies >= batchSize { flush(now: now) } else { flushIfDue(now: now) }
    }

    mutating func flushIfDue(now: Date) {
        if let oldest, now.timeIntervalSince(oldest) >= interval { flush(now: now) }
    }

    mutating func flush(now: Date) {
        guard !pending.isEmpty else { return }
        writer.submit(pending, now: now)
        pending.removeAll(keepingCapacity: true)
        (movies, counted) = (0, 0)
        oldest = nil
    }
}
