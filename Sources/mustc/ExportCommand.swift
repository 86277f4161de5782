import ArgumentParser
import Foundation
import MustCore

extension ExportWriter.Format: ExpressibleByArgument {}

struct ExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write every member's list (or one member's) with titles, years, ids and ratings.",
        discussion: """
            CSV (the default) has the columns member,title,year,tmdbId,imdbId,popularity,voteAverage,voteCount,\
            updatedAt,watched,watchedOn,ownRating,letterboxdUri,mustcId, and `mustc import <member> FILE` reads it back: run it once per member. \
            JSON is the shape of `ratings --format json` with each movie's imdbId, letterboxdUri and mustcId. Export only reads the database.
            """
    )

    @OptionGroup var global: GlobalOptions

    @Option(help: "Only this member (matched ignoring case and accents).")
    var member: String?

    @Option(help: "Output format: csv or json.")
    var format: ExportWriter.Format = .csv

    func run() async throws {
        try await reporting {
            let config = try global.loadConfig()
            var writer = ExportWriter(format, forTerminal: Output.isTerminal) { chunk in
                Console.write(Data(chunk), to: .output)
            }
            // No database yet: an empty export, without creating one.
            if FileManager.default.fileExists(atPath: global.databasePath(config)) {
                let store = try global.openStoreForReading(config)
                if let member, try !store.hasMember(member) {
                    throw Failure.usage("there is no member \(quoted(member)); see `mustc members`")
                }
                try store.exportRows(member: member) { writer.add($0) }
            } else if let member {
                throw Failure.usage("there is no member \(quoted(member)); see `mustc members`")
            }
            writer.finish()
        }
    }
}
