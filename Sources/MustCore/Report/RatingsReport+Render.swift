import Foundation

extension RatingsReport {
    public func render(_ format: ReportFormat) -> String {
        switch format {
        case .json: json
        case .csv: csv
        case .table: table
        }
    }

    private var csv: String {
        var rows: [[String]] = []
        for member in members {
            for movie in member.movies {
                let popularity = movie.popularity.map { "\($0)" } ?? ""
                let voteAverage = movie.voteAverage.map { "\($0)" } ?? ""
                let voteCount = movie.voteCount.map(String.init) ?? ""
                let remoteId = movie.remoteId.map(String.init) ?? ""
                let updated = movie.updatedAt.map(ISO8601.string) ?? ""
                rows.append([member.name, movie.title, remoteId, popularity, voteAverage, voteCount, updated])
            }
        }
        return ReportRenderer.csv(
            header: ["member", "title", "remoteId", "popularity", "voteAverage", "voteCount", "updatedAt"], rows: rows)
    }

    private var table: String {
        guard !members.isEmpty else { return "No members yet. Add one with: mustc add <member> <movie>" }
        return members.map { member in
            guard !member.movies.isEmpty else { return "\(member.name)\n  (no movies)" }
            let rows = member.movies.map { movie -> [String] in
                let popularity = movie.popularity.map(Self.oneDecimal) ?? "–"
                let rating = movie.voteAverage.map(Self.oneDecimal) ?? "–"
                let votes = movie.voteCount.map(String.init) ?? "–"
                let updated = movie.updatedAt.map(ISO8601.string) ?? "not fetched yet"
                return [movie.title, popularity, rating, votes, updated]
            }
            let body = ReportRenderer.table(
                header: ["Movie", "Popularity", "Rating", "Votes", "Updated"], rows: rows, indent: "  ")
            return "\(member.name)\n\(body)"
        }.joined(separator: "\n\n")
    }

    /// "%.1f" without String(format:), which took a third of a 100,000-movie table.
    static func oneDecimal(_ value: Double) -> String {
        guard value.isFinite, abs(value) < 1e15 else { return "\(value)" }
        let tenths = Int64((abs(value) * 10).rounded())
        return (value < 0 && tenths > 0 ? "-" : "") + "\(tenths / 10).\(tenths % 10)"
    }
}
