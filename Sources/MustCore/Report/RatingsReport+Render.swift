import Foundation

extension RatingsReport {
    /// - Parameter sparklines: add each movie's popularity over the trend window to the table (for a terminal).
    public func render(_ format: ReportFormat, sparklines: Bool = false) -> String {
        switch format {
        case .json: json
        case .csv: csv
        case .table: table(sparklines: sparklines)
        }
    }

    /// The report handed to `emit` in chunks as it is made: a 100,000-movie report is 20 MB of text.
    /// - Parameter forTerminal: CSV fields made visible as a table's cells are (CSV printed to a terminal).
    public func write(
        _ format: ReportFormat, sparklines: Bool = false, forTerminal: Bool = false,
        to emit: @escaping (UnsafeRawBufferPointer) -> Void
    ) {
        switch format {
        case .json: writeJSON(emit)
        case .csv:
            var out = ChunkedOutput(emit: emit)
            out.forTerminal = forTerminal
            writeCSV(to: &out)
            out.flush(force: true)
        case .table:
            var text = table(sparklines: sparklines)
            text.withUTF8 { emit(UnsafeRawBufferPointer($0)) }
        }
    }

    private var csv: String {
        var out = ChunkedOutput(capacity: 128 + members.reduce(0) { $0 + $1.movies.count * 80 })
        writeCSV(to: &out)
        return out.text
    }

    private func writeCSV(to out: inout ChunkedOutput) {
        out.append(
            "member,title,year,remoteId,popularity,voteAverage,voteCount,updatedAt,"
                + "trendSince,trendPopularity,trendVoteAverage,trendVoteCount,watched,watchedOn,ownRating\r\n")
        for member in members {
            for movie in member.movies {
                out.csvField(member.name)
                out.append(UInt8(ascii: ","))
                out.csvField(movie.title)
                out.append(UInt8(ascii: ","))
                if let year = movie.year { out.append(String(year)) }
                out.append(UInt8(ascii: ","))
                if let remoteId = movie.remoteId { out.append(String(remoteId)) }
                out.csvFigures(of: movie)
                Self.writeTrend(movie.trend, to: &out)
                out.csvMark(movie.mark)
                out.append("\r\n")
                out.flush()
            }
        }
    }

    private func table(sparklines: Bool) -> String {
        guard !members.isEmpty else { return "No members yet. Add one with: mustc add <member> <movie>" }
        return members.map { member in
            let name = TerminalText.cell(member.name)
            guard !member.movies.isEmpty else { return "\(name)\n  (no movies)" }
            // Only a member who has marked something gets the two columns: other tables stay as they were.
            let marks = member.movies.contains { !$0.mark.isEmpty }
            let rows = member.movies.map { movie -> [String] in
                let trend = movie.trend
                let popularity = (movie.popularity.map(FigureText.table) ?? "–") + Trend.suffix(trend?.popularity)
                let rating = (movie.voteAverage.map(FigureText.table) ?? "–") + Trend.suffix(trend?.voteAverage)
                let votes = (movie.voteCount.map(String.init) ?? "–") + Trend.suffix(trend?.voteCount)
                let updated = movie.updatedAt.map(ISO8601.string) ?? "not fetched yet"
                let own = marks ? [movie.mark.seenCell, movie.mark.ratingCell] : []
                let row = [movie.shown, popularity, rating, votes, updated] + own
                return sparklines ? row + [Sparkline.make(movie.trendPopularity)] : row
            }
            let header = ["Movie", "Popularity", "Rating", "Votes", "Updated"] + (marks ? ["Seen", "Own"] : [])
            let body = ReportRenderer.table(
                header: sparklines ? header + ["Popularity over time"] : header, rows: rows, indent: "  ")
            return "\(name)\n\(body)"
        }.joined(separator: "\n\n")
    }

    /// The four trend columns, each preceded by its comma; empty for a movie without a trend.
    private static func writeTrend(_ trend: MovieTrend?, to out: inout ChunkedOutput) {
        out.append(UInt8(ascii: ","))
        guard let trend else { return out.append(",,,") }
        out.timestamp(trend.since)
        out.append(UInt8(ascii: ","))
        if let popularity = trend.popularity { out.append("\(popularity)") }
        out.append(UInt8(ascii: ","))
        if let voteAverage = trend.voteAverage { out.append("\(voteAverage)") }
        out.append(UInt8(ascii: ","))
        if let voteCount = trend.voteCount { out.append(String(voteCount)) }
    }

    /// "%.1f" without String(format:), which took a third of a 100,000-movie table.
    public static func oneDecimal(_ value: Double) -> String {
        guard value.isFinite, abs(value) < 1e15 else { return "\(value)" }
        let tenths = Int64((abs(value) * 10).rounded())
        return (value < 0 && tenths > 0 ? "-" : "") + "\(tenths / 10).\(tenths % 10)"
    }
}
