/// What the match decision needs from a search result; TMDB's results conform, so Matching needs no TMDB types.
public protocol MatchableMovie: Sendable, Equatable {
    var id: Int { get }
    var title: String? { get }
    var originalTitle: String? { get }
    var popularity: Double? { get }
    /// The release year, or nil when TMDB gives no date.
    var year: Int? { get }
}

/// Which search result a title names, if any. No result is taken for being first or close: TMDB's top result
/// is often another movie ("Disney" gave a TV special), and a wrong rating is worse than none.
public enum MovieMatch<Movie: MatchableMovie>: Sendable, Equatable {
    /// Exactly one result has the title (folded, title or original title) and the year when one was given.
    case exact(Movie)
    /// Several results have the title (remakes): the most popular was taken; `others` are the rest, most popular
    /// first, for the user to pick instead.
    case mostPopular(Movie, others: [Movie])
    /// No result has the title: up to `candidateLimit` results in TMDB's order, none taken. Empty: nothing found.
    case needsChoice([Movie])
    /// Several results have the title and the most popular of them are equally popular (TMDB floors obscure
    /// titles at 0.6, so ties are common): none is taken, and every one with the title is listed, tied first.
    case tied([Movie])

    public static var candidateLimit: Int { 3 }

    public static func decide(title: String, year: Int?, results: [Movie]) -> MovieMatch {
        let key = TitleKey.make(title)
        var seen = Set<Int>()
        let unique = results.filter { seen.insert($0.id).inserted }
        let exact = unique.filter { result in
            let titled = [result.title, result.originalTitle].contains { $0.map(TitleKey.make) == key }
            return titled && (year == nil || result.year == year)
        }
        guard let first = exact.first else { return .needsChoice(Array(unique.prefix(candidateLimit))) }
        guard exact.count > 1 else { return .exact(first) }
        // Stable: equal popularity keeps TMDB's order, which is only how the list was shown, never a reason.
        let ranked = exact.enumerated().sorted { left, right in
            let (a, b) = (left.element.popularity ?? 0, right.element.popularity ?? 0)
            return a != b ? a > b : left.offset < right.offset
        }.map(\.element)
        if (ranked[0].popularity ?? 0) == (ranked[1].popularity ?? 0) { return .tied(ranked) }
        return .mostPopular(ranked[0], others: Array(ranked.dropFirst()))
    }

    /// The movie taken, when one was.
    public var taken: Movie? {
        switch self {
        case .exact(let movie), .mostPopular(let movie, _): movie
        case .needsChoice, .tied: nil
        }
    }

    /// What to offer when nothing was taken: the tied movies, or the closest results.
    public var candidates: [Movie] {
        switch self {
        case .exact, .mostPopular: []
        case .needsChoice(let movies), .tied(let movies): movies
        }
    }
}
