import ArgumentParser
import Foundation
import MustCore

struct ProvidersCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "providers",
        abstract: "List the streaming and shop providers seen in the library for the family's region.",
        discussion: """
            Each with its TMDB id, how many of the library's movies it offers and how (subscription, free, with \
            ads, rent, buy), most movies first, so family.services can be written without guessing. Reads only, \
            offline: providers show once a fetch has read the movies' offers.
            """
    )

    @OptionGroup var global: GlobalOptions

    @Option(help: "Output format: table or json.")
    var format: PickReport.Format = .table

    func run() async throws {
        try await reporting {
            let config = try global.loadConfig()
            let region = config.family.region
            let seen = try global.openStoreForReading(config).providersSeen(region: region)
            if format == .json {
                Output.exact(ReportRenderer.json(seen))
                return
            }
            guard !seen.isEmpty else {
                print("No providers seen for \(region) yet: they show once `mustc fetch` has read the movies' offers.")
                return
            }
            let services = ServiceMatcher(config.family.services)
            let rows = seen.map { provider in
                [
                    provider.name, String(provider.id), String(provider.movies),
                    provider.kinds.map(\.heading).joined(separator: ", ").lowercased(),
                    services.matches(id: provider.id, name: provider.name) ? "yes" : "",
                ]
            }
            print("Providers in \(region):")
            print(
                ReportRenderer.table(header: ["Provider", "Id", "Movies", "Offers", "Ours"], rows: rows, indent: "  "))
        }
    }
}
