import ArgumentParser
import Foundation
import MustCore

struct MoviesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "movies",
        abstract: "List the movies, with their TMDB ids and who keeps them."
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
            let now = Date()
            let rows = movies.map { movie in
                [
                    movie.title, movie.year.map(String.init) ?? "", movie.remoteId.map(String.init) ?? "",
                    movie.releaseDate ?? "", movie.members.joined(separator: "; "),
                    movie.lastCheckedAt.map(ISO8601.string) ?? "", movie.nextCheckAt.map(ISO8601.string) ?? "",
                ]
            }
            switch format {
            case .json: Output.exact(ReportRenderer.json(movies))
            case .csv:
                Output.exact(
                    ReportRenderer.csv(
                        header: [
                            "title", "year", "remoteId", "releaseDate", "members", "lastCheckedAt", "nextCheckAt",
                        ],
                        rows: rows),
                    terminator: "")
            case .table:
                // The table shows "Dune (1984)" in one column, as ratings does, and checks relative to now.
                let header = ["Movie", "TMDB id", "Released", "Kept by", "Last checked", "Next check"]
                let table = movies.map { movie in
                    [
                        movie.shown, movie.remoteId.map(String.init) ?? "", movie.releaseDate ?? "",
                        movie.members.joined(separator: "; "),
                        movie.lastCheckedAt.map { Durations.approximate(now.timeIntervalSince($0)) + " ago" }
                            ?? "never",
                        movie.nextCheckAt.map {
                            $0 <= now ? "due now" : "in " + Durations.approximate($0.timeIntervalSince(now))
                        }
                            ?? "",
                    ]
                }
                print(movies.isEmpty ? "No movies yet." : ReportRenderer.table(header: header, rows: table))
            }
        }
    }
}
