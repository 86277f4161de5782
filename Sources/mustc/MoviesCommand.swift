import ArgumentParser
import Foundation
import MustCore

struct MoviesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "movies",
        abstract: "List the movies, with their TMDB ids and who keeps them.",
        discussion: """
            With --member, also that member's watched mark and own rating: the Seen and Own columns of the table, \
            watched, watchedOn and ownRating in JSON and CSV.
            """
    )

    @OptionGroup var global: GlobalOptions

    @Option(help: "Only this member's movies (matched ignoring case and accents).")
    var member: String?

    @Option(help: "Output format: table, json or csv.")
    var format: ReportFormat = .table

    func run() async throws {
        try await reporting {
            let store = try global.openStoreForReading(try global.loadConfig())
            if let member, try !store.hasMember(member) {
                throw Failure.usage("there is no member \(quoted(member)); see `mustc members`")
            }
            let movies = try store.movies(member: member)
            switch format {
            case .json: Output.exact(ReportRenderer.json(movies))
            case .csv: Output.exact(csv(movies), terminator: "")
            case .table: print(movies.isEmpty ? "No movies yet." : table(movies, now: global.time.now()))
            }
        }
    }

    /// With --member, that member's watched mark and own rating, after the columns scripts already read.
    private var marks: Bool { member != nil }

    private func csv(_ movies: [MovieListing]) -> String {
        var header = ["title", "year", "remoteId", "releaseDate", "members", "lastCheckedAt", "nextCheckAt"]
        if marks { header += ["watched", "watchedOn", "ownRating"] }
        let rows = movies.map { movie in
            var row = [movie.title, movie.year.map(String.init) ?? "", movie.remoteId.map(String.init) ?? ""]
            row += [movie.releaseDate ?? "", movie.members.joined(separator: "; ")]
            row += [movie.lastCheckedAt.map(ISO8601.string) ?? "", movie.nextCheckAt.map(ISO8601.string) ?? ""]
            if marks {
                let mark = movie.mark ?? WatchMark()
                row += [mark.watched ? "true" : "false", mark.on?.text ?? "", mark.rating.map(String.init) ?? ""]
            }
            return row
        }
        return ReportRenderer.csv(header: header, rows: rows, forTerminal: Output.isTerminal)
    }

    /// "Dune (1984)" in one column, as ratings shows it, and checks relative to now.
    private func table(_ movies: [MovieListing], now: Date) -> String {
        var header = ["Movie", "TMDB id", "Released", "Kept by", "Last checked", "Next check"]
        if marks { header += ["Seen", "Own"] }
        let rows = movies.map { movie in
            let checked = movie.lastCheckedAt.map { Durations.approximate(now.timeIntervalSince($0)) + " ago" }
            let next = movie.nextCheckAt.map {
                $0 <= now ? "due now" : "in " + Durations.approximate($0.timeIntervalSince(now))
            }
            var row = [movie.shown, movie.remoteId.map(String.init) ?? "", movie.releaseDate ?? ""]
            row += [movie.members.joined(separator: "; "), checked ?? "never", next ?? ""]
            if marks { row += [movie.mark?.seenCell ?? "", movie.mark?.ratingCell ?? ""] }
            return row
        }
        return ReportRenderer.table(header: header, rows: rows)
    }
}
