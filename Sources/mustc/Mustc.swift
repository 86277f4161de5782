import ArgumentParser
import Foundation
import MustCore

@main
struct Mustc: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mustc",
        abstract: "Keep a family's movie lists and their TMDB ratings fresh.",
        discussion: """
            Configuration comes from --config, $MUSTC_CONFIG, or $XDG_CONFIG_HOME/mustc/config.json; \
            TMDB_API_KEY or TMDB_ACCESS_TOKEN supply the TMDB credentials.
            Exit codes: 0 success, 64 bad usage or input, 75 temporary failure, 78 configuration error.
            """,
        version: MustcVersion.shown,
        subcommands: [
            AddCommand.self, RemoveCommand.self, ResolveCommand.self, RatingsCommand.self, MembersCommand.self,
            MoviesCommand.self, ChangesCommand.self,
            WatchedCommand.self, PickCommand.self, SuggestCommand.self, MemberCommand.self, ProvidersCommand.self,
            ImportCommand.self, ExportCommand.self,
            FetchCommand.self, StatusCommand.self, ServeCommand.self,
            PasswordCommand.self,
            WebhookCommand.self,
            NotifyCommand.self,
            NightCommand.self, NightsCommand.self,
        ]
    )

    /// ArgumentParser's own `main`, except that what it prints goes through `TerminalText` as everything else
    /// mustc prints does: a validation error quotes the argument it refuses (`(got "X\u202EY")`), and an unknown
    /// option or a bad value is echoed as typed.
    static func main() async {
        if let code = await runReporting(nil) { Foundation.exit(code) }
    }

    /// Parses `arguments` (nil: the process's own) and runs the command. A thrown error is printed and turned into
    /// the exit code it returns; nil when the command ended normally. The tests' in-process runs call this too.
    static func runReporting(_ arguments: [String]?) async -> Int32? {
        do {
            var command = try await asyncParseAsRoot(arguments)
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
            return nil
        } catch {
            let code = exitCode(for: error)
            let message = fullMessage(for: error)
            if !message.isEmpty {
                let text = Data((TerminalText.visible(message) + "\n").utf8)
                Console.write(text, to: code == .success ? .output : .error)
            }
            return code.rawValue
        }
    }
}
