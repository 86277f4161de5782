import Foundation
import MustCore

/// `/`: each member as a card with a strip of their best movies, what moved this week in words, and when the
/// ratings were checked. No fetch's internal words (newData, noData, due): `/status` keeps those.
struct HomePage: Sendable {
    struct Member: Sendable {
        var name: String
        var href: String
        var count: String
        var strip: [PosterView]
    }

    static let stripLength = 4
    static let movedShown = 10
    var title = "The family"
    var members: [Member]
    var moved: [String]
    var movedMore: String?
    var checked: String
    /// The last 7 days' movie nights; nil before the first.
    var nights: NightsSection?

    init(ratings: RatingsReport, prior: NightPrior?, changes: ChangesReport, status: StatusReport, time: TimeText) {
        members = ratings.members.map { member in
            let watched = member.movies.filter(\.mark.watched).count
            let count = MemberPage.movies(member.movies.count) + (watched > 0 ? ", \(watched) watched" : "")
            let best = MemberSort.best.sorted(member.movies, prior: prior).prefix(Self.stripLength)
            return Member(
                name: Shown.text(member.name), href: WebPath.member(member.name), count: count,
                strip: best.map { PosterView(posterPath: $0.posterPath, title: Shown.text($0.shown)) })
        }
        let (moved, steady) = Self.moved(changes.changes)
        self.moved = Array(moved.prefix(Self.movedShown))
        let more = moved.count - self.moved.count
        movedMore =
            more + steady > 0
            ? [
                more > 0 ? "\(more) more moved" : nil,
                steady > 0 ? "\(steady) changed by less than 0.1" : nil,
            ].compactMap { $0 }.joined(separator: "; ") + "." : nil
        checked = Self.checked(status, time: time)
    }

    /// "Dune: Part Two (2024) rose from 8.2 to 8.4", biggest move first, ratings to one decimal; movies whose
    /// rating rounds to the same figure count as steady.
    static func moved(_ changes: [MovieChanges]) -> (sentences: [String], steady: Int) {
        var moves: [(size: Double, text: String)] = []
        var steady = 0
        for movie in changes {
            guard let before = movie.first.figures.voteAverage, let after = movie.last.figures.voteAverage,
                Charts.oneDecimal(before) != Charts.oneDecimal(after)
            else {
                steady += 1
                continue
            }
            let verb = after > before ? "rose" : "fell"
            let text =
                "\(Shown.text(movie.shown)) \(verb) from \(Charts.oneDecimal(before)) to \(Charts.oneDecimal(after))"
            moves.append((abs(after - before), text))
        }
        return (moves.sorted { $0.size > $1.size }.map(\.text), steady)
    }

    /// "Ratings checked 12 minutes ago; next in 3 hours."
    static func checked(_ status: StatusReport, time: TimeText) -> String {
        guard let run = status.runs.first else { return "Ratings not checked yet; they will be at the next fetch." }
        let next = status.nextFetchAt.map { time.until($0) == "now" ? "; next any minute" : "; next \(time.until($0))" }
        let last =
            run.result == FetchResult.failed.rawValue
            ? "The last check, \(time.ago(run.startedAt)), could not reach TMDB"
            : "Ratings checked \(time.ago(run.startedAt))"
        return last + (next ?? "") + "."
    }
}

/// A movie in a list of changes (`/changes`): its rating's move to one decimal and its votes, in words.
struct ChangeRow: Sendable {
    var shown: String
    var href: String?
    var changes: Int
    var rating: String
    var votes: String
    var lastChange: String
    var members: String

    init(_ movie: MovieChanges, time: TimeText) {
        let (first, last) = (movie.first.figures, movie.last.figures)
        shown = Shown.text(movie.shown)
        href = WebPath.movie(remoteId: movie.remoteId, localId: nil)
        changes = movie.changes
        rating = Self.moved(first.voteAverage, last.voteAverage)
        votes = Self.moved(first.voteCount, last.voteCount)
        lastChange = time.time(movie.last.at)
        members = Shown.text(movie.members.joined(separator: ", "))
    }

    /// "8.2 → 8.4", or "steady at 8.4" when both round to the same figure.
    static func moved(_ before: Double?, _ after: Double?) -> String {
        let (from, to) = (Shown.rating(before), Shown.rating(after))
        return from == to ? "steady at \(to)" : "\(from) → \(to)"
    }

    static func moved(_ before: Int?, _ after: Int?) -> String {
        let (from, to) = (before.map(Shown.people) ?? "–", after.map(Shown.people) ?? "–")
        return from == to ? "steady at \(to)" : "\(from) → \(to)"
    }
}
