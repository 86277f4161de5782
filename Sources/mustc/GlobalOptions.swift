import ArgumentParser
import Foundation
import Logging
import MustCore

/// Options every command shares, and the setup they imply: config, logger, store, TMDB client.
struct GlobalOptions: ParsableArguments {
    @Option(help: "Read configuration from this JSON file.")
    var config: String?

    @Option(help: "Use this SQLite database file.")
    var database: String?

    @Flag(name: .shortAndLong, help: "Log every step (secrets stay redacted).")
    var verbose = false

    func loadConfig() throws -> Config {
        do {
            return try ConfigLoader(environment: Console.environment).load(explicitPath: config)
        } catch {
            throw Failure.config(error.description)
        }
    }

    var logger: Logger {
        var logger = Logger(label: "mustc") {
            TerminalSafeLogHandler(wrapped: Console.logHandler(label: $0))
        }
        logger.logLevel = verbose ? .debug : .warning
        return logger
    }

    /// The command's one source of time: the system's clocks, passed into everything that reads the date, sleeps
    /// or times something.
    var time: TimeSource { .system }

    func databasePath(_ config: Config) -> String {
        database ?? config.database ?? ConfigLoader(environment: Console.environment).defaultDatabasePath
    }

    func openStore(_ config: Config) throws -> Store {
        do {
            return try Store(path: databasePath(config), logger: logger)
        } catch {
            throw Failure(store: error)
        }
    }

    /// The store for a command that only reads: read-only, never migrating a current schema.
    func openStoreForReading(_ config: Config) throws -> Store {
        do {
            return try Store.forReading(path: databasePath(config), logger: logger)
        } catch {
            throw Failure(store: error)
        }
    }

    /// A client for commands that may call TMDB, or nil when no credentials are configured.
    func client(_ config: Config, retry: RetryPolicy, limiter: RateLimiter? = nil, connections: Int = 4)
        -> TMDBClient?
    {
        TMDBClient.configured(
            config, retry: retry, limiter: limiter, connections: connections, time: time, logger: logger)
    }
}
