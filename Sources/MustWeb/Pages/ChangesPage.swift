import Foundation
import MustCore

/// `/changes?since=`: what `mustc changes` shows.
struct ChangesPage: Sendable {
    var title = "Changes"
    var since: String
    var sinceValue: String
    var changes: [ChangeRow]

    init(_ report: ChangesReport, since: String) {
        self.since = Shown.time(report.since)
        sinceValue = since
        changes = report.changes.map(ChangeRow.init)
    }
}

/// `/status`: what `mustc status` shows, with the movies that need a choice and their candidates.
struct StatusPage: Sendable {
    struct Run: Sendable {
        var started: String
        var result: String
        var movies: Int
        var changed: Int
        var failed: Int
        var requests: Int
    }

    struct Failing: Sendable {
        var title: String
        var reason: String
    }

    struct Candidate: Sendable {
        var shown: String
        var href: String
    }

    struct Choice: Sendable {
        var shown: String
        var keptBy: String?
        var candidates: [Candidate]
    }

    var title = "Status"
    var schedule: [String]
    var checks: String
    var runs: [Run]
    var failing: [Failing]
    var unresolved: String?
    var choices: [Choice]
    var hook: [String]

    init(_ status: StatusReport, now: Date) {
        schedule = Self.scheduleLines(status, now: now)
        checks = status.checksLine(now: now)
        runs = status.runs.map {
            Run(
                started: Shown.time($0.startedAt), result: $0.result ?? "unfinished", movies: $0.movies,
                changed: $0.changed, failed: $0.failed, requests: $0.requests)
        }
        failing = status.failing.map { Failing(title: $0.shown, reason: $0.reason) }
        unresolved = status.unresolved.isEmpty ? nil : status.unresolved.joined(separator: ", ")
        choices = status.needsChoice.map { movie in
            Choice(
                shown: movie.shown, keptBy: movie.members.isEmpty ? nil : movie.members.joined(separator: ", "),
                candidates: movie.candidates.map {
                    Candidate(shown: "\($0.shown), TMDB \($0.remoteId)", href: WebPath.tmdb($0.remoteId))
                })
        }
        hook = status.hookLines().filter { !$0.isEmpty }.map { $0.trimmingCharacters(in: .whitespaces) }
    }

    static func scheduleLines(_ status: StatusReport, now: Date) -> [String] {
        guard let next = status.nextFetchAt, let result = status.lastResult else {
            return ["No fetch has run yet; the next `mustc fetch` will run one."]
        }
        let interval = status.interval.map { " (interval \(Durations.approximate($0)))" } ?? ""
        return [
            "Next fetch \(Durations.describe(until: next, from: now))\(interval).",
            "Last result \(result.rawValue); \(status.consecutiveNoData) noData and \(status.consecutiveFailures) "
                + "failed in a row.",
        ]
    }
}
