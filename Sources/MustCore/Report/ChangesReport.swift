import Foundation

/// What `mustc changes` shows (and what the newData hook reads on its standard input): each movie that changed in
/// the window, newest first. Its JSON shape is a contract; unknown figures are null.
public struct ChangesReport: Sendable, Equatable, Encodable {
    public var since: Date
    public var changes: [MovieChanges]
    /// Movies arriving on, or leaving, one of the family's services in the window, newest first.
    public var availability: [AvailabilityChange] = []

    public init(since: Date, changes: [MovieChanges], availability: [AvailabilityChange] = []) {
        self.since = since
        self.changes = changes
        self.availability = availability
    }

    /// Entries of both kinds: what the hook's record counts.
    public var count: Int { changes.count + availability.count }

    private enum CodingKeys: String, CodingKey { case since, changes }

    /// Rating entries keep their shape; availability entries join them in `changes`, marked
    /// `"kind": "availability"`, all newest first.
    // Hand-written: it merges two lists, each newest first, into one array of two kinds of entry.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(since, forKey: .since)
        var entries = container.nestedUnkeyedContainer(forKey: .changes)
        var moves = availability[...]
        for rating in changes {
            while let move = moves.first, move.at > rating.last.at {
                try entries.encode(move)
                moves = moves.dropFirst()
            }
            try entries.encode(rating)
        }
        for move in moves { try entries.encode(move) }
    }
}

/// A provider starting or ceasing to offer a movie at no extra cost, on one of the family's services.
public struct AvailabilityChange: Sendable, Equatable, JSONShaped {
    public var title: String
    public var year: Int?
    public var remoteId: Int?
    public var at: Date
    public var providerId: Int
    public var provider: String
    public var arrived: Bool
    public var members: [String]

    public init(
        title: String, year: Int?, remoteId: Int?, at: Date, providerId: Int, provider: String, arrived: Bool,
        members: [String]
    ) {
        (self.title, self.year, self.remoteId, self.at) = (title, year, remoteId, at)
        (self.providerId, self.provider, self.arrived, self.members) = (providerId, provider, arrived, members)
    }

    public var shown: String { MovieName.shown(title, year) }

    /// "now on Netflix", "left Disney Plus".
    public var what: String { (arrived ? "now on " : "left ") + provider }

    /// Marked `"kind": "availability"` among the rating entries, with `"change": "arrived"` or `"left"`.
    private struct Shape: Encodable {
        var kind = "availability"
        var title: String
        @NullWhenAbsent var year: Int?
        @NullWhenAbsent var remoteId: Int?
        var at: Date
        var provider: String
        var providerId: Int
        var change: String
        var members: [String]
    }

    public var jsonShape: any Encodable {
        Shape(
            title: title, year: year, remoteId: remoteId, at: at, provider: provider, providerId: providerId,
            change: arrived ? "arrived" : "left", members: members)
    }
}

/// Figures and when they held: `first` of a window is what the movie had before its first change in it (dated at that
/// change), `last` what it had after its last change (dated at that one), so `last − first` is what moved.
public struct DatedFigures: Sendable, Equatable, JSONShaped {
    public var at: Date
    public var figures: Figures

    public init(at: Date, figures: Figures) {
        self.at = at
        self.figures = figures
    }

    /// The figures flattened beside the moment, each null when unknown.
    private struct Shape: Encodable {
        var at: Date
        @NullWhenAbsent var popularity: Double?
        @NullWhenAbsent var voteAverage: Double?
        @NullWhenAbsent var voteCount: Int?
    }

    public var jsonShape: any Encodable {
        Shape(at: at, popularity: figures.popularity, voteAverage: figures.voteAverage, voteCount: figures.voteCount)
    }
}

public struct MovieChanges: Sendable, Equatable, Encodable {
    public var title: String
    @NullWhenAbsent public var year: Int?
    @NullWhenAbsent public var remoteId: Int?
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
        self.title = title
        self.year = year
        self.remoteId = remoteId
        (self.changes, self.first, self.last, self.members, self.popularity) =
            (changes, first, last, members, popularity)
    }

    public var shown: String { MovieName.shown(title, year) }

    /// The sparkline's points and the poster path are the page's, not the JSON's.
    private enum CodingKeys: String, CodingKey { case title, year, remoteId, changes, first, last, members }
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
        guard !changes.isEmpty else {
            return availability.isEmpty ? "No changes since \(ISO8601.string(since))." : availabilityTable
        }
        let ratings = ratingsTable(sparklines: sparklines)
        return availability.isEmpty ? ratings : ratings + "\n" + availabilityTable
    }

    /// "On the family's services since …:" and a line per arrival or departure.
    private var availabilityTable: String {
        let rows = availability.map { [$0.shown, $0.what, ISO8601.string($0.at)] }
        let body = ReportRenderer.table(header: ["Movie", "Where", "When"], rows: rows, indent: "  ")
        return "On the family's services since \(ISO8601.string(since)):\n\(body)"
    }

    private func ratingsTable(sparklines: Bool) -> String {
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
