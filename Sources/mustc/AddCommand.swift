import ArgumentParser
import Foundation
import MustCore

struct AddCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Add movies to a member's list and look up their TMDB ratings.",
        discussion: """
            Members and movies are matched ignoring case and accents: "Bob" and "bob" are one member, \
            "Amélie" and "AMELIE" one movie. Name a movie by its title, "Dune (1984)" (or --year 1984), \
            tmdb:438631, imdb:tt1160419, or a themoviedb.org or imdb.com URL. Only an exact title match is \
            taken; otherwise the movie is kept without a TMDB id and the closest results are listed with the \
            command that picks each. If TMDB cannot be reached the movie is still added and its rating comes \
            with the next fetch.
            """
    )

    @OptionGroup var global: GlobalOptions

    @Flag(help: "Only save the link; leave the TMDB lookup to the next fetch.")
    var noLookup = false

    @Option(help: "The release year, for a single title: tells remakes with the same title apart.")
    var year: Int?

    @Argument(help: "The family member, created if new.")
    var member: String

    @Argument(help: "One or more movies: titles, \"Title (Year)\", tmdb:ID, imdb:ttID or URLs.")
    var movies: [String] = []

    @Option(
        name: .customLong("from"),
        help: ArgumentHelp("Also read movies from this file, one per line; - reads standard input.", valueName: "file"))
    var titlesFile: String?

    private var validatedMember = ""
    /// Every movie argument, checked: `run` parses them again (a pure step) as commands must stay Decodable.
    private var named: [String] = []

    mutating func validate() throws {
        validatedMember = try NameArgument.validated(member, field: "member name")
        named = movies + (try titlesFile.map(TitleList.read) ?? [])
        if year != nil && named.count != 1 { throw ValidationError("--year applies to a single movie title") }
        _ = try references()
        guard !named.isEmpty else { throw ValidationError("give at least one movie title") }
    }

    private func references() throws -> [MovieReference] {
        try named.map { try MovieArgument.parsed($0, year: year) }
    }

    func run() async throws {
        try await reporting {
            let config = try global.loadConfig()
            let editor = MovieEditor(
                store: try global.openStore(config), checks: MovieSchedulePolicy(config.schedule), time: global.time)
            let client = noLookup ? nil : global.lookupClient(config)
            var warnedNoCredentials = false
            for reference in try references() {
                let link = try editor.add(member: validatedMember, movie: reference)
                // A movie named by an id shows the id until TMDB names it.
                let shown = !reference.isTitle && link.title == reference.description ? link.shown : quoted(link.shown)
                print(
                    link.linked
                        ? "\(link.member) now has \(shown)." : "\(link.member) already has \(shown); nothing changed.")
                // A movie named by its id has the id before TMDB was asked; it still needs its title and figures.
                guard !noLookup, MovieEditor.needsLookup(link) else { continue }
                guard let client else {
                    if !warnedNoCredentials {
                        Output.note(
                            "no TMDB credentials (set TMDB_API_KEY or TMDB_ACCESS_TOKEN); "
                                + "ratings will come with the first fetch after they are set.")
                        warnedNoCredentials = true
                    }
                    continue
                }
                try await MovieLookup(client: client, editor: editor).settle(link, named: reference)
            }
        }
    }
}
