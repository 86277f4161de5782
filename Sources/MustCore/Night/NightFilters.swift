import Foundation

/// Tonight's choices beyond who watches: a runtime limit, an age limit, the family's services, genres.
/// Pure: the command and the page build one from their inputs and `MovieNight.rank` applies it.
public struct NightFilters: Sendable, Equatable {
    public var maxMinutes: Int?
    /// The age limit asked for tonight; the strictest of it and the members' own applies.
    public var ageLimit: String?
    /// Keep movies with no certification in the region (or one outside its list) under an age limit.
    public var includeUnrated = false
    /// Only movies on one of these services at no extra cost (flatrate, free or ads); nil: no such filter.
    public var streaming: ServiceMatcher?
    /// Any of these genres (matched ignoring case and accents); empty: any movie.
    public var genres: [String] = []

    public init(
        maxMinutes: Int? = nil, ageLimit: String? = nil, includeUnrated: Bool = false,
        streaming: ServiceMatcher? = nil, genres: [String] = []
    ) {
        (self.maxMinutes, self.ageLimit, self.includeUnrated) = (maxMinutes, ageLimit, includeUnrated)
        (self.streaming, self.genres) = (streaming, genres)
    }

    /// The limit that applies: the strictest of tonight's and the members' own, as a rank in the region's order;
    /// nil when none applies. A limit the region's list lacks counts as the strictest there is (nothing rated
    /// passes it), so an unknown limit never lets more through.
    public func limitRank(_ library: NightLibrary) -> Int? {
        let limits = ([ageLimit].compactMap { $0 } + library.ageLimits.values).map(TMDBText.line)
        guard !limits.isEmpty else { return nil }
        return limits.map { Self.rank(of: $0, in: library.certifications) ?? 0 }.min()
    }

    /// The strictest limit's name, for the reasons and the page.
    public func appliedLimit(_ library: NightLibrary) -> String? {
        let limits = ([ageLimit].compactMap { $0 } + library.ageLimits.values).map(TMDBText.line)
        return limits.min {
            (Self.rank(of: $0, in: library.certifications) ?? 0) < (Self.rank(of: $1, in: library.certifications) ?? 0)
        }
    }

    /// The limit that applies and whose it is: the watchers whose own limit is as strict, or tonight's choice alone.
    public func limitSource(_ library: NightLibrary) -> NightLimit? {
        guard let limit = appliedLimit(library) else { return nil }
        let rank = { Self.rank(of: TMDBText.line($0), in: library.certifications) ?? 0 }
        let strictest = rank(limit)
        let owners = library.ageLimits.filter { rank($0.value) == strictest }.keys.sorted()
        return NightLimit(limit: limit, owners: owners, chosen: ageLimit.map(TMDBText.line))
    }

    /// A certification's rank in the region's order; nil when the list lacks it, or for a rank of 0 or less
    /// (TMDB gives "NR", not rated, order 0 in the US): such a movie is unrated.
    ///
    /// TMDB's order can repeat: its 2024 list for Spain gives "12" and "16" both order 5. A tie is settled by the
    /// age the certification names (its first number: "12", "16", "MA 15+", "R18", "15세 이상 관람가"), not by the
    /// list's sequence, which TMDB does not sort: so a member limited to 12 is never offered a film rated 16.
    /// Tied certifications that name no age stay equally strict, as TMDB lists them.
    static func rank(of certification: String, in order: [RegionCertification]) -> Int? {
        let key = certification.uppercased()
        guard let found = order.first(where: { $0.certification.uppercased() == key }), found.order > 0 else {
            return nil
        }
        return found.order * 1000 + (namedAge(found.certification) ?? 0)
    }

    /// The first number in a certification, when it can be an age (0 to 99).
    static func namedAge(_ certification: String) -> Int? {
        let digits = certification.unicodeScalars.drop { !("0"..."9").contains($0) }.prefix { ("0"..."9").contains($0) }
        guard !digits.isEmpty, digits.count <= 2 else { return nil }
        return Int(String(String.UnicodeScalarView(digits)))
    }

    func admits(_ movie: NightCandidate, limitRank: Int?, _ order: [RegionCertification]) -> Bool {
        var folded = TitleKeyMemo()
        return admits(movie, limitRank: limitRank, order, folded: &folded)
    }

    /// `admits`, folding the genre and provider names through `folded`, which the caller keeps across candidates.
    func admits(
        _ movie: NightCandidate, limitRank: Int?, _ order: [RegionCertification], folded: inout TitleKeyMemo
    ) -> Bool {
        leftOut(movie, limitRank: limitRank, order, folded: &folded, every: false).isEmpty
    }

    /// The choices that leave the movie out: the first one found, or with `every` all of them (for the counts of
    /// what was left out, asked of the movies left out only). Empty: the movie passes every choice.
    func leftOut(
        _ movie: NightCandidate, limitRank: Int?, _ order: [RegionCertification], folded: inout TitleKeyMemo,
        every: Bool
    ) -> [NightLeftOut.Reason] {
        var reasons: [NightLeftOut.Reason] = []
        if let maxMinutes {
            if let runtime = movie.runtime {
                if runtime > maxMinutes { reasons.append(.tooLong) }
            } else {
                reasons.append(.unknownRuntime)
            }
            if !every, !reasons.isEmpty { return reasons }
        }
        if let limitRank {
            if let rank = movie.certification.flatMap({ Self.rank(of: $0, in: order) }) {
                if rank > limitRank { reasons.append(.aboveAgeLimit) }
            } else if !includeUnrated {
                reasons.append(.noCertification)
            }
            if !every, !reasons.isEmpty { return reasons }
        }
        if let streaming, service(of: movie, streaming, folded: &folded) == nil {
            reasons.append(.notOnServices)
            if !every { return reasons }
        }
        if !genres.isEmpty, genre(of: movie, folded: &folded) == nil { reasons.append(.otherGenres) }
        return reasons
    }

    /// The first of the family's services offering the movie at no extra cost.
    func service(of movie: NightCandidate, _ streaming: ServiceMatcher) -> String? {
        var folded = TitleKeyMemo()
        return service(of: movie, streaming, folded: &folded)
    }

    func service(of movie: NightCandidate, _ streaming: ServiceMatcher, folded: inout TitleKeyMemo) -> String? {
        movie.providers?.first { $0.kind.noExtraCost && streaming.matches(id: $0.id, key: folded.key($0.name)) }?
            .name
    }

    func genre(of movie: NightCandidate) -> String? {
        var folded = TitleKeyMemo()
        return genre(of: movie, folded: &folded)
    }

    func genre(of movie: NightCandidate, folded: inout TitleKeyMemo) -> String? {
        let wanted = Set(genres.map { folded.key($0) })
        return movie.genres.first { wanted.contains(folded.key($0)) }
    }

    /// "; on Netflix · 1 h 46 min · PG · Comedy": what tonight's choices used, in that order; "" when none.
    func used(_ movie: NightCandidate, limited: Bool) -> String {
        var parts: [String] = []
        if let streaming, let name = service(of: movie, streaming) { parts.append("on \(name)") }
        if maxMinutes != nil, let runtime = movie.runtime { parts.append(Self.minutes(runtime)) }
        if limited {
            parts.append(movie.certification ?? "no certification")
        }
        if !genres.isEmpty, let genre = genre(of: movie) { parts.append(genre) }
        return parts.isEmpty ? "" : "; " + parts.joined(separator: " · ")
    }

    /// 106 as "1 h 46 min", 90 as "1 h 30 min", 45 as "45 min", 120 as "2 h".
    public static func minutes(_ runtime: Int) -> String {
        let (hours, rest) = runtime.quotientAndRemainder(dividingBy: 60)
        if hours == 0 { return "\(rest) min" }
        return rest == 0 ? "\(hours) h" : "\(hours) h \(rest) min"
    }
}
