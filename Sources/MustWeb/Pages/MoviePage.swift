import Foundation
import MustCore

/// `/movies/{tmdbId}` (or `/movies/local/{id}`): one movie's figures, keepers, schedule and history charts.
struct MoviePage: Sendable {
    struct Keeper: Sendable {
        var name: String
        var href: String
    }

    struct Chart: Sendable {
        var id: String
        var caption: String
        var line: ChartLine
        var first: String
        var last: String
    }

    struct HistoryRow: Sendable {
        var at: String
        var rating: String
        var votes: String
        var popularity: String
    }

    var title: String
    var shown: String
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
    var poster: PosterView

    init(_ movie: MovieReport) {
        title = movie.shown
        shown = movie.shown
        tmdb = movie.remoteId.map(WebPath.tmdb)
        imdb = WebPath.imdb(movie.imdbId)
        keepers = movie.members.map { Keeper(name: $0, href: WebPath.member($0)) }
        rating = Shown.rating(movie.figures.voteAverage)
        votes = Shown.votes(movie.figures.voteCount)
        popularity = Shown.rating(movie.figures.popularity)
        updated = Shown.time(movie.updatedAt)
        lastChecked = movie.lastCheckedAt.map(Shown.time) ?? "not yet"
        nextCheck = movie.remoteId == nil ? "when it is linked to TMDB" : Shown.time(movie.nextCheckAt ?? Date())
        poster = PosterView(posterPath: movie.posterPath, title: movie.shown, place: .page)
        charts = Self.charts(movie.history)
        // Newest first: the table is the charts' text alternative, and the latest figures matter most.
        history = movie.history.reversed().map {
            HistoryRow(
                at: Shown.time($0.at), rating: Shown.rating($0.figures.voteAverage),
                votes: Shown.votes($0.figures.voteCount), popularity: Shown.rating($0.figures.popularity))
        }
    }

    static func charts(_ history: [DatedFigures]) -> [Chart] {
        let first = history.first.map { Shown.time($0.at) } ?? ""
        let last = history.last.map { Shown.time($0.at) } ?? ""
        let series: [(String, String, (Figures) -> Double?, (Double) -> String)] = [
            ("rating", "Vote average", { $0.voteAverage }, FigureText.table),
            ("votes", "Vote count", { $0.voteCount.map(Double.init) }, Charts.whole),
            ("popularity", "Popularity", { $0.popularity }, FigureText.table),
        ]
        return series.compactMap { id, caption, value, format in
            Charts.timeline(history.map { ($0.at, value($0.figures)) }, format: format).map {
                Chart(id: id, caption: caption, line: $0, first: first, last: last)
            }
        }
    }
}
