import Foundation

/// The persisted scheduler: reads when the next fetch is due and records each run's result through the policy.
public struct Scheduler: Sendable {
    public var store: Store
    public var policy: BackoffPolicy
    /// When runs start and end, and the jitter of the next fetch.
    public var time: TimeSource

    public init(store: Store, policy: BackoffPolicy, time: TimeSource) {
        self.store = store
        self.policy = policy
        self.time = time
    }

    public func now() -> Date { time.now() }

    /// The stored state; nil before the first run, when a fetch is due at once.
    public func state() throws(StoreError) -> ScheduleState? { try store.scheduleState() }

    /// The stored state with `nextFetchAt` brought forward when a movie became due sooner (one added since the
    /// last run); nil before the first run, when a fetch is due at once.
    public func effectiveState() throws(StoreError) -> ScheduleState? {
        guard var state = try state() else { return nil }
        if let due = policy.dueDate(state: state, earliestCheck: try store.earliestCheck()) { state.nextFetchAt = due }
        return state
    }

    public func isDue() throws(StoreError) -> Bool { try effectiveState()?.isDue(at: now()) ?? true }

    /// Ends the run's record. An interrupted run leaves the schedule as it was, so the next timer tick retries.
    @discardableResult
    public func record(run id: Int64, _ report: FetchReport) throws(StoreError) -> ScheduleState? {
        let ended = report.recordedAt ?? now()
        guard !report.interrupted else {
            try store.finishRun(
                id: id, at: ended, result: "interrupted", summary: report.summary, requests: report.requests,
                schedule: nil)
            return nil
        }
        let result = report.summary.result
        let next = policy.next(
            after: result, from: try state(), at: ended, earliestCheck: try store.earliestCheck(),
            retryAfter: report.summary.retryAfter, random: time.random())
        try store.finishRun(
            id: id, at: ended, result: result.rawValue, summary: report.summary, requests: report.requests,
            schedule: next)
        return next
    }
}
