import Foundation

/// What `mustc status` shows: the schedule, the last runs, and the movies that need attention.
public struct StatusReport: Sendable, Encodable {
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

    private enum CodingKeys: String, CodingKey {
        case nextFetchAt, interval, lastResult, consecutiveNoData, consecutiveFailures, due, runs, failing, unresolved,
            checks, needsChoice, hook
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(nextFetchAt, forKey: .nextFetchAt)
        try container.encode(interval.map(Durations.wholeSeconds), forKey: .interval)
        try container.encode(lastResult?.rawValue, forKey: .lastResult)
        try container.encode(consecutiveNoData, forKey: .consecutiveNoData)
        try container.encode(consecutiveFailures, forKey: .consecutiveFailures)
        try container.encode(due, forKey: .due)
        try container.encode(runs, forKey: .runs)
        try container.encode(failing, forKey: .failing)
        try container.encode(unresolved, forKey: .unresolved)
        try container.encode(checks, forKey: .checks)
        try container.encode(needsChoice, forKey: .needsChoice)
        if showsHookDetails {
            try container.encode(hook, forKey: .hook)
        } else {
            try container.encode(hook.map(HookRecord.Outline.init), forKey: .hook)
        }
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

extension FetchRunRecord: Encodable {
    private enum CodingKeys: String, CodingKey {
        case startedAt, endedAt, result, movies, changed, unchanged, failed, skipped, requests, interval, nextFetchAt,
            failure
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(startedAt, forKey: .startedAt)
        try container.encode(endedAt, forKey: .endedAt)
        try container.encode(result, forKey: .result)
        try container.encode(movies, forKey: .movies)
        try container.encode(changed, forKey: .changed)
        try container.encode(unchanged, forKey: .unchanged)
        try container.encode(failed, forKey: .failed)
        try container.encode(skipped, forKey: .skipped)
        try container.encode(requests, forKey: .requests)
        try container.encode(interval.map(Durations.wholeSeconds), forKey: .interval)
        try container.encode(nextFetchAt, forKey: .nextFetchAt)
        try container.encode(failure, forKey: .failure)
    }
}
