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
            let setup = FetchSetup(global: global, command: "mustc fetch")
            // Before the store opens: a hook that cannot run is a config error, with nothing written.
            let hook = try setup.hook(config)
            let store = try global.openStore(config)
            let fetch = setup.fetch(config: config, store: store, client: try setup.client(config), hook: hook)
            let signals = Signals()
            let failed = try await signals.run {
                watch ? try await watchLoop(fetch) : try await once(fetch, force: force)
            }
            withExtendedLifetime(signals) {}
            if failed { throw ExitCode(75) }
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
        let report = try fetch.report(decision, now: now)
        if json { Output.exact(ReportRenderer.json(report)) } else { print(report.line(now: now)) }
        return report.result == FetchResult.failed.rawValue
    }

    /// Fetches whenever due until cancelled by a signal, which ends it with exit code 0.
    private func watchLoop(_ fetch: BackgroundFetch) async throws -> Bool {
        try await fetch.repeatWhenDue { first in
            _ = try await once(fetch, force: force && first)
        }
        return false
    }
}
