import Foundation

/// The scheduler's persisted state: one row in the `schedule` table.
public struct ScheduleState: Sendable, Equatable {
    /// The cadence while runs succeed: the minimum after newData, growing with each noData.
    public var interval: TimeInterval
    public var nextFetchAt: Date
    public var lastResult: FetchResult
    public var consecutiveNoData = 0
    public var consecutiveFailures = 0

    public init(
        interval: TimeInterval, nextFetchAt: Date, lastResult: FetchResult, consecutiveNoData: Int = 0,
        consecutiveFailures: Int = 0
    ) {
        self.interval = interval
        self.nextFetchAt = nextFetchAt
        self.lastResult = lastResult
        self.consecutiveNoData = consecutiveNoData
        self.consecutiveFailures = consecutiveFailures
    }

    public func isDue(at now: Date) -> Bool { now >= nextFetchAt }
}
