import Foundation

/// What `mustc changes` shows (and what the newData hook reads on its standard input): each movie that changed in
/// the window, newest first. Its JSON shape is a contract; unknown figures are null.
public struct ChangesReport: Sendable, Equatable, Encodable {
    public var since: Date
    public var changes: [MovieChanges]

    public init(since: Date, changes: [MovieChanges]) {
        self.since = since
        self.changes = changes
    }

    private enum CodingKeys: String, CodingKey { case since, changes }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(ISO8601.string(since), forKey: .since)
        try container.encode(changes, forKey: .changes)
    }
}

/// Figures and when they held: `first` of a window is what the movie had before its first change in it (dated at that
/// change), `last` what it had after its last change (dated at that one), so `last − first` is what moved.
public struct DatedFigures: Sendable, Equatable, Encodable {
    public var at: Date
    public var figures: Figures

    public init(at: Date, figures: Figures) {
        self.at = at
        self.figures = figures
    }

    private enum CodingKeys: String, CodingKey { case at, popularity, voteAverage, voteCount }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(ISO8601.string(at), forKey: .at)
        try container.encode(figures.popularity, forKey: .popularity)
        try container.encode(figures.voteAverage, forKey: .voteAverage)
        try container.encode(figures.voteCount, forKey: .voteCount)
    }
}

public struct MovieChanges: Sendable, Equatable, Encodable {
    public var title: String
    public var year: Int?
    public var remoteId: Int?
    /// How many changes the window holds for the movie (baselines are never counted).
    public var changes: Int
    public var first: DatedFigures
    public var last: DatedFigures
    public var members: [String]
    /// Popularity at the start of the window, then after each change: the sparkline's points. Not in the JSON.
    public var popularity: [Double?]
    /// TMDB's poster path, for the page; not in the JSON.
    public var posterPath: String?

    public init(
        title: String, year: Int?, remoteId: Int?, changes: Int, first: DatedFigures, last: DatedFigures,
        members: [String], popularity: [Double?]
    ) {
        (self.title, self.year, self.remoteId, self.changes) = (title, year, remoteId, changes)
        (self.first, self.last, self.members, self.popularity) = (first, last, members, popularity)
    }

    public var shown: String { MovieName.shown(title, year) }

    private enum CodingKeys: String, CodingKey { case title, year, remoteId, changes, first, last, members }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(title, forKey: .title)
        try container.encode(year, forKey: .year)
        try container.encode(remoteId, forKey: .remoteId)
        try container.encode(changes, forKey: .changes)
        try container.encode(first, forKey: .first)
        try container.encode(last, forKey: .last)
        try container.encode(members, forKey: .members)
    }
}

extension ChangesReport {
    /// - Parameters:
    ///   - sparklines: draw each movie's popularity over the window (for a terminal).
    ///   - forTerminal: CSV fields made visible as a table's cells are (CSV printed to a terminal).
    public func render(_ format: ReportFormat, sparklines: Bool = false, forTerminal: Bool = false) -> String {
        switch format {
        case .json: ReportRenderer.json(self)
        case .csv: csv(forTerminal: forTerminal)
        case .table: table(sparklines: sparklines)
        }
    }

    private func csv(forTerminal: Bool) -> String {
        let header = [
            "title", "year", "remoteId", "changes", "firstAt", "firstPopularity", "firstVoteAverage", "firstVoteCount",
            "lastAt", "lastPopularity", "lastVoteAverage", "lastVoteCount", "members",
        ]
        func cells(_ end: DatedFigures) -> [String] {
            let figures = end.figures
            let popularity: String = figures.popularity.map { "\($0)" } ?? ""
            let voteAverage: String = figures.voteAverage.map { "\($0)" } ?? ""
            let voteCount: String = figures.voteCount.map { String($0) } ?? ""
            return [ISO8601.string(end.at), popularity, voteAverage, voteCount]
        }
        let rows = changes.map { movie -> [String] in
            let year: String = movie.year.map { String($0) } ?? ""
            let remoteId: String = movie.remoteId.map { String($0) } ?? ""
            var row = [movie.title, year, remoteId, String(movie.changes)]
            row += cells(movie.first)
            row += cells(movie.last)
            row.append(movie.members.joined(separator: "; "))
            return row
        }
        return ReportRenderer.csv(header: header, rows: rows, forTerminal: forTerminal)
    }

    private func table(sparklines: Bool) -> String {
        guard !changes.isEmpty else { return "No changes since \(ISO8601.string(since))." }
        let rows = changes.map { movie -> [String] in
            let (first, last) = (movie.first.figures, movie.last.figures)
            var row = [
                movie.shown, String(movie.changes),
                Trend.moved(first.popularity, last.popularity), Trend.moved(first.voteAverage, last.voteAverage),
                Trend.moved(first.voteCount, last.voteCount), ISO8601.string(movie.last.at),
            ]
            if sparklines { row.append(Sparkline.make(movie.popularity)) }
            return row
        }
        var header = ["Movie", "Changes", "Popularity", "Rating", "Votes", "Last change"]
        if sparklines { header.append("Popularity over time") }
        let body = ReportRenderer.table(header: header, rows: rows, indent: "  ")
        return "Changes since \(ISO8601.string(since)):\n\(body)"
    }
}
