import Foundation

/// `mustc pick`'s answer, as a text list or JSON: `{"members":[...],"picks":[{"title","year","remoteId",
/// "keptBy","voteAverage","voteCount","weighted","trend","why"}],"leftOut":{"movies","aboveAgeLimit",…}}`.
/// Made from plain values, so the family page can render the same picks.
public struct PickReport: Sendable, Equatable, Encodable {
    public enum Format: String, CaseIterable, Sendable { case table, json }

    public var members: [String]
    public var picks: [NightPick]
    public var prior: NightPrior?
    /// Whether tonight's choices (runtime, age limit, services, genres) narrowed the picks: said when none is left.
    public var filtered = false
    /// What tonight's choices left out, counted by choice: said when the picks are fewer than asked for.
    public var leftOut = NightLeftOut()
    /// How many picks were asked for; nil when the report was not ranked here.
    public var asked: Int?

    public init(members: [String], picks: [NightPick], prior: NightPrior?) {
        (self.members, self.picks, self.prior) = (members, picks, prior)
    }

    /// Ranks `library` (see `MovieNight.rank`) into a report.
    public init(
        _ library: NightLibrary, count: Int, includeWatched: Bool = false, filters: NightFilters = NightFilters()
    ) {
        let ranked = MovieNight.ranked(library, count: count, includeWatched: includeWatched, filters: filters)
        self.init(members: library.members, picks: ranked.picks, prior: library.prior)
        self.filtered = filters != NightFilters() || !library.ageLimits.isEmpty
        (leftOut, asked) = (ranked.leftOut, count)
    }

    /// Says where each pick streams for the family (`NightWhere`): the table and the JSON then carry it.
    public mutating func locate(services: [String], region: String) {
        let matcher = ServiceMatcher(services)
        for index in picks.indices {
            picks[index].whereToWatch = NightWhere.of(
                picks[index].candidate.providers, services: matcher, region: region)
        }
    }

    public func render(_ format: Format) -> String {
        switch format {
        case .json: ReportRenderer.json(self)
        case .table: text
        }
    }

    private var text: String {
        let who = MovieNight.names(members)
        guard !picks.isEmpty else {
            // Never "none of them has watched" while tonight's choices hid unwatched movies: say what they hid.
            if let left = leftOut.text { return "Nothing to pick for \(who) tonight: \(TerminalText.cell(left))." }
            return "Nothing to pick: no movie on \(who)'s lists that none of them has watched"
                + (filtered ? " and that tonight's choices allow." : ".")
        }
        var lines = ["Tonight for \(who), best first:"]
        // One line per pick: a line break in a title shows as `\n`, as in tables.
        for (index, pick) in picks.enumerated() {
            lines.append("  \(index + 1). \(TerminalText.cell(pick.why))\(Self.facts(pick))")
        }
        if isThin, let left = leftOut.text { lines.append(TerminalText.cell(left) + ".") }
        if let prior {
            lines.append(
                "Weighted rating (v·R + m·C) / (v + m): C = \(FigureText.plain((prior.mean * 100).rounded() / 100)), the mean "
                    + "rating of the library's \(MovieNight.grouped(prior.movies)) rated movies; m = "
                    + "\(MovieNight.grouped(Int(prior.votes.rounded()))) votes, their median vote count.")
        }
        return lines.joined(separator: "\n")
    }

    /// " [1 h 40 min · PG · Netflix]": runtime, certification and where, each short, those known ("" when none is:
    /// a movie whose extras were never read).
    static func facts(_ pick: NightPick) -> String {
        let parts = [
            pick.candidate.runtime.map(NightFilters.minutes), pick.candidate.certification.map(TerminalText.cell),
            pick.whereToWatch.flatMap { $0.kind == .unknown ? nil : TerminalText.cell($0.short) },
        ].compactMap { $0 }
        return parts.isEmpty ? "" : " [" + parts.joined(separator: " · ") + "]"
    }

    /// Fewer picks than asked for: what was left out is then worth saying.
    public var isThin: Bool { picks.count < (asked ?? 0) }

    /// The prior and whether filters applied are the text's, not the JSON's.
    private enum CodingKeys: String, CodingKey { case members, picks, leftOut }
}

extension NightPick: JSONShaped {
    /// The candidate's fields flattened into the pick; whatever is unknown is null, rather than an absent key.
    private struct Shape: Encodable {
        var title: String
        @NullWhenAbsent var year: Int?
        @NullWhenAbsent var remoteId: Int?
        var keptBy: [String]
        @NullWhenAbsent var voteAverage: Double?
        @NullWhenAbsent var voteCount: Int?
        @NullWhenAbsent var weighted: Double?
        @NullWhenAbsent var trend: Double?
        var why: String
        @NullWhenAbsent var runtime: Int?
        @NullWhenAbsent var certification: String?
        var genres: [String]
        @NullWhenAbsent var providers: [String: [String]]?
        @NullWhenAbsent var overview: String?
        @NullWhenAbsent var `where`: NightWhere?
        @NullWhenAbsent var predicted: Double?
        var taste: [String]
    }

    public var jsonShape: any Encodable {
        let movie = candidate
        return Shape(
            title: movie.title, year: movie.year, remoteId: movie.remoteId, keptBy: movie.keptBy,
            voteAverage: movie.voteAverage, voteCount: movie.voteCount, weighted: ReportJSON.fourDecimals(weighted),
            trend: movie.trend, why: why, runtime: movie.runtime, certification: movie.certification,
            genres: movie.genres, providers: ReportJSON.providers(movie.providers), overview: movie.overview,
            where: whereToWatch, predicted: ReportJSON.fourDecimals(predicted), taste: taste)
    }
}
