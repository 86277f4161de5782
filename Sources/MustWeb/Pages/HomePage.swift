import Foundation
import MustCore

/// `/`: each member with how many movies they keep, what changed in the last 7 days, the last and next fetch.
struct HomePage: Sendable {
    struct Member: Sendable {
        var name: String
        var href: String
        var movies: String
    }

    static let shownChanges = 20
    var title = "The family"
    var members: [Member]
    var changes: [ChangeRow]
    /// "All 1,000 changes" when the week holds more than the page shows.
    var allChanges: String?
    var fetch: String
    var checks: String

    init(members: [MemberSummary], changes: ChangesReport, status: StatusReport, now: Date) {
        self.members = members.map {
            Member(
                name: $0.name, href: WebPath.member($0.name), movies: $0.movies == 1 ? "1 movie" : "\($0.movies) movies"
            )
        }
        // The newest few: a large family's week can hold thousands, which /changes lists in full.
        self.changes = changes.changes.prefix(Self.shownChanges).map(ChangeRow.init)
        let count = changes.changes.count
        allChanges = count > Self.shownChanges ? "All \(Charts.whole(Double(count))) changes" : nil
        self.fetch = Self.fetchLine(status, now: now)
        self.checks = status.checksLine(now: now)
    }

    /// One line on the last fetch and the next one.
    static func fetchLine(_ status: StatusReport, now: Date) -> String {
        let last =
            status.runs.first.map { run in
                "Last fetch \(Shown.time(run.startedAt)): \(run.result ?? "unfinished"), \(run.changed) changed."
            } ?? "No fetch has run yet."
        let next = status.nextFetchAt.map {
            " Next fetch \(Durations.describe(until: $0, from: now))."
        }
        return last + (next ?? " The next `mustc fetch` will run one.")
    }
}

/// A movie in a list of changes, as `mustc changes` shows it.
struct ChangeRow: Sendable {
    var shown: String
    var href: String?
    var changes: Int
    var rating: String
    var votes: String
    var popularity: String
    var lastChange: String
    var members: String
    var poster: PosterView

    init(_ movie: MovieChanges) {
        let (first, last) = (movie.first.figures, movie.last.figures)
        shown = movie.shown
        href = WebPath.movie(remoteId: movie.remoteId, localId: nil)
        changes = movie.changes
        rating = Trend.moved(first.voteAverage, last.voteAverage)
        votes = Trend.moved(first.voteCount, last.voteCount)
        popularity = Trend.moved(first.popularity, last.popularity)
        lastChange = Shown.time(movie.last.at)
        members = movie.members.joined(separator: ", ")
        poster = PosterView(posterPath: movie.posterPath, title: movie.shown)
    }
}
