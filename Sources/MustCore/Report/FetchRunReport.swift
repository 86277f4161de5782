import Foundation

/// The `mustc fetch --json` contract:
/// `{"result","movies","changed","unchanged","failed","nextFetchAt","interval"}` plus `skipped`, `requests`,
/// `elapsed`, `due`, `total` and `posters` (`{"downloaded","failed","malformed","removed"}`). `interval` is the delay, in seconds, the scheduler chose before the next fetch;
/// `movies` counts the movies the run took on, `due` those due when it started (all of them when forced), and
/// `total` the library; `due` and `total` are null when no run happened.
public struct FetchRunReport: Sendable, Equatable, JSONShaped {
    /// newData, noData, failed, notDue, alreadyRunning, or interrupted when a signal stopped the run.
    public var result: String
    public var movies = 0
    public var changed = 0
    public var unchanged = 0
    public var failed = 0
    public var skipped = 0
    /// Arrivals on, and departures from, the family's services the run recorded.
    public var availability = 0
    public var requests = 0
    public var elapsed: Double = 0
    public var due: Int?
    public var total: Int?
    public var nextFetchAt: Date?
    public var interval: TimeInterval?
    /// The first failure's reason, for the summary line; not part of the JSON.
    public var failure: String?
    /// `posters`: `{"downloaded","failed","malformed","removed"}`, all 0 when no run happened.
    public var posters = PosterTally()

    public init(_ decision: FetchDecision, lastInterval: TimeInterval?, now: Date) {
        switch decision {
        case .notDue(let state):
            result = "notDue"
            nextFetchAt = state.nextFetchAt
            interval = lastInterval ?? state.interval
        case .alreadyRunning(let state):
            result = "alreadyRunning"
            nextFetchAt = state?.nextFetchAt
            interval = state == nil ? nil : lastInterval ?? state?.interval
        case .ran(let report, let schedule):
            let summary = report.summary
            result = schedule == nil ? "interrupted" : summary.result.rawValue
            (movies, changed, unchanged, failed, skipped) = (
                summary.movies, summary.changed, summary.unchanged, summary.failed, summary.skipped
            )
            requests = report.requests
            availability = summary.availabilityChanges
            (due, total) = (report.due, report.total)
            elapsed = (report.elapsed * 1000).rounded() / 1000
            nextFetchAt = schedule?.nextFetchAt
            // The delay the run recorded (what `status` shows), not one shortened by the work after it.
            let recordedAt = report.recordedAt ?? now
            interval = schedule.map { $0.nextFetchAt.timeIntervalSince(recordedAt).rounded() }
            failure = summary.storeFailure ?? summary.firstFailure
            posters = report.posters
        }
    }

    /// `interval` in whole seconds, the unknowns null; the failure is the summary line's, not the JSON's.
    private struct Shape: Encodable {
        var result: String
        var movies, changed, unchanged, failed, skipped, availability, requests: Int
        var elapsed: Double
        @NullWhenAbsent var due: Int?
        @NullWhenAbsent var total: Int?
        @NullWhenAbsent var nextFetchAt: Date?
        @NullWhenAbsent var interval: Int?
        var posters: PosterTally
    }

    public var jsonShape: any Encodable {
        Shape(
            result: result, movies: movies, changed: changed, unchanged: unchanged, failed: failed, skipped: skipped,
            availability: availability, requests: requests, elapsed: elapsed, due: due, total: total,
            nextFetchAt: nextFetchAt, interval: interval.map(Durations.wholeSeconds), posters: posters)
    }

    /// " Posters: 3 downloaded, 1 failed." when the run did anything with posters.
    var posterLine: String {
        let parts = [
            (posters.downloaded, "downloaded"), (posters.failed, "failed"), (posters.malformed, "refused"),
            (posters.removed, "removed"),
        ].filter { $0.0 > 0 }.map { "\($0.0) \($0.1)" }
        return parts.isEmpty ? "" : " Posters: " + parts.joined(separator: ", ") + "."
    }

    /// The one-line summary printed at the end of `mustc fetch`.
    public func line(now: Date) -> String {
        let next = nextFetchAt.map { " Next fetch \(Durations.describe(until: $0, from: now))." } ?? ""
        switch result {
        case "notDue": return "No fetch due yet.\(next) Use --force to fetch now."
        case "alreadyRunning": return "Another mustc fetch is running; not starting a second one."
        default:
            let of = total.map { " of \($0)" } ?? ""
            var counts = "\(movies)\(of) movies: \(changed) changed, \(unchanged) unchanged, \(failed) failed"
            if skipped > 0 { counts += ", \(skipped) skipped" }
            if availability > 0 { counts += ", \(availability) on or off our services" }
            let timing = String(format: "%d requests in %.1fs", requests, elapsed)
            let why = result == "failed" ? failure.map { " Cause: \($0)." } ?? "" : ""
            return "\(result): \(counts); \(timing).\(posterLine)\(why)\(next)"
        }
    }
}
