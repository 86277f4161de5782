import Logging

extension TMDBClient {
    /// A client for `config`, or nil when no TMDB credentials are configured.
    public static func configured(
        _ config: Config, retry: RetryPolicy, limiter: RateLimiter? = nil, connections: Int = 4, time: TimeSource,
        logger: Logger
    ) -> TMDBClient? {
        guard let credentials = config.tmdb.credentials else { return nil }
        let stack = config.tmdb.transport.stack(maxConnections: connections, time: time)
        return TMDBClient(
            baseURL: config.tmdb.baseURL, credentials: credentials, language: config.tmdb.language,
            timeout: config.tmdb.requestTimeout, retry: retry, limiter: limiter,
            transport: stack.transport, executor: stack.executor, time: time, logger: logger)
    }

    /// The client `add`, `import` and the page's add form look movies up with: the same retry rules and rate
    /// limit as a fetch (`tmdb.maxRetries`, `tmdb.maxRequestsPerSecond`), so a long list cannot outrun TMDB's limit.
    public static func forLookups(_ config: Config, time: TimeSource, logger: Logger) -> TMDBClient? {
        configured(
            config, retry: RetryPolicy(maxRetries: config.tmdb.maxRetries),
            limiter: RateLimiter(requestsPerSecond: config.tmdb.maxRequestsPerSecond, time: time), time: time,
            logger: logger)
    }

    /// The client `resolve` and the page's settle buttons ask with: one retry, waiting at most 2 s, as a person
    /// is waiting for the answer and nothing is lost by asking again.
    public static func forSettling(_ config: Config, time: TimeSource, logger: Logger) -> TMDBClient? {
        configured(config, retry: RetryPolicy(maxRetries: 1, maxDelay: 2), time: time, logger: logger)
    }

    // The page's edits (MustWeb) call these until its application takes a TimeSource (issue 37, the web part);
    // remove them then.
    public static func forLookups(_ config: Config, logger: Logger) -> TMDBClient? {
        forLookups(config, time: .system, logger: logger)
    }

    public static func forSettling(_ config: Config, logger: Logger) -> TMDBClient? {
        forSettling(config, time: .system, logger: logger)
    }
}
