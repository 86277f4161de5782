/// The run's report to the scheduler, as iOS's UIBackgroundFetchResult.
public enum FetchResult: String, Sendable, Equatable, Codable {
    case newData
    case noData
    case failed
}

/// Counts of a run's outcomes and the result they honestly add up to.
public struct FetchSummary: Sendable, Equatable {
    public var movies = 0
    public var changed = 0
    public var unchanged = 0
    public var failed = 0
    public var skipped = 0
    /// The credentials were rejected or the address is not TMDB's: the run could not work at all.
    public var unauthorized = false
    public var unavailable = 0
    public var retryAfter: Double?
    /// The first failure's message, kept for the run record; the failure that stopped the run when one did, as that
    /// is the run's cause, not another movie's unreadable answer that came before it.
    public var firstFailure: String?
    /// Set when the store could not be read or written: the run could not do its job.
    public var storeFailure: String?
    /// Movies that arrived on, or left, one of the family's services in this run: new data too.
    public var availabilityChanges = 0

    public init() {}

    public init(_ outcomes: some Sequence<FetchOutcome>) {
        for outcome in outcomes { add(outcome) }
    }

    public mutating func add(_ outcome: FetchOutcome) {
        movies += 1
        switch outcome {
        case .changed: changed += 1
        case .unchanged: unchanged += 1
        case .skipped: skipped += 1
        case .failed(let failure):
            failed += 1
            if failure.kind.stopsTheRun, !unauthorized {
                firstFailure = failure.message
                unauthorized = true
            } else if !unauthorized {
                firstFailure = firstFailure ?? failure.message
            }
            if failure.kind == .unavailable { unavailable += 1 }
            if let seconds = failure.retryAfter { retryAfter = max(retryAfter ?? 0, seconds) }
        }
    }

    /// A change whose row SQLite refused: it was not recorded, so it counts as a failed movie, not a change.
    public mutating func unrecorded(_ reason: String) {
        changed -= 1
        failed += 1
        if !unauthorized { firstFailure = firstFailure ?? reason }
    }

    /// The completion operation's table:
    /// - failed: the credentials were rejected, or every attempted movie failed and not merely because TMDB
    ///   does not know it (the network is down, TMDB is down), or the store failed;
    /// - newData: at least one movie changed (its figures, or its place on one of the family's services), whatever
    ///   else failed;
    /// - noData: everything else, including an empty library. Never newData without a change.
    public var result: FetchResult {
        if unauthorized || storeFailure != nil { return .failed }
        let attempted = changed + unchanged + failed
        if attempted > 0, changed + unchanged == 0, unavailable > 0 { return .failed }
        return changed > 0 || availabilityChanges > 0 ? .newData : .noData
    }
}
