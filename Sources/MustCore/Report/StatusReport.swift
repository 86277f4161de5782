import Foundation

/// What `mustc status` shows: the schedule, the last runs, and the movies that need attention.
public struct StatusReport: Sendable, JSONShaped {
    public var nextFetchAt: Date?
    /// Seconds between the last finished run and the next fetch it chose.
    public var interval: TimeInterval?
    public var lastResult: FetchResult?
    public var consecutiveNoData: Int
    public var consecutiveFailures: Int
    public var due: Bool
    public var runs: [FetchRunRecord]
    public var failing: [FailingMovie]
    public var unresolved: [String]
    public var checks: CheckCounts
    /// Movies no TMDB title matched exactly, with the closest results (StatusReport+Choices.swift).
    public var needsChoice: [MovieNeedingChoice] = []
    /// What the newData hook did last time it ran (StatusReport+Hook.swift).
    public var hook: HookRecord?
    /// The media servers' last events, and those of users who are no member (StatusReport+Media.swift).
    public var mediaServers = MediaEventStatus()
    /// Each notification destination's last success, last failure and waiting messages (StatusReport+Notify.swift).
    public var notify: [NotifyDestinationStatus] = []
    /// False on the page and in `/api/status`: anyone who can reach the page may read them, and the hook's program
    /// path and the end of its error output can hold anything the hook printed. Only whether it ran and how it
    /// ended are shown there; `mustc status` at the terminal keeps both.
    public var showsHookDetails = true

    public init(
        schedule: ScheduleState?, runs: [FetchRunRecord], failing: [FailingMovie], unresolved: [String],
        checks: CheckCounts, now: Date
    ) {
        nextFetchAt = schedule?.nextFetchAt
        interval = runs.first { $0.interval != nil }?.interval ?? schedule?.interval
        lastResult = schedule?.lastResult
        consecutiveNoData = schedule?.consecutiveNoData ?? 0
        consecutiveFailures = schedule?.consecutiveFailures ?? 0
        due = schedule?.isDue(at: now) ?? true
        self.runs = runs
        self.failing = failing
        self.unresolved = unresolved
        self.checks = checks
    }

    /// `interval` in whole seconds, the unknowns null; the hook without its program and output on the page.
    private struct Shape: Encodable {
        @NullWhenAbsent var nextFetchAt: Date?
        @NullWhenAbsent var interval: Int?
        @NullWhenAbsent var lastResult: String?
        var consecutiveNoData, consecutiveFailures: Int
        var due: Bool
        var runs: [FetchRunRecord]
        var failing: [FailingMovie]
        var unresolved: [String]
        var checks: CheckCounts
        var needsChoice: [MovieNeedingChoice]
        @NullWhenAbsent var hook: HookRecord.Shape?
        var mediaServers: MediaEventStatus
        var notify: [NotifyDestinationStatus]
    }

    public var jsonShape: any Encodable {
        Shape(
            nextFetchAt: nextFetchAt, interval: interval.map(Durations.wholeSeconds), lastResult: lastResult?.rawValue,
            consecutiveNoData: consecutiveNoData, consecutiveFailures: consecutiveFailures, due: due, runs: runs,
            failing: failing, unresolved: unresolved, checks: checks, needsChoice: needsChoice,
            hook: hook.map { HookRecord.Shape($0, details: showsHookDetails) }, mediaServers: mediaServers,
            notify: notify)
    }

    /// The report as the page shows it: without the hook's program and output.
    public var forPage: StatusReport {
        var report = self
        report.showsHookDetails = false
        return report
    }

    /// The human-readable form.
    public func text(now: Date) -> String {
        var lines: [String] = []
        if let nextFetchAt, let lastResult {
            let interval = interval.map { " (interval \(Durations.approximate($0)))" } ?? ""
            lines.append("Next fetch \(Durations.describe(until: nextFetchAt, from: now))\(interval).")
            lines.append(
                "Last result \(lastResult.rawValue); \(consecutiveNoData) noData and \(consecutiveFailures) "
                    + "failed in a row.")
        } else {
            lines.append("No fetch has run yet; the next `mustc fetch` will run one.")
        }
        lines.append(checksLine(now: now))
        if !runs.isEmpty {
            lines.append("")
            lines.append("Recent runs:")
            let rows = runs.map { run in
                [
                    ISO8601.string(run.startedAt), run.result ?? "unfinished",
                    String(run.movies), String(run.changed), String(run.failed), String(run.requests),
                    run.interval.map(Durations.approximate) ?? "",
                ]
            }
            lines.append(
                ReportRenderer.table(
                    header: ["Started", "Result", "Movies", "Changed", "Failed", "Requests", "Next after"], rows: rows,
                    indent: "  "))
        }
        if runs.contains(where: { $0.result == nil }) {
            lines.append("  (unfinished: still running, or the process was killed; nothing it committed is lost)")
        }
        if !failing.isEmpty {
            lines.append("")
            lines.append("Movies failing:")
            // One line per movie: a line break in a title shows as `\n` (TerminalText.cell).
            lines.append(
                contentsOf: failing.map { "  \(TerminalText.cell($0.shown)): \(TerminalText.cell($0.reason))" })
        }
        if !unresolved.isEmpty {
            lines.append("")
            lines.append("Movies without a TMDB id yet: " + unresolved.map(TerminalText.cell).joined(separator: ", "))
        }
        lines.append(contentsOf: choiceLines())
        lines.append(contentsOf: hookLines())
        lines.append(contentsOf: mediaLines())
        lines.append(contentsOf: notifyLines())
        return lines.joined(separator: "\n")
    }
}

extension StatusReport {
    /// "Movies due now 3, within an hour 5, within a day 40 (of 300); the next in 12m (...)."
    public func checksLine(now: Date) -> String {
        guard checks.total > 0 else { return "No movies yet." }
        let next = checks.nextCheckAt.map { "; the next \(Durations.describe(until: $0, from: now))" } ?? ""
        return "Movies due now \(checks.dueNow), within an hour \(checks.dueWithinHour), within a day "
            + "\(checks.dueWithinDay) (of \(checks.total))\(next)."
    }
}

extension FetchRunRecord: JSONShaped {
    /// `interval` in whole seconds; what a run has not reached yet (its end, result, next fetch) is null.
    private struct Shape: Encodable {
        var startedAt: Date
        @NullWhenAbsent var endedAt: Date?
        @NullWhenAbsent var result: String?
        var movies, changed, unchanged, failed, skipped, requests: Int
        @NullWhenAbsent var interval: Int?
        @NullWhenAbsent var nextFetchAt: Date?
        @NullWhenAbsent var failure: String?
    }

    public var jsonShape: any Encodable {
        Shape(
            startedAt: startedAt, endedAt: endedAt, result: result, movies: movies, changed: changed,
            unchanged: unchanged, failed: failed, skipped: skipped, requests: requests,
            interval: interval.map(Durations.wholeSeconds), nextFetchAt: nextFetchAt, failure: failure)
    }
}
