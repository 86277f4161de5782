import MustCore

extension GlobalOptions {
    /// The client `add` and `import` look movies up with (`TMDBClient.forLookups`: the fetch's retry rules and
    /// rate limit), or nil without credentials.
    func lookupClient(_ config: Config) -> TMDBClient? {
        TMDBClient.forLookups(config, time: time, logger: logger)
    }
}
