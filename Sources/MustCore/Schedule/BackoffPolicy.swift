import Foundation

/// When the next fetch is due, as a pure function of the last result and the state so far.
public struct BackoffPolicy: Sendable, Equatable {
    public var minimumInterval: TimeInterval
    public var maximumInterval: TimeInterval
    public var factor: Double
    public var failureRetryInterval: TimeInterval
    /// Failure delays vary by up to this share either way, so many machines do not retry in step.
    public var jitter: Double

    public init(
        minimumInterval: TimeInterval = 900, maximumInterval: TimeInterval = 86_400, factor: Double = 2,
        failureRetryInterval: TimeInterval = 600, jitter: Double = 0.1
    ) {
        self.minimumInterval = minimumInterval
        self.maximumInterval = max(maximumInterval, minimumInterval)
        self.factor = max(factor, 1)
        self.failureRetryInterval = failureRetryInterval
        self.jitter = jitter
    }

    public init(_ schedule: Config.Schedule) {
        self.init(
            minimumInterval: schedule.minimumInterval, maximumInterval: schedule.maximumInterval,
            factor: schedule.backoffFactor, failureRetryInterval: schedule.failureRetryInterval)
    }

    /// The state after a run that ended at `now` with `result`.
    /// - Parameters:
    ///   - retryAfter: the longest Retry-After TMDB sent during the run; a failed run waits at least that long.
    ///   - random: a number in 0..<1 for the jitter; tests pass a fixed one.
    public func next(
        after result: FetchResult, from state: ScheduleState?, at now: Date, retryAfter: TimeInterval? = nil,
        random: Double
    ) -> ScheduleState {
        let previous = state ?? ScheduleState(interval: minimumInterval, nextFetchAt: now, lastResult: .newData)
        var next = previous
        next.lastResult = result
        switch result {
        case .newData:
            next.interval = minimumInterval
            next.consecutiveNoData = 0
            next.consecutiveFailures = 0
        case .noData:
            // The first noData after a change waits minimum × factor: the app said "nothing new" once already.
            next.interval = clamp(max(previous.interval, minimumInterval) * factor)
            next.consecutiveNoData += 1
            next.consecutiveFailures = 0
        case .failed:
            // `interval` keeps the success cadence; the failure delay is its own, doubling per failure.
            next.consecutiveFailures += 1
            let exponent = Double(min(next.consecutiveFailures - 1, 62))
            let base = min(failureRetryInterval * pow(2, exponent), maximumInterval)
            let jittered = min(base * (1 - jitter + 2 * jitter * random), maximumInterval)
            next.nextFetchAt = now.addingTimeInterval(max(jittered, retryAfter ?? 0))
            return next
        }
        next.nextFetchAt = now.addingTimeInterval(max(next.interval, retryAfter ?? 0))
        return next
    }

    private func clamp(_ interval: TimeInterval) -> TimeInterval {
        min(max(interval, minimumInterval), maximumInterval)
    }
}
