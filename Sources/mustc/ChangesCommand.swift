import ArgumentParser
import Foundation
import MustCore

struct ChangesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "changes",
        abstract: "Show which movies' ratings changed, when, and by how much.",
        discussion: """
            One line per movie that changed since then, newest first: how many changes, the figures before the \
            first and after the last. A movie's first figures (its lookup at add or resolve) are not a change. \
            On a terminal the table also draws each movie's popularity over the window. Reads only.
            """
    )

    @OptionGroup var global: GlobalOptions

    @Option(help: "Since when: a duration back from now (2d, 36h) or a date (2026-11-20 is midnight UTC).")
    var since = Tonight.trendWindowText

    @Option(help: "Only this member's movies (matched ignoring case and accents).")
    var member: String?

    @Option(help: "Output format: table, json or csv.")
    var format: ReportFormat = .table

    func run() async throws {
        try await reporting {
            guard let start = Since.parse(since, now: global.time.now()) else {
                throw Failure.usage(
                    "--since \(quoted(since)) is neither a duration (such as 2d or 36h) nor a date (such as 2026-11-20)"
                )
            }
            let config = try global.loadConfig()
            let store = try global.openStoreForReading(config)
            if let member, try !store.hasMember(member) {
                throw Failure.usage("there is no member \(quoted(member)); see `mustc members`")
            }
            let report = try store.changes(
                since: start, member: member, services: try config.resolvingServices(store).family.services)
            let text = report.render(
                format, sparklines: format == .table && Output.isTerminal, forTerminal: Output.isTerminal)
            // CSV ends with its own CRLF; the others get a final newline.
            Output.report(text, format, terminator: format == .csv ? "" : "\n")
        }
    }
}
