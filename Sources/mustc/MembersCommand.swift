import ArgumentParser
import MustCore

struct MembersCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "members",
        abstract: "List the family members and how many movies each keeps."
    )

    @OptionGroup var global: GlobalOptions

    @Option(help: "Output format: table, json or csv.")
    var format: ReportFormat = .table

    func run() async throws {
        try await reporting {
            let members = try global.openStoreForReading(try global.loadConfig()).members()
            let rows = members.map { [$0.name, String($0.movies)] }
            switch format {
            case .json: Output.exact(ReportRenderer.json(members))
            case .csv:
                let csv = ReportRenderer.csv(header: ["name", "movies"], rows: rows, forTerminal: Output.isTerminal)
                Output.exact(csv, terminator: "")
            case .table:
                print(
                    members.isEmpty
                        ? "No members yet." : ReportRenderer.table(header: ["Member", "Movies"], rows: rows))
            }
        }
    }
}
