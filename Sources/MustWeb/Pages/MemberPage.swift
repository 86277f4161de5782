import Foundation
import MustCore

/// How a member's list is ordered: `?sort=` on the member page.
enum MemberSort: String, CaseIterable, Sendable {
    case title, year, rating, trend

    var label: String {
        switch self {
        case .title: "Title"
        case .year: "Year"
        case .rating: "Rating"
        case .trend: "Trend"
        }
    }

    /// Title keeps the store's order (folded title, year); the others put the unknown last, then that order.
    func sorted(_ movies: [MovieRating]) -> [MovieRating] {
        let indexed = Array(movies.enumerated())
        func key(_ movie: MovieRating) -> Double? {
            switch self {
            case .title: nil
            case .year: movie.year.map(Double.init)
            case .rating: movie.voteAverage.map { -$0 }
            case .trend: movie.trend?.voteAverage.map { -$0 }
            }
        }
        guard self != .title else { return movies }
        return indexed.sorted { lhs, rhs in
            switch (key(lhs.element), key(rhs.element)) {
            case (let left?, let right?) where left != right: left < right
            case (.some, .none): true
            case (.none, .some): false
            default: lhs.offset < rhs.offset
            }
        }.map(\.element)
    }
}

/// `/members/{name}`: the member's list with ratings, trends and a sparkline of the rating over the window.
struct MemberPage: Sendable {
    struct SortLink: Sendable {
        var label: String
        var href: String
        var current: Bool
    }

    struct Row: Sendable {
        var shown: String
        var href: String?
        var year: String
        var rating: String
        var trend: String?
        var direction: String
        var votes: String
        var popularity: String
        var spark: ChartLine?
        var sparkLabel: String
        var poster: PosterView
    }

    var title: String
    var name: String
    var count: String
    var window: String
    var sorts: [SortLink]
    var movies: [Row]

    init(member: MemberRatings, sort: MemberSort, window: String) {
        title = member.name
        name = member.name
        count = member.movies.count == 1 ? "1 movie" : "\(member.movies.count) movies"
        self.window = window
        let base = WebPath.member(member.name)
        sorts = MemberSort.allCases.map {
            SortLink(label: $0.label, href: $0 == .title ? base : base + "?sort=\($0.rawValue)", current: $0 == sort)
        }
        movies = sort.sorted(member.movies).map { Self.row($0, window: window) }
    }

    static func row(_ movie: MovieRating, window: String) -> Row {
        let delta = movie.trend?.voteAverage
        // The window's figures, or the current rating alone when nothing moved in it.
        let series = movie.trendVoteAverage.isEmpty ? [movie.voteAverage] : movie.trendVoteAverage
        let spark = Charts.sparkline(series)
        let label = spark.map { "Rating over \(window): " + $0.figures.joined(separator: ", ") } ?? ""
        return Row(
            shown: movie.shown, href: WebPath.movie(remoteId: movie.remoteId, localId: movie.localId),
            year: movie.year.map(String.init) ?? "–", rating: Shown.rating(movie.voteAverage),
            trend: Self.nonEmpty(Trend.suffix(delta).trimmingCharacters(in: CharacterSet(charactersIn: " ()"))),
            direction: Shown.direction(delta), votes: Shown.votes(movie.voteCount),
            popularity: Shown.rating(movie.popularity), spark: spark, sparkLabel: label,
            poster: PosterView(posterPath: movie.posterPath, title: movie.shown))
    }

    static func nonEmpty(_ text: String) -> String? { text.isEmpty ? nil : text }
}
