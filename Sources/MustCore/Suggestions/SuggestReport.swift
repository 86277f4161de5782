import Foundation

/// `mustc suggest`'s answer, as a text list or JSON in `pick`'s shape with `suggestions` where `pick` has `picks`:
/// `{"members":[...],"suggestions":[{"remoteId","title","year","runtime","certification","genres","providers",
/// "overview","voteAverage","voteCount","weighted","because":[{"member","title","year","ownRating"}],"why","taste"}]}`.
public struct SuggestReport: Sendable, Equatable, Encodable {
    public var members: [String]
    public var suggestions: [Suggestion]
    /// No seed at all among the watchers: said, with what to do, instead of "nothing new".
    public var seedless: Bool
    /// Whether tonight's choices narrowed the suggestions.
    public var filtered: Bool

    public init(_ library: SuggestionLibrary, count: Int, filters: NightFilters = NightFilters()) {
        members = library.members
        suggestions = Suggestions.rank(library, count: count, filters: filters)
        seedless = library.seeds.isEmpty
        filtered = filters != NightFilters() || !library.ageLimits.isEmpty
    }

    public func render(_ format: PickReport.Format) -> String {
        switch format {
        case .json: ReportRenderer.json(self)
        case .table: text
        }
    }

    private var text: String {
        let who = MovieNight.names(members)
        guard !suggestions.isEmpty else {
            if seedless {
                return "Nothing to suggest yet for \(who): suggestions start from movies they loved (an own rating "
                    + "of 8 or more: `mustc watched MEMBER MOVIE --rating 9`, or watched movies they keep), and "
                    + "the next fetches ask TMDB for their recommendations."
            }
            return "Nothing new for \(who) yet" + (filtered ? " that tonight's choices allow" : "")
                + ": the fetch asks TMDB for recommendations of the movies they loved, a few each day."
        }
        var lines = ["Something new for \(who), best first:"]
        for (index, suggestion) in suggestions.enumerated() {
            lines.append("  \(index + 1). \(TerminalText.cell(suggestion.why))")
            let facts = Self.facts(suggestion.candidate)
            if !facts.isEmpty { lines.append("     \(TerminalText.cell(facts))") }
        }
        return lines.joined(separator: "\n")
    }

    /// "1 h 46 min · PG · Comedy, Drama · tmdb:129": what is known, short.
    static func facts(_ movie: SuggestionCandidate) -> String {
        var parts: [String] = []
        if let runtime = movie.runtime { parts.append(NightFilters.minutes(runtime)) }
        if let certification = movie.certification { parts.append(certification) }
        if !movie.genres.isEmpty { parts.append(movie.genres.joined(separator: ", ")) }
        parts.append("tmdb:\(movie.remoteId)")
        return parts.joined(separator: " · ")
    }

    /// Whether there were seeds and whether filters applied are the text's, not the JSON's.
    private enum CodingKeys: String, CodingKey { case members, suggestions }
}

extension Suggestion: JSONShaped {
    /// The candidate's fields flattened into the suggestion, as in `pick`: whatever is unknown is null.
    private struct Shape: Encodable {
        var remoteId: Int
        var title: String
        @NullWhenAbsent var year: Int?
        @NullWhenAbsent var runtime: Int?
        @NullWhenAbsent var certification: String?
        var genres: [String]
        @NullWhenAbsent var providers: [String: [String]]?
        @NullWhenAbsent var overview: String?
        @NullWhenAbsent var voteAverage: Double?
        @NullWhenAbsent var voteCount: Int?
        @NullWhenAbsent var weighted: Double?
        var because: [Seed]
        var why: String
        var taste: [String]
    }

    /// Each watcher's seed, as `because` lists it; the year and the own rating `null` when unknown.
    private struct Seed: Encodable {
        var member: String
        var title: String
        @NullWhenAbsent var year: Int?
        @NullWhenAbsent var ownRating: Int?
    }

    public var jsonShape: any Encodable {
        let movie = candidate
        return Shape(
            remoteId: movie.remoteId, title: movie.title, year: movie.year, runtime: movie.runtime,
            certification: movie.certification, genres: movie.genres, providers: ReportJSON.providers(movie.providers),
            overview: movie.overview, voteAverage: movie.voteAverage, voteCount: movie.voteCount,
            weighted: ReportJSON.fourDecimals(weighted),
            because: because.map { Seed(member: $0.member, title: $0.title, year: $0.year, ownRating: $0.ownRating) },
            why: why, taste: taste)
    }
}
