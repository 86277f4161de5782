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

    func run() async throws {
        try await reporting {
            let store = try global.openStoreForReading(try global.loadConfig())
            let report = try store.ratings(member: member)
            if let member, report.members.isEmpty {
                throw Failure.usage("there is no member \"\(member)\"; see `mustc members`")
            }
            report.write(format) { chunk in FileHandle.standardOutput.write(Data(chunk)) }
            if format != .csv { print() }
        }
    }
}
