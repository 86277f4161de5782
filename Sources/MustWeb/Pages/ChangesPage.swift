import Foundation
import MustCore

/// `/changes?since=`: what `mustc changes` shows.
struct ChangesPage: Sendable {
    var title = "Changes"
    var since: String
    var sinceValue: String
    var changes: [ChangeRow]
    /// "Dune (2021) now on Netflix", "… left Disney Plus", newest first.
    var availability: [Availability]

    struct Availability: Sendable {
        var shown: String
        var href: String?
        var what: String
        var at: String
    }

    init(_ report: ChangesReport, since: String, time: TimeText) {
        self.since = time.time(report.since)
        sinceValue = Shown.text(since)
        changes = report.changes.map { ChangeRow($0, time: time) }
        availability = report.availability.map { change in
            Availability(
                shown: Shown.text(change.shown), href: WebPath.movie(remoteId: change.remoteId, localId: nil),
                what: Shown.text(change.what), at: time.time(change.at))
        }
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
        /// Signed in: the button that settles the movie as this candidate, as `mustc resolve` does.
        var settle: SettleChoice?
    }

    struct Choice: Sendable {
        var shown: String
        var keptBy: String?
        /// The watches a media server sent for the title, waiting for the choice.
        var held: [String]
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
    /// The media servers' last events, and those ignored from users who are no member (webhooks).
    var media: [String]
    /// Each notification destination's last success, last failure and waiting count.
    var notify: [String]
    /// Signed in: the settle buttons' token (filled in for each viewer as the page is sent).
    var csrf: String?

    /// Each movie that needs a choice is listed once; signed in (`editing`), its candidates are buttons.
    init(_ status: StatusReport, time: TimeText, editing: Bool = false) {
        let now = time.now
        schedule = Self.scheduleLines(status, time: time)
        checks = status.checksLine(now: now)
        runs = status.runs.map {
            Run(
                started: time.time($0.startedAt), result: $0.result ?? "unfinished", movies: $0.movies,
                changed: $0.changed, failed: $0.failed, requests: $0.requests)
        }
        failing = status.failing.map { Failing(title: Shown.text($0.shown), reason: Shown.text($0.reason)) }
        unresolved = status.unresolved.isEmpty ? nil : Shown.text(status.unresolved.joined(separator: ", "))
        csrf = editing ? EditSlot.csrf : nil
        choices = status.needsChoice.map { movie in
            let named = MovieReference.title(movie.title, year: movie.year).description
            let member = editing ? movie.members.first : nil
            return Choice(
                shown: Shown.text(movie.shown),
                keptBy: movie.members.isEmpty ? nil : Shown.text(movie.members.joined(separator: ", ")),
                held: movie.held.map { Shown.text($0.waiting + ".") },
                candidates: movie.candidates.map { candidate in
                    Candidate(
                        shown: "\(Shown.text(candidate.shown)), TMDB \(candidate.remoteId)",
                        href: WebPath.tmdb(candidate.remoteId),
                        settle: member.map {
                            SettleChoice(
                                member: $0, movie: named, target: "tmdb:\(candidate.remoteId)",
                                label: "It is \(Shown.text(candidate.shown)), tmdb:\(candidate.remoteId)",
                                back: "/status")
                        })
                })
        }
        hook = status.hookLines().filter { !$0.isEmpty }.map { Shown.text($0.trimmingCharacters(in: .whitespaces)) }
        media =
            status.mediaServers.last.map {
                "\($0.server) at \(time.time($0.receivedAt)), user \($0.user): \($0.movie): \($0.outcome)"
            }
            + status.mediaServers.unknownUsers.map {
                "Ignored, no member of that name: \($0.server) at \(time.time($0.receivedAt)), user \($0.user): \($0.movie)"
            }.map(Shown.text)
        notify = status.notifyLines().filter { !$0.isEmpty }.map(Shown.text)
    }

    static func scheduleLines(_ status: StatusReport, time: TimeText) -> [String] {
        guard let next = status.nextFetchAt, let result = status.lastResult else {
            return ["No fetch has run yet: the ratings are read at the next scheduled fetch."]
        }
        let interval = status.interval.map { " (interval \(Durations.approximate($0)))" } ?? ""
        return [
            "Next fetch \(time.until(next)), \(time.time(next))\(interval).",
            "Last result \(result.rawValue); \(status.consecutiveNoData) noData and \(status.consecutiveFailures) "
                + "failed in a row.",
        ]
    }
}
