import Foundation

/// A movie TMDB recommends, as `Store.suggestionLibrary` reads it: the list fields, and tonight's facts once its
/// details were read for the family's region (`detailsKnown`).
public struct SuggestionCandidate: Sendable, Equatable {
    public var remoteId: Int
    public var title: String
    public var year: Int?
    public var voteAverage: Double?
    public var voteCount: Int?
    public var genres: [String]
    public var overview: String?
    public var posterPath: String?
    public var runtime: Int?
    public var certification: String?
    /// nil: never read for the region.
    public var providers: [ProviderOffer]?
    /// Its details (runtime, certification, offers) were read for the family's region.
    public var detailsKnown: Bool
    /// The seeds (by movie id) that recommend it.
    public var seeds: [Int64]

    public init(
        remoteId: Int, title: String, year: Int? = nil, voteAverage: Double? = nil, voteCount: Int? = nil,
        genres: [String] = [], detailsKnown: Bool = false, seeds: [Int64] = []
    ) {
        (self.remoteId, self.title, self.year, self.voteAverage, self.voteCount) =
            (remoteId, title, year, voteAverage, voteCount)
        (self.genres, self.detailsKnown, self.seeds) = (genres, detailsKnown, seeds)
    }

    /// TMDB has figures for it, with at least one vote: only such a movie is scored.
    public var isScorable: Bool { voteAverage != nil && (voteCount ?? 0) > 0 }

    /// The same movie as tonight's filters see a kept one.
    var asNightCandidate: NightCandidate {
        var movie = NightCandidate(
            movieId: 0, title: title, year: year, remoteId: remoteId, voteAverage: voteAverage, voteCount: voteCount,
            keptBy: [])
        (movie.runtime, movie.genres, movie.certification, movie.providers) = (
            runtime, genres, certification, providers
        )
        return movie
    }
}

/// What `suggest` ranks: the watchers, their seeds, the candidates their seeds recommend (none that anyone in the
/// family keeps or has watched, none the family hid), the library's prior, and tonight's age limits.
public struct SuggestionLibrary: Sendable, Equatable {
    public var members: [String]
    public var seeds: [SuggestionSeed]
    public var candidates: [SuggestionCandidate]
    public var prior: NightPrior?
    public var unknown: [String]
    public var ageLimits: [String: String] = [:]
    public var certifications: [RegionCertification] = []
    /// The watchers' tastes, as `pick` reads them; empty for `suggest --no-taste`.
    public var tastes: [MemberTaste] = []

    public init(
        members: [String], seeds: [SuggestionSeed], candidates: [SuggestionCandidate], prior: NightPrior?,
        unknown: [String] = []
    ) {
        (self.members, self.seeds, self.candidates, self.prior, self.unknown) =
            (members, seeds, candidates, prior, unknown)
    }

    /// The same limits as `pick` reads them.
    var asNightLibrary: NightLibrary {
        var library = NightLibrary(members: members, candidates: [], prior: prior)
        (library.ageLimits, library.certifications) = (ageLimits, certifications)
        return library
    }
}

/// One suggestion, and why: for each watcher whose seeds recommend it, the seed they loved most.
public struct Suggestion: Sendable, Equatable {
    public var candidate: SuggestionCandidate
    public var score: Double
    public var weighted: Double?
    public var because: [SuggestionSeed]
    public var why: String
    /// "Claire rates animation higher than usual (12 films, +0.6)", for each genre that lifts it.
    public var taste: [String] = []
}

/// Ranks suggestions for the watchers. Pure: the same library gives the same suggestions in the same order.
public enum Suggestions {
    /// The best `count`: by how many watchers' seeds recommend it, each weighted by how much the watcher loved
    /// their seed (love / 10, the strongest seed per watcher), moved by the watchers' taste for its genres (the
    /// mean shift of `TasteEffect`, in rating points, on the same scale: / 10, so rating Horror 2 points below
    /// TMDB counts as loving the seed 2 points less), then the weighted rating, the title and the id.
    /// Tonight's filters apply as in `pick`; a candidate whose details are not known yet is left out under any
    /// filter that needs them (runtime, age limit, services), never shown as fitting a limit it might break.
    public static func rank(_ library: SuggestionLibrary, count: Int, filters: NightFilters = NightFilters())
        -> [Suggestion]
    {
        let night = library.asNightLibrary
        let limit = filters.limitRank(night)
        let needsDetails = filters.maxMinutes != nil || limit != nil || filters.streaming != nil
        let seeds = Dictionary(grouping: library.seeds, by: \.movieId)
        let ranked: [Suggestion] = library.candidates.compactMap { candidate in
            guard candidate.isScorable, !(needsDetails && !candidate.detailsKnown),
                filters.admits(candidate.asNightCandidate, limitRank: limit, night.certifications)
            else { return nil }
            let because = strongest(candidate.seeds.flatMap { seeds[$0] ?? [] }, members: library.members)
            guard !because.isEmpty else { return nil }
            let weighted = library.prior.map {
                MovieNight.weighted(average: candidate.voteAverage ?? 0, votes: candidate.voteCount ?? 0, prior: $0)
            }
            let taste = TasteEffect.of(candidate.genres, tastes: library.tastes)
            let score = because.reduce(0) { $0 + $1.love / 10 } + taste.shift / 10
            var why = why(candidate, because) + filters.used(candidate.asNightCandidate, limited: limit != nil)
            if !taste.notes.isEmpty { why += "; " + taste.notes.joined(separator: "; ") }
            return Suggestion(
                candidate: candidate, score: score, weighted: weighted, because: because, why: why,
                taste: taste.notes)
        }
        return ranked.sorted(by: better).prefix(max(count, 0)).map { $0 }
    }

    private static func better(_ a: Suggestion, _ b: Suggestion) -> Bool {
        if a.score != b.score { return a.score > b.score }
        if (a.weighted ?? 0) != (b.weighted ?? 0) { return (a.weighted ?? 0) > (b.weighted ?? 0) }
        let (x, y) = (TitleKey.make(a.candidate.title), TitleKey.make(b.candidate.title))
        return x != y ? x < y : a.candidate.remoteId < b.candidate.remoteId
    }

    /// Each watcher's most loved seed among those recommending it, in the order the watchers were named.
    static func strongest(_ seeds: [SuggestionSeed], members: [String]) -> [SuggestionSeed] {
        members.compactMap { member in
            seeds.filter { $0.member == member }.max { a, b in
                a.love != b.love ? a.love < b.love : a.movieId > b.movieId
            }
        }
    }

    /// "because Claire loved Spirited Away (9) and Sofia loved My Neighbor Totoro (10)": the page's reason too.
    public static func because(_ seeds: [SuggestionSeed]) -> String {
        let reasons = seeds.map { seed in
            seed.ownRating.map { "\(seed.member) loved \(seed.title) (\($0))" }
                ?? "\(seed.member) watched \(seed.title)"
        }
        return "because " + MovieNight.names(reasons)
    }

    /// "Kind (2019): because Claire loved Spirited Away (9) and Sofia loved My Neighbor Totoro (10); 8.1 from 9,120
    /// votes".
    static func why(_ movie: SuggestionCandidate, _ because: [SuggestionSeed]) -> String {
        var text = MovieName.shown(movie.title, movie.year) + ": " + Self.because(because)
        if let average = movie.voteAverage, let votes = movie.voteCount {
            text += "; \(FigureText.table(average)) from \(MovieNight.grouped(votes)) vote\(votes == 1 ? "" : "s")"
        }
        return text
    }
}
