import ArgumentParser
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
            WatchedCommand.self, PickCommand.self, MemberCommand.self, ProvidersCommand.self,
            ImportCommand.self, ExportCommand.self,
            FetchCommand.self, StatusCommand.self, ServeCommand.self,
            PasswordCommand.self,
        ]
    )
}
