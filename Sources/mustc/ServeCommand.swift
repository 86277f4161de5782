import ArgumentParser
import Foundation
import MustCore
import MustWeb

struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the family's page: the lists, ratings, changes and status, in any browser.",
        discussion: """
            Runs in the foreground until SIGINT or SIGTERM. The first line on standard output is the URL it serves. \
            Anyone who can reach the address can read the lists. Once `mustc password` has set the family's \
            password, a browser signed in at /signin can add, remove and settle movies, by the same rules as \
            `mustc add`, `remove` and `resolve`; without a password, or when this user cannot write the database, \
            the page is read-only.
            """
    )

    @OptionGroup var global: GlobalOptions

    @Option(help: "Listen on HOST:PORT (default: serve.listen, or 127.0.0.1:8080); port 0 takes a free port.")
    var listen: String?

    func run() async throws {
        try await reporting {
            var config = try global.loadConfig()
            if let listen {
                guard let parsed = ListenAddress.parse(listen) else {
                    throw Failure.usage("--listen \"\(listen)\" must be \(ListenAddress.expected)")
                }
                config.serve.listen = parsed
            }
            let address = config.serve.listen
            let store = try global.openStoreForReading(config)
            if !address.isLoopback {
                Output.note(
                    "warning: listening on \(address): anyone on the network can read these pages; edits need the "
                        + "family password (`mustc password`), which crosses the network in the clear without a TLS "
                        + "proxy in front (see the README)")
            }
            // Written straight to the descriptor: stdout may be a file or pipe, where print() would buffer it.
            let app = try buildApplication(store: store, config: config, time: global.time, logger: global.logger) {
                url in FileHandle.standardOutput.write(Data("mustc: serving \(url)\n".utf8))
            }
            do {
                try await WebServer.run(app)
            } catch {
                throw Failure.temporary(
                    "cannot serve on \(address): \(error); choose another address with --listen, or stop what uses it")
            }
        }
    }
}
