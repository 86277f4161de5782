import ArgumentParser
import Foundation
import MustCore
import MustWeb

struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the family's page: the lists, ratings, changes and status, in any browser.",
        discussion: """
            Runs in the foreground until SIGINT or SIGTERM. The first line on standard output is the URL it serves. \
            Anyone who can reach the address can read the lists. Once `mustc password` has set the family's \
            password, a browser signed in at /signin can add, remove and settle movies, by the same rules as \
            `mustc add`, `remove` and `resolve`; without a password, or when this user cannot write the database, \
            the page is read-only. The address is --listen, else $MUSTC_LISTEN, else serve.listen. \
            With --fetch the same process also runs the background fetch, each movie on its own schedule, as \
            `mustc fetch` from a timer would (one container, no timer): it needs TMDB credentials and a database \
            this user can write, never runs beside another fetch (the same lock), and logs each run's summary on \
            standard error. A signal stops a fetch in progress between movies.
            """
    )

    @OptionGroup var global: GlobalOptions

    @Option(
        help:
            "Listen on HOST:PORT (default: $MUSTC_LISTEN, serve.listen, or 127.0.0.1:8080); port 0 takes a free port.")
    var listen: String?

    @Flag(help: "Also run the background fetch whenever it is due, as `mustc fetch` from a timer would.")
    var fetch = false

    func run() async throws {
        try await reporting {
            var config = try global.loadConfig()
            if let listen {
                guard let parsed = ListenAddress.parse(listen) else {
                    throw Failure.usage("--listen \"\(listen)\" must be \(ListenAddress.expected)")
                }
                config.serve.listen = parsed
            }
            let address = config.serve.listen
            // Before the page's store: a missing key or hook is a config error with nothing written, and the
            // fetch's writable open runs any migration the read-only page could not.
            let background = fetch ? try makeFetch(config) : nil
            let store = try global.openStoreForReading(config)
            if !address.isLoopback {
                Output.note(
                    "warning: listening on \(address): anyone on the network can read these pages; edits need the "
                        + "family password (`mustc password`), which crosses the network in the clear without a TLS "
                        + "proxy in front (see the README)")
            }
            // Written straight to the descriptor: stdout may be a file or pipe, where print() would buffer it.
            let app = try buildApplication(store: store, config: config, time: global.time, logger: global.logger) {
                url in Console.write(Data("mustc: serving \(url)\n".utf8), to: .output)
            }
            do {
                if let background {
                    try await serve(StoppableWebServer(app), fetching: background)
                } else {
                    try await WebServer.run(app)
                }
            } catch {
                throw Failure.temporary(
                    "cannot serve on \(address): \(error); choose another address with --listen, or stop what uses it")
            }
        }
    }

    /// The page and the fetch until SIGINT or SIGTERM. The signal is heard on a thread of its own (Signals.swift),
    /// not by the page's signal sources, which wait for libdispatch's and the cooperative pool's threads: under load
    /// those came seconds late, and a fetch in progress ran on to its end. The fetch's task is cancelled there and
    /// then, so the run stops between movies, while the page finishes its requests; then both are over.
    private func serve(_ server: StoppableWebServer, fetching background: ServedFetch) async throws {
        let fetching = Task { await background.run() }
        let signals = Signals(calling: {
            fetching.cancel()
            server.stop()
        })
        defer { withExtendedLifetime(signals) {} }
        do {
            try await server.run()
        } catch {
            // The page could not start (its address is taken): the fetch goes with it.
            fetching.cancel()
            await fetching.value
            throw error
        }
        fetching.cancel()
        await fetching.value
    }

    /// The fetch `mustc fetch` would run, over a store this process may write.
    private func makeFetch(_ config: Config) throws -> ServedFetch {
        let setup = FetchSetup(global: global, command: "mustc serve --fetch")
        let hook = try setup.hook(config)
        let client = try setup.client(config)
        let store = try global.openStore(config)
        return ServedFetch(fetch: setup.fetch(config: config, store: store, client: client, hook: hook))
    }
}

/// `serve --fetch`'s fetch: `mustc fetch --watch` without --force, its lines logged on standard error.
struct ServedFetch: Sendable {
    let fetch: BackgroundFetch
    /// After an error the database may be busy or briefly unreadable: the page goes on, the fetch looks again then.
    static let retryAfterError: Double = 60

    /// Runs until cancelled: it never returns before, as the page must outlive a failed fetch.
    func run() async {
        var last: String?
        while !Task.isCancelled {
            do {
                try await fetch.repeatWhenDue { _ in last = try await once(after: last) }
            } catch {
                Output.note("fetch: error: \(error); trying again in \(Int(Self.retryAfterError)) s")
            }
            try? await fetch.scheduler.time.sleep(seconds: Self.retryAfterError)
        }
    }

    /// One fetch as the timer would start it; returns its result. A run is always logged, a fetch that did not
    /// start only when the last did start, so a long fetch by another process is one line, not one a second.
    private func once(after last: String?) async throws -> String {
        let decision = try await fetch.perform(force: false)
        let now = fetch.scheduler.now()
        let report = try fetch.report(decision, now: now)
        switch decision {
        case .ran:
            Output.note("fetch: \(report.line(now: now))")
        case .notDue(let state) where last != report.result:
            Output.note("fetch: none due. Next fetch \(Durations.describe(until: state.nextFetchAt, from: now)).")
        case .alreadyRunning where last != report.result:
            Output.note("fetch: \(report.line(now: now))")
        default:
            break
        }
        return report.result
    }
}
