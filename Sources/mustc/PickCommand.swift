import ArgumentParser
import Foundation
import MustCore

extension PickReport.Format: ExpressibleByArgument {}

struct PickCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pick",
        abstract: "Pick tonight's movie for the members watching together, best first, each with its reason.",
        discussion: """
            Considers the movies on at least one of their lists that none of them has watched. Best first: the \
            movies TMDB has rated, then by how many of them keep it, then a weighted rating that a handful of \
            votes cannot win, (v·R + m·C) / (v + m), with R and v the movie's vote average and count, C the mean \
            vote average of the library's rated movies and m their median vote count; then the vote average's \
            trend over 7 days, then the title. Reads only.
            """
    )

    @OptionGroup var global: GlobalOptions

    @Option(help: "How many movies to show.")
    var count = 5

    @Option(help: "Output format: table or json.")
    var format: PickReport.Format = .table

    @Flag(help: "Also pick movies one of them has watched.")
    var includeWatched = false

    @Argument(help: "The members watching tonight.")
    var members: [String] = []

    func validate() throws {
        guard !members.isEmpty else { throw ValidationError("name the members watching tonight") }
        for member in members { _ = try NameArgument.validated(member, field: "member name") }
        guard count > 0 else { throw ValidationError("--count \(count) must be at least 1") }
    }

    func run() async throws {
        try await reporting {
            let store = try global.openStoreForReading(try global.loadConfig())
            let library = try store.movieNight(members: members, trendSince: Date().addingTimeInterval(-7 * 86_400))
            if !library.unknown.isEmpty {
                let names = library.unknown.map(quoted).joined(separator: ", ")
                throw Failure.usage(
                    "there is no member \(names); see `mustc members`")
            }
            let report = PickReport(library, count: count, includeWatched: includeWatched).render(format)
            if format == .json { Output.exact(report) } else { print(report) }
        }
    }
}
