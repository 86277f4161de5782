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
    /// Tonight's facts in the family's region (issue 28); unknown until its extras are read.
    public var runtime: Int?
    public var genres: [String] = []
    public var certification: String?
    /// nil: never read for the region.
    public var providers: [ProviderOffer]?

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
        let limit = filters.limitRank(library)
        let chosen = library.candidates.filter {
            (includeWatched || $0.watchedBy.isEmpty) && filters.admits($0, limitRank: limit, library.certifications)
        }
        let keyed = chosen.map { candidate -> (NightCandidate, Double?, String) in
            let weighted = library.prior.flatMap { prior in
                candidate.isRated
                    ? Self.weighted(average: candidate.voteAverage ?? 0, votes: candidate.voteCount ?? 0, prior: prior)
                    : nil
            }
            return (candidate, weighted, TitleKey.make(candidate.title))
        }
        let sorted = keyed.sorted { a, b in
            if (a.1 != nil) != (b.1 != nil) { return a.1 != nil }
            if a.0.keptBy.count != b.0.keptBy.count { return a.0.keptBy.count > b.0.keptBy.count }
            if let x = a.1, let y = b.1, x != y { return x > y }
            if (a.0.trend ?? 0) != (b.0.trend ?? 0) { return (a.0.trend ?? 0) > (b.0.trend ?? 0) }
            if a.2 != b.2 { return a.2 < b.2 }
            if a.0.year != b.0.year { return (a.0.year ?? 0) < (b.0.year ?? 0) }
            return a.0.movieId < b.0.movieId
        }
        return sorted.prefix(max(count, 0)).map { candidate, weighted, _ in
            NightPick(
                candidate: candidate, weighted: weighted,
                why: why(candidate) + filters.used(candidate, limited: limit != nil))
        }
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

    /// "Ann", "Ann and Bob", "Ann, Bob and Cleo".
    public static func names(_ names: [String]) -> String {
        guard names.count > 1 else { return names.first ?? "" }
        return names.dropLast().joined(separator: ", ") + " and " + names[names.count - 1]
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
