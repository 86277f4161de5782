import ArgumentParser
import Foundation
import MustCore

extension ReportFormat: ExpressibleByArgument {}

struct RatingsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ratings",
        abstract: "Show every member's movies with their TMDB ratings."
    )

    @OptionGroup var global: GlobalOptions

    @Option(help: "Only this member (matched ignoring case and accents).")
    var member: String?

    @Option(help: "Output format: table, json or csv.")
    var format: ReportFormat = .table

    @Option(
        help: """
            Show each figure's change over this window (default 7d) beside it; given, a terminal also gets a \
            sparkline of popularity.
            """)
    var trend: String?

    func run() async throws {
        try await reporting {
            let window = trend ?? Tonight.trendWindowText
            guard let seconds = Durations.parse(window), seconds > 0 else {
                throw Failure.usage("--trend \(quoted(window)) must be a positive duration, such as 7d or 36h")
            }
            let store = try global.openStoreForReading(try global.loadConfig())
            let report = try store.ratings(member: member, trendSince: global.time.now().addingTimeInterval(-seconds))
            if let member, report.members.isEmpty {
                throw Failure.usage("there is no member \(quoted(member)); see `mustc members`")
            }
            let sparklines = trend != nil && format == .table && Output.isTerminal
            report.write(format, sparklines: sparklines, forTerminal: Output.isTerminal) { chunk in
                Console.write(Data(chunk), to: .output)
            }
            if format != .csv { print() }
        }
    }
}
