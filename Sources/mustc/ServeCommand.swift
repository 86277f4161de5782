import ArgumentParser
import Foundation
import MustCore
import MustWeb

struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the family's page: the lists, ratings, changes and status, read-only, in any browser.",
        discussion: """
            Runs in the foreground until SIGINT or SIGTERM. The first line on standard output is the URL it serves. \
            The pages only read the database, as `mustc ratings` does, and there is no sign-in: anyone who can reach \
            the address can read the lists.
            """
    )

    @OptionGroup var global: GlobalOptions

    @Option(help: "Listen on HOST:PORT (default: serve.listen, or 127.0.0.1:8080); port 0 takes a free port.")
    var listen: String?

    func run() async throws {
        try await reporting {
            let config = try global.loadConfig()
            var address = config.serve.listen
            if let listen {
                guard let parsed = ListenAddress.parse(listen) else {
                    throw Failure.usage("--listen \"\(listen)\" must be \(ListenAddress.expected)")
                }
                address = parsed
            }
            let store = try global.openStoreForReading(config)
            if !address.isLoopback {
                Output.note(
                    "warning: listening on \(address): anyone on the network can read these pages; there is no "
                        + "sign-in yet")
            }
            let server = try WebServer(store: store, listen: address, logger: global.logger)
            do {
                // Written straight to the descriptor: stdout may be a file or pipe, where print() would buffer it.
                try await server.run { url in
                    FileHandle.standardOutput.write(Data("mustc: serving \(url)\n".utf8))
                }
            } catch {
                throw Failure.temporary(
                    "cannot serve on \(address): \(error); choose another address with --listen, or stop what uses it")
            }
        }
    }
}
