import ArgumentParser
import Foundation
import MustCore

struct StatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show the fetch schedule, the last runs, and movies that are failing or not yet found."
    )

    @OptionGroup var global: GlobalOptions

    @Flag(help: "Print the status as JSON.")
    var json = false

    @Option(help: "How many recent runs to show.")
    var runs = 10

    func run() async throws {
        try await reporting {
            let store = try global.openStoreForReading(try global.loadConfig())
            let now = global.time.now()
            let status = try store.status(now: now, runs: max(runs, 0))
            if json { Output.exact(ReportRenderer.json(status)) } else { print(status.text(now: now)) }
        }
    }
}
