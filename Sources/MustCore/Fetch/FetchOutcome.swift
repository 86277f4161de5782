/// What one UpdateMovieOperation did.
public enum FetchOutcome: Sendable, Equatable {
    /// Ratings changed, or the remote id was newly resolved: a row was written.
    case changed
    /// TMDB agrees with what is stored: nothing was written.
    case unchanged
    case failed(FetchFailure)
    /// Not attempted: TMDB recently said it has no such movie, or the run ran out of budget.
    case skipped(SkipReason)
}

public enum SkipReason: String, Sendable, Equatable {
    case recentlyNotFound
    case budgetExhausted
    case cancelled
}

/// Why an operation failed, reduced to what the result table and `status` need.
public struct FetchFailure: Sendable, Equatable {
    public enum Kind: String, Sendable, Equatable {
        /// 401: nothing else will work either.
        case unauthorized
        /// The configured address is not TMDB's API (a 404 page or HTML that TMDB did not write): nothing else
        /// will work either, and nothing was learned about the movie.
        case wrongAddress
        /// TMDB answered, and has no such movie (404, or a search with no results).
        case notFound
        /// The network, timeouts, 429s and 5xx that outlasted the retries, malformed bodies.
        case unavailable
    }

    public var kind: Kind
    public var message: String
    /// The longest Retry-After TMDB asked for, when it rate limited us.
    public var retryAfter: Double?

    public init(kind: Kind, message: String, retryAfter: Double? = nil) {
        self.kind = kind
        self.message = message
        self.retryAfter = retryAfter
    }

    public init(_ error: TMDBError) {
        switch error {
        case .unauthorized: self.init(kind: .unauthorized, message: error.description)
        case .wrongAddress: self.init(kind: .wrongAddress, message: error.description)
        case .notFound: self.init(kind: .notFound, message: error.description)
        default: self.init(kind: .unavailable, message: error.description, retryAfter: error.retryAfter)
        }
    }
}

extension FetchFailure.Kind {
    /// Failures that say the run's setup is wrong, not the movie: the run stops, no movie records it, and every
    /// movie keeps its schedule.
    public var stopsTheRun: Bool { self == .unauthorized || self == .wrongAddress }
}
