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

    private enum CodingKeys: String, CodingKey { case members, suggestions }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(members, forKey: .members)
        try container.encode(suggestions, forKey: .suggestions)
    }
}

extension Suggestion: Encodable {
    private enum CodingKeys: String, CodingKey {
        case remoteId, title, year, runtime, certification, genres, providers, overview, voteAverage, voteCount
        case weighted, because, why, taste
    }

    /// Each watcher's seed, as `because` lists it; the year and the own rating `null` when unknown.
    private struct Seed: Encodable {
        var member: String
        var title: String
        @NullWhenAbsent var year: Int?
        @NullWhenAbsent var ownRating: Int?
    }

    // Written out so that missing values are `null` rather than absent keys, as in `pick`.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(candidate.remoteId, forKey: .remoteId)
        try container.encode(candidate.title, forKey: .title)
        try container.encode(candidate.year, forKey: .year)
        try container.encode(candidate.runtime, forKey: .runtime)
        try container.encode(candidate.certification, forKey: .certification)
        try container.encode(candidate.genres, forKey: .genres)
        let providers = candidate.providers.map { offers in
            Dictionary(grouping: offers, by: \.kind.rawValue).mapValues { $0.map(\.name) }
        }
        try container.encode(providers, forKey: .providers)
        try container.encode(candidate.overview, forKey: .overview)
        try container.encode(candidate.voteAverage, forKey: .voteAverage)
        try container.encode(candidate.voteCount, forKey: .voteCount)
        try container.encode(weighted.map { ($0 * 1e4).rounded() / 1e4 }, forKey: .weighted)
        try container.encode(
            because.map { Seed(member: $0.member, title: $0.title, year: $0.year, ownRating: $0.ownRating) },
            forKey: .because)
        try container.encode(why, forKey: .why)
        try container.encode(taste, forKey: .taste)
    }
}
