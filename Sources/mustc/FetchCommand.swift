import ArgumentParser
import Foundation
import MustCore

struct FetchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fetch",
        abstract: "Refresh the TMDB ratings of the movies that are due.",
        discussion: """
            Made to be started by a systemd timer or cron. Each movie has its own next check: it comes sooner \
            after a change and later while the movie stays the same. Without --force a fetch runs only when a \
            movie is due, checks only the due movies, and otherwise says when the next fetch is due; --force \
            checks every movie now. Only one fetch runs at a time. After a newData run, fetch.onNewData (if \
            configured) gets that run's changes as JSON on stdin, and the notify destinations (if configured) hear \
            of its news; neither changes the result or the exit code. \
            Exit codes: 0 for newData, noData, not due and already running; 75 when the run failed.
            """
    )

    @OptionGroup var global: GlobalOptions

    @Flag(help: "Check every movie now, whatever the schedule says.")
    var force = false

    @Flag(help: "Print the result as JSON.")
    var json = false

    @Flag(help: "Stay in the foreground: sleep until each fetch is due, fetch, repeat. SIGINT or SIGTERM stops it.")
    var watch = false

    func run() async throws {
        try await reporting {
            let config = try global.loadConfig()
            // Before the store opens: a hook that cannot run is a config error, with nothing written.
            let hook = try makeHook(config)
            let store = try global.openStore(config)
            var configured = try makeFetch(config: config, store: store)
            configured.hook = hook
            configured.notifier = Notifier.configured(config, store: store, time: global.time, logger: global.logger)
            configured.historyKeep = config.history.keep
            let fetch = configured
            let signals = Signals()
            let failed = try await signals.run {
                watch ? try await watchLoop(fetch) : try await once(fetch, force: force)
            }
            withExtendedLifetime(signals) {}
            if failed { throw ExitCode(75) }
        }
    }

    private func makeFetch(config: Config, store: Store) throws -> BackgroundFetch {
        let retry = RetryPolicy(maxRetries: config.tmdb.maxRetries)
        let limiter = RateLimiter(requestsPerSecond: config.tmdb.maxRequestsPerSecond, time: global.time)
        guard
            var client = global.client(
                config, retry: retry, limiter: limiter, connections: config.fetch.maxConcurrentOperations)
        else {
            throw Failure.config(
                "mustc fetch needs TMDB credentials: set TMDB_API_KEY or TMDB_ACCESS_TOKEN, "
                    + "or tmdb.apiKey or tmdb.accessToken in the config file")
        }
        client.counter = RequestCounter()
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

    /// The `fetch.onNewData` hook, its program found now; nil when none is configured.
    private func makeHook(_ config: Config) throws -> NewDataHook? {
        guard let arguments = config.fetch.onNewData else { return nil }
        do {
            return try NewDataHook(
                arguments: arguments, timeout: config.fetch.onNewDataTimeout,
                environment: ProcessInfo.processInfo.environment,
                secrets: [config.tmdb.apiKey, config.tmdb.accessToken].compactMap { $0 } + config.notify.secrets)
        } catch {
            throw Failure.config(error.description)
        }
    }

    /// One fetch; returns true when it failed.
    private func once(_ fetch: BackgroundFetch, force: Bool) async throws -> Bool {
        let bar = ProgressBar.isTerminal && !json ? ProgressBar(time: global.time) : nil
        var progress: (@Sendable (FetchProgress) -> Void)?
        if let bar { progress = { bar.update($0) } }
        let decision = try await fetch.perform(force: force, progress: progress)
        bar?.finish()
        let now = fetch.scheduler.now()
        // Only a run that did not happen needs the interval the last finished run chose.
        var lastInterval: TimeInterval?
        if case .ran = decision {
        } else {
            lastInterval = try fetch.runner.store.recentRuns(limit: 5).first { $0.interval != nil }?.interval
        }
        let report = FetchRunReport(decision, lastInterval: lastInterval, now: now)
        if json { Output.exact(ReportRenderer.json(report)) } else { print(report.line(now: now)) }
        return report.result == FetchResult.failed.rawValue
    }

    /// Fetches whenever due until cancelled by a signal, which ends it with exit code 0.
    private func watchLoop(_ fetch: BackgroundFetch) async throws -> Bool {
        // Never spin: after a run that could not start (another process holds the lock) look again after this.
        let floor = min(1, fetch.scheduler.policy.minimumInterval)
        var first = true
        while !Task.isCancelled {
            if try first || fetch.scheduler.isDue() {
                _ = try await once(fetch, force: force && first)
                first = false
            }
            // Wake when due, or within a minute to notice movies added meanwhile (due at once).
            let time = fetch.scheduler.time
            let next = try fetch.scheduler.effectiveState()?.nextFetchAt ?? time.now().addingTimeInterval(60)
            let wait = min(max(next.timeIntervalSince(time.now()), floor), 60)
            do {
                try await time.sleep(seconds: wait)
            } catch {
                break
            }
        }
        return false
    }
}
