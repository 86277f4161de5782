import Foundation

/// How often and how long to wait before retrying a transient TMDB failure: exponential backoff
/// with full jitter, never sooner than the server's Retry-After. A Retry-After beyond `maxDelay`
/// is not waited out: the failure goes back to the caller, who can reschedule instead.
public struct RetryPolicy: Sendable, Equatable {
    public var maxRetries: Int
    public var baseDelay: TimeInterval
    public var maxDelay: TimeInterval

    public init(maxRetries: Int = 3, baseDelay: TimeInterval = 0.5, maxDelay: TimeInterval = 30) {
        self.maxRetries = maxRetries
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
    }

    public static let none = RetryPolicy(maxRetries: 0)

    /// The pause before retry number `retry` (0-based); `random` yields values in 0..<1.
    public func delay(beforeRetry retry: Int, retryAfter: TimeInterval?, random: () -> Double) -> TimeInterval {
        let ceiling = min(maxDelay, baseDelay * pow(2, Double(retry)))
        let jittered = ceiling * random()
        return max(jittered, retryAfter ?? 0)
    }
}
