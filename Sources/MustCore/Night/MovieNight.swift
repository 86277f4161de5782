import Foundation

/// A movie on the list of at least one of the members watching tonight, as `Store.movieNight` reads it.
public struct NightCandidate: Sendable, Equatable {
    public var movieId: Int64
    public var title: String
    public var year: Int?
    public var remoteId: Int?
    public var voteAverage: Double?
    public var voteCount: Int?
    /// The change of its vote average over the trend window (7 days); nil for a movie without figures.
    public var trend: Double?
    /// The named members who keep it, in the order they were named.
    public var keptBy: [String]
    /// Those of them who have watched it.
    public var watchedBy: [String]
    /// Tonight's facts in the family's region; unknown until its extras are read.
    public var runtime: Int?
    public var genres: [String] = []
    public var certification: String?
    /// nil: never read for the region.
    public var providers: [ProviderOffer]?
    /// TMDB's overview and poster path: the cards show them; nil when unknown.
    public var overview: String?
    public var posterPath: String?

    public init(
        movieId: Int64, title: String, year: Int? = nil, remoteId: Int? = nil, voteAverage: Double? = nil,
        voteCount: Int? = nil, trend: Double? = nil, keptBy: [String], watchedBy: [String] = []
    ) {
        (self.movieId, self.title, self.year, self.remoteId) = (movieId, title, year, remoteId)
        (self.voteAverage, self.voteCount, self.trend) = (voteAverage, voteCount, trend)
        (self.keptBy, self.watchedBy) = (keptBy, watchedBy)
    }

    /// TMDB has rated it: figures fetched, and at least one vote.
    public var isRated: Bool { voteAverage != nil && (voteCount ?? 0) > 0 }
}

/// The weighted rating's prior: C, the mean vote average of the library's rated movies, and m, their median vote
/// count. The median rather than the mean: vote counts are heavy-tailed (a few blockbusters hold most votes), and
/// the mean would pull every ordinary movie towards C; with the median, a movie with as many votes as the
/// library's typical one keeps half of its own average, and a handful of votes keeps almost nothing.
public struct NightPrior: Sendable, Equatable {
    public var mean: Double
    public var votes: Double
    /// How many rated movies the two figures come from.
    public var movies: Int

    public init(mean: Double, votes: Double, movies: Int) {
        (self.mean, self.votes, self.movies) = (mean, votes, movies)
    }

    /// The most votes of prior the ranking's base gives a movie. The library's median (83k to 446k votes on real
    /// IMDb histories) pulled every movie most of the way to C, so the order was less like a person's own than
    /// the public rating's; 50 keeps a film with a handful of votes near C and any film with a few hundred at its
    /// own average. On taste-bench's synthetic set (docs/performance.md) the base with 50 ranks as the raw average
    /// does and far above the median's; real exports are still to measure.
    public static let rankingVotes = 50.0

    /// This prior with at most `rankingVotes` votes: the ranking's.
    public var ranking: NightPrior {
        NightPrior(mean: mean, votes: min(votes, Self.rankingVotes), movies: movies)
    }
}

/// What `Store.movieNight` reads: the members as stored, their candidates, and the library's prior.
public struct NightLibrary: Sendable, Equatable {
    public var members: [String]
    public var candidates: [NightCandidate]
    /// nil when the library has no rated movie yet.
    public var prior: NightPrior?
    /// Names that are no member: `pick` refuses them.
    public var unknown: [String]
    /// The members' own age limits, by name (members without one are absent).
    public var ageLimits: [String: String] = [:]
    /// The region's certifications in TMDB's order; empty when never asked.
    public var certifications: [RegionCertification] = []
    /// The members' tastes, one for each member; empty for `pick --no-taste`.
    public var tastes: [MemberTaste] = []

    public init(members: [String], candidates: [NightCandidate], prior: NightPrior?, unknown: [String] = []) {
        (self.members, self.candidates, self.prior, self.unknown) = (members, candidates, prior, unknown)
    }
}

/// One movie picked for tonight, and why.
public struct NightPick: Sendable, Equatable {
    public var candidate: NightCandidate
    /// The Bayesian average `(v·R + m·C) / (v + m)`; nil for a movie TMDB has not rated.
    public var weighted: Double?
    public var why: String
    /// The ranking's base (the weighted rating with `NightPrior.ranking`) moved by the watchers' leans and
    /// tastes: what the ranking uses; nil when `weighted` is.
    public var predicted: Double?
    /// "Claire rates animation higher than usual (9 films, +0.6)", for each genre that lifts it.
    public var taste: [String] = []
    /// Where it streams for the family; nil when the report was not asked for it.
    public var whereToWatch: NightWhere?
}

/// Ranks tonight's movies. Pure: the same library gives the same picks, in the same order.
public enum MovieNight {
    /// `(v·R + m·C) / (v + m)`: R the movie's vote average, v its vote count, C and m the prior.
    public static func weighted(average: Double, votes: Int, prior: NightPrior) -> Double {
        let v = Double(max(votes, 0))
        guard v + prior.votes > 0 else { return average }
        return (v * average + prior.votes * prior.mean) / (v + prior.votes)
    }

    /// The best `count` movies: those rated by TMDB first (one not rated yet, such as a film not out, is no
    /// choice for tonight), then by how many of the members keep it, the weighted rating, the week's trend of its
    /// vote average, and its title. Watched movies are left out unless `includeWatched`.
    public static func rank(
        _ library: NightLibrary, count: Int, includeWatched: Bool = false, filters: NightFilters = NightFilters()
    ) -> [NightPick] {
        ranked(library, count: count, includeWatched: includeWatched, filters: filters).picks
    }

    /// `rank`, and what tonight's choices left out of the movies it could have picked.
    public static func ranked(
        _ library: NightLibrary, count: Int, includeWatched: Bool = false, filters: NightFilters = NightFilters()
    ) -> (picks: [NightPick], leftOut: NightLeftOut) {
        let limit = filters.limitRank(library)
        // Names are folded once each: folding is costly, and the candidates share a few genres and providers.
        var folded = TitleKeyMemo()
        var leftOut = NightLeftOut(filters: filters, library: library)
        let chosen = library.candidates.filter { candidate in
            guard includeWatched || candidate.watchedBy.isEmpty else { return false }
            guard filters.admits(candidate, limitRank: limit, library.certifications, folded: &folded) else {
                leftOut.add(
                    filters.leftOut(candidate, limitRank: limit, library.certifications, folded: &folded, every: true))
                return false
            }
            return true
        }
        let keyed = chosen.map { candidate -> Keyed in
            let weighted = library.prior.flatMap { prior in
                candidate.isRated
                    ? Self.weighted(average: candidate.voteAverage ?? 0, votes: candidate.voteCount ?? 0, prior: prior)
                    : nil
            }
            let effect =
                library.tastes.isEmpty
                ? TasteEffect(shift: 0, notes: [])
                : TasteEffect.of(
                    keys: Set(candidate.genres.map { folded.key($0) }), tastes: library.tastes, notes: false)
            let predicted = library.prior.flatMap { prior in
                weighted.map { _ in
                    Self.weighted(
                        average: candidate.voteAverage ?? 0, votes: candidate.voteCount ?? 0, prior: prior.ranking)
                        + effect.lean + effect.shift
                }
            }
            return Keyed(candidate: candidate, weighted: weighted, predicted: predicted)
        }
        // A title is folded only when the order comes down to it.
        let sorted = keyed.sorted { Self.before($0, $1, titles: &folded) }
        return (picks(sorted.prefix(max(count, 0)), library, filters, limited: limit != nil, &folded), leftOut)
    }

    /// The picks shown, each with its reasons.
    private static func picks(
        _ items: ArraySlice<Keyed>, _ library: NightLibrary, _ filters: NightFilters, limited: Bool,
        _ folded: inout TitleKeyMemo
    ) -> [NightPick] {
        items.map { item in
            // The taste's notes for the picks shown only.
            var taste: [String] = []
            if item.weighted != nil, !library.tastes.isEmpty {
                let keys = Set(item.candidate.genres.map { folded.key($0) })
                taste = TasteEffect.of(keys: keys, tastes: library.tastes).notes
            }
            var why = why(item.candidate) + filters.used(item.candidate, limited: limited)
            if !taste.isEmpty { why += "; " + taste.joined(separator: "; ") }
            return NightPick(
                candidate: item.candidate, weighted: item.weighted, why: why, predicted: item.predicted, taste: taste)
        }
    }

    private struct Keyed {
        var candidate: NightCandidate
        var weighted: Double?
        var predicted: Double?
    }

    /// Rated first, then kept by more of the watchers, the predicted rating (the ranking's base without taste),
    /// the week's trend, the title, the year and the local id: a total order, so the picks never depend on the
    /// order rows were read in.
    private static func before(_ a: Keyed, _ b: Keyed, titles: inout TitleKeyMemo) -> Bool {
        if (a.predicted != nil) != (b.predicted != nil) { return a.predicted != nil }
        if a.candidate.keptBy.count != b.candidate.keptBy.count {
            return a.candidate.keptBy.count > b.candidate.keptBy.count
        }
        if let x = a.predicted, let y = b.predicted, x != y { return x > y }
        let (s, t) = (a.candidate.trend ?? 0, b.candidate.trend ?? 0)
        if s != t { return s > t }
        let (keyA, keyB) = (titles.key(a.candidate.title), titles.key(b.candidate.title))
        if keyA != keyB { return keyA < keyB }
        if a.candidate.year != b.candidate.year { return (a.candidate.year ?? 0) < (b.candidate.year ?? 0) }
        return a.candidate.movieId < b.candidate.movieId
    }

    /// "Dune: Part Two (2024): Ann and Bob keep it; 8.1 from 6,500 votes, +0.1 this week".
    static func why(_ movie: NightCandidate) -> String {
        var text = MovieName.shown(movie.title, movie.year) + ": " + names(movie.keptBy)
        text += movie.keptBy.count == 1 ? " keeps it; " : " keep it; "
        if movie.isRated, let average = movie.voteAverage, let votes = movie.voteCount {
            // Figures as TMDB sent them, as the tables show them: 8.437 is not rounded to 8.4.
            text += "\(FigureText.table(average)) from \(grouped(votes)) vote\(votes == 1 ? "" : "s")"
            if let trend = movie.trend, trend != 0 {
                text += ", \(trend < 0 ? "-" : "+")\(FigureText.table(abs(trend))) this week"
            }
        } else {
            text += movie.voteAverage == nil ? "no TMDB figures yet" : "no votes on TMDB yet"
        }
        if !movie.watchedBy.isEmpty {
            text += "; \(names(movie.watchedBy)) \(movie.watchedBy.count == 1 ? "has" : "have") seen it"
        }
        return text
    }

    /// "Ann", "Ann and Bob", "Ann, Bob and Cleo" (or, with `joiner` " or ", "Ann, Bob or Cleo").
    public static func names(_ names: [String], joiner: String = " and ") -> String {
        guard names.count > 1 else { return names.first ?? "" }
        return names.dropLast().joined(separator: ", ") + joiner + names[names.count - 1]
    }

    /// 6500 as "6,500".
    static func grouped(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var out = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { out.append(",") }
            out.append(digit)
        }
        return (value < 0 ? "-" : "") + out
    }
}
