import Foundation
import MustCore

/// The background fetch as `mustc fetch` sets it up, shared by `mustc serve --fetch`: one setup, one lock beside
/// the database and one schedule, whichever process runs it.
struct FetchSetup {
    let global: GlobalOptions
    /// Named in the message when no TMDB credentials are configured.
    let command: String

    /// The `fetch.onNewData` hook, its program found now; nil when none is configured.
    func hook(_ config: Config) throws -> NewDataHook? {
        guard let arguments = config.fetch.onNewData else { return nil }
        do {
            return try NewDataHook(
                arguments: arguments, timeout: config.fetch.onNewDataTimeout,
                environment: Console.environment,
                secrets: [config.tmdb.apiKey, config.tmdb.accessToken].compactMap { $0 } + config.notify.secrets)
        } catch {
            throw Failure.config(error.description)
        }
    }

    /// The fetch's TMDB client, with its retries, request budget and request counter.
    func client(_ config: Config) throws -> TMDBClient {
        let retry = RetryPolicy(maxRetries: config.tmdb.maxRetries)
        let limiter = RateLimiter(requestsPerSecond: config.tmdb.maxRequestsPerSecond, time: global.time)
        guard
            var client = global.client(
                config, retry: retry, limiter: limiter, connections: config.fetch.maxConcurrentOperations)
        else {
            throw Failure.config(
                "\(command) needs TMDB credentials: set TMDB_API_KEY or TMDB_ACCESS_TOKEN, "
                    + "or tmdb.apiKey or tmdb.accessToken in the config file")
        }
        client.counter = RequestCounter()
        return client
    }

    /// The whole fetch over a writable `store`: runner, posters, scheduler, suggestions, hook and notifications.
    func fetch(config: Config, store: Store, client: TMDBClient, hook: NewDataHook?) -> BackgroundFetch {
        var runner = FetchRunner(
            store: store, client: client, settings: FetchRunner.Settings(config), logger: global.logger,
            time: global.time)
        runner.posters = posterSetup(config, store: store)
        let scheduler = Scheduler(store: store, policy: BackoffPolicy(config.schedule), time: global.time)
        var fetch = BackgroundFetch(
            runner: runner, scheduler: scheduler, lockPath: BackgroundFetch.lockPath(forDatabase: store.path))
        if config.suggest.requestsPerDay > 0 {
            // The same client, limiter and budget as the ratings: suggestions wait their turn in the same queue.
            var suggestions = SuggestionWork(
                store: store, client: client, settings: SuggestionWork.Settings(config), logger: global.logger)
            suggestions.posters = runner.posters
            fetch.suggestions = suggestions
        }
        fetch.hook = hook
        fetch.notifier = Notifier.configured(config, store: store, time: global.time, logger: global.logger)
        fetch.historyKeep = config.history.keep
        return fetch
    }

    /// Posters from the image host: libcurl on a loop of its own, apart from the API's connections and limiter.
    private func posterSetup(_ config: Config, store: Store) -> PosterDownloads.Setup {
        let settings = PosterDownloads.Settings(
            maxBytes: config.posters.maxBytes, maxConcurrentDownloads: config.posters.maxConcurrentDownloads)
        let transport = CurlTransport.make(maxConnections: settings.maxConcurrentDownloads, time: global.time)
        let client = PosterClient(
            imageBaseURL: config.tmdb.imageBaseURL, timeout: config.tmdb.requestTimeout, transport: transport)
        return PosterDownloads.Setup(
            shelf: PosterShelf(databasePath: store.path), client: client, settings: settings, logger: global.logger)
    }
}

extension BackgroundFetch {
    /// Runs `step` whenever a fetch is due, until the task is cancelled (SIGINT, SIGTERM): `mustc fetch --watch`
    /// and `mustc serve --fetch`. The first step comes at once, so a movie left due while nothing ran is fetched
    /// at the start; `step` is told whether it is that first one.
    func repeatWhenDue(_ step: (_ first: Bool) async throws -> Void) async throws {
        // Never spin: after a run that could not start (another process holds the lock) look again after this.
        let floor = min(1, scheduler.policy.minimumInterval)
        var first = true
        while !Task.isCancelled {
            if try first || scheduler.isDue() {
                try await step(first)
                first = false
            }
            // Wake when due, and at least once a minute: a movie added by another process meanwhile (due at once)
            // moves the due time forward only in the database, where nothing wakes this loop but a look. No state
            // after a step means no run has ever finished (another process holds the lock for the first one): due
            // at once, so looked at again after the floor.
            let time = scheduler.time
            let next = try scheduler.effectiveState()?.nextFetchAt ?? time.now()
            let wait = min(max(next.timeIntervalSince(time.now()), floor), 60)
            do {
                try await time.sleep(seconds: wait)
            } catch {
                break
            }
        }
    }

    /// The report of a decision, as `mustc fetch` prints it.
    func report(_ decision: FetchDecision, now: Date) throws -> FetchRunReport {
        // Only a run that did not happen needs the interval the last finished run chose.
        var lastInterval: TimeInterval?
        if case .ran = decision {
        } else {
            lastInterval = try runner.store.recentRuns(limit: 5).first { $0.interval != nil }?.interval
        }
        return FetchRunReport(decision, lastInterval: lastInterval, now: now)
    }
}
