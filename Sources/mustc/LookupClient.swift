import MustCore

extension GlobalOptions {
    /// The client `add` and `import` look movies up with: the same retry rules and rate limit as a fetch
    /// (`tmdb.maxRetries`, `tmdb.maxRequestsPerSecond`), so a long list cannot outrun TMDB's limit.
    func lookupClient(_ config: Config) -> TMDBClient? {
        client(
            config, retry: RetryPolicy(maxRetries: config.tmdb.maxRetries),
            limiter: RateLimiter(requestsPerSecond: config.tmdb.maxRequestsPerSecond))
    }
}
