import Foundation
import MustCore

/// `/movies/{tmdbId}` (or `/movies/local/{id}`): poster, title and year, the rating to one decimal with its votes,
/// who keeps it with their marks, and the history charts with their figures in a closed `<details>`. TMDB's
/// popularity shows here only, named as TMDB's.
struct MoviePage: Sendable {
    /// The narrowest y range a rating chart or sparkline draws: a move of 0.001 stays flat.
    static let ratingFloor = 0.5

    struct Keeper: Sendable {
        var name: String
        var href: String
        var mark: String?
    }

    struct Chart: Sendable {
        var id: String
        var caption: String
        var line: ChartLine
        var ticks: [String]
        var summary: String
    }

    struct HistoryRow: Sendable {
        var at: String
        var rating: String
        var votes: String
        var popularity: String
    }

    var title: String
    var name: String
    var year: String?
    var poster: PosterView
    var tmdb: String?
    var imdb: String?
    var keepers: [Keeper]
    var rating: String
    var votes: String
    var popularity: String
    var updated: String
    var lastChecked: String
    var nextCheck: String
    var charts: [Chart]
    var history: [HistoryRow]
    /// Runtime, certification, genres and where to watch it in the family's region.
    var tonight: TonightSection?
    /// TMDB's overview, under the title.
    var overview: String?

    init(_ movie: MovieReport, time: TimeText) {
        title = Shown.text(movie.shown)
        name = Shown.text(movie.title)
        year = movie.year.map(String.init)
        poster = PosterView(posterPath: movie.posterPath, title: title, place: .page)
        tmdb = movie.remoteId.map(WebPath.tmdb)
        imdb = WebPath.imdb(movie.imdbId)
        keepers = movie.members.enumerated().map { index, member in
            let mark = index < movie.marks.count ? movie.marks[index] : WatchMark()
            let words = [
                mark.watched ? (mark.on.map { "watched \(Shown.day($0))" } ?? "watched") : "not watched yet",
                mark.rating.map { "rated \($0)/10" },
            ].compactMap { $0 }.joined(separator: ", ")
            return Keeper(name: Shown.text(member), href: WebPath.member(member), mark: words)
        }
        let figures = movie.figures
        rating = figures.voteAverage.map(Charts.oneDecimal) ?? "Not rated yet"
        votes = figures.voteAverage == nil ? "" : Shown.votes(figures.voteCount)
        popularity = figures.popularity.map(FigureText.table) ?? "–"
        updated = movie.updatedAt.map { "\(time.time($0)) (\(time.ago($0)))" } ?? "not yet"
        lastChecked = movie.lastCheckedAt.map { "\(time.time($0)) (\(time.ago($0)))" } ?? "not yet"
        nextCheck =
            movie.remoteId == nil
            ? "when it is linked to TMDB"
            : time.until(movie.nextCheckAt ?? time.now).replacingOccurrences(
                of: "now", with: "at the next fetch")
        charts = Self.charts(movie.history, time: time)
        // Newest first: the table is the charts' text alternative, and the latest figures matter most.
        history = movie.history.reversed().map {
            HistoryRow(
                at: time.time($0.at), rating: Shown.rating($0.figures.voteAverage),
                votes: Shown.count($0.figures.voteCount), popularity: $0.figures.popularity.map(FigureText.table) ?? "–"
            )
        }
    }

    static func charts(_ history: [DatedFigures], time: TimeText) -> [Chart] {
        let series: [(String, String, Double, (Figures) -> Double?, (Double) -> String)] = [
            ("rating", "Rating", ratingFloor, { $0.voteAverage }, Charts.oneDecimal),
            ("votes", "Votes", 10, { $0.voteCount.map(Double.init) }, Charts.whole),
            ("popularity", "TMDB popularity", 1, { $0.popularity }, FigureText.table),
        ]
        let ticks = Self.ticks(history.map(\.at), time: time)
        return series.compactMap { id, caption, floor, value, format in
            Charts.timeline(history.map { ($0.at, value($0.figures)) }, floor: floor, format: format).map { line in
                let (first, last) = (line.figures.first ?? "", line.figures.last ?? "")
                let summary =
                    "\(caption) from \(ticks.first ?? "") to \(ticks.last ?? ""): "
                    + (first == last ? "steady at \(last)" : "from \(first) to \(last)")
                return Chart(id: id, caption: caption, line: line, ticks: ticks, summary: summary)
            }
        }
    }

    /// The x axis's labels: the first day, the middle one and the last, or one day for a history of one day.
    static func ticks(_ dates: [Date], time: TimeText) -> [String] {
        guard let first = dates.first, let last = dates.last else { return [] }
        let middle = first.addingTimeInterval(last.timeIntervalSince(first) / 2)
        var ticks: [String] = []
        for day in [first, middle, last].map(time.day) where ticks.last != day { ticks.append(day) }
        return ticks
    }
}
