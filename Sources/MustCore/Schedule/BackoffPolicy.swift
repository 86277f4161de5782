import Foundation

/// When the next fetch (a run over the due movies) is due, as a pure function of the run's result, the state so
/// far, and when the earliest movie is due. Each movie backs off on its own (`MovieSchedulePolicy`); this
/// only decides when to wake up for them, and how to back off when TMDB or the network fails.
public struct BackoffPolicy: Sendable, Equatable {
    public var minimumInterval: TimeInterval
    public var maximumInterval: TimeInterval
    public var failureRetryInterval: TimeInterval
    /// Failure delays vary by up to this share either way, so many machines do not retry in step.
    public var jitter: Double

    public init(
        minimumInterval: TimeInterval = 900, maximumInterval: TimeInterval = 86_400,
        failureRetryInterval: TimeInterval = 600, jitter: Double = 0.1
    ) {
        self.minimumInterval = minimumInterval
        self.maximumInterval = max(maximumInterval, minimumInterval)
        self.failureRetryInterval = failureRetryInterval
        self.jitter = jitter
    }

    public init(_ schedule: Config.Schedule) {
        self.init(
            minimumInterval: schedule.minimumInterval, maximumInterval: schedule.maximumInterval,
            failureRetryInterval: schedule.failureRetryInterval)
    }

    /// The state after a run that ended at `now` with `result`.
    /// - Parameters:
    ///   - earliestCheck: when the earliest movie is due after this run; nil for an empty library.
    ///   - retryAfter: the longest Retry-After TMDB sent during the run; the next run waits at least that long,
    ///     but never longer than `maximumInterval`, so no answer can switch fetching off.
    ///   - random: a number in 0..<1 for the jitter; tests pass a fixed one.
    public func next(
        after result: FetchResult, from state: ScheduleState?, at now: Date, earliestCheck: Date?,
        retryAfter: TimeInterval? = nil, random: Double
    ) -> ScheduleState {
        let previous = state ?? ScheduleState(interval: minimumInterval, nextFetchAt: now, lastResult: .newData)
        var next = previous
        next.lastResult = result
        let wait = min(retryAfter ?? 0, maximumInterval)
        switch result {
        case .newData:
            next.consecutiveNoData = 0
            next.consecutiveFailures = 0
        case .noData:
            next.consecutiveNoData += 1
            next.consecutiveFailures = 0
        case .failed:
            // `interval` keeps the success cadence; the failure delay is its own, doubling per failure.
            next.consecutiveFailures += 1
            let exponent = Double(min(next.consecutiveFailures - 1, 62))
            let base = min(failureRetryInterval * pow(2, exponent), maximumInterval)
            let jittered = min(base * (1 - jitter + 2 * jitter * random), maximumInterval)
            next.nextFetchAt = now.addingTimeInterval(max(jittered, wait))
            return next
        }
        // Wake for the earliest movie, but never sooner than the minimum after this run, nor later than the cap.
        let untilEarliest = earliestCheck.map { $0.timeIntervalSince(now) } ?? maximumInterval
        next.interval = min(max(untilEarliest, minimumInterval), maximumInterval)
        next.nextFetchAt = now.addingTimeInterval(max(next.interval, wait))
        return next
    }

    /// When a fetch is due, given the stored state and the earliest movie due now: a movie added since the last
    /// run (due at once) brings the fetch forward, though never sooner than the minimum after that run, and
    /// never through a failure backoff.
    public func dueDate(state: ScheduleState?, earliestCheck: Date?) -> Date? {
        guard let state else { return nil }
        guard state.lastResult != .failed, let earliestCheck else { return state.nextFetchAt }
        // For a successful run, `interval` is the delay it chose, so the run ended `interval` before the due date.
        let floor = state.nextFetchAt.addingTimeInterval(minimumInterval - state.interval)
        return min(state.nextFetchAt, max(earliestCheck, floor))
    }
}
