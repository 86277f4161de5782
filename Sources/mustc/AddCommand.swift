import ArgumentParser
import Foundation
import MustCore

struct AddCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Add movies to a member's list and look up their TMDB ratings.",
        discussion: """
            Members and movies are matched ignoring case and accents: "Bob" and "bob" are one member, \
            "Amélie" and "AMELIE" one movie. If TMDB cannot be reached the movie is still added \
            and its rating comes with the next fetch.
            """
    )

    @OptionGroup var global: GlobalOptions

    @Flag(help: "Only save the link; leave the TMDB lookup to the next fetch.")
    var noLookup = false

    @Argument(help: "The family member, created if new.")
    var member: String

    @Argument(help: "One or more movie titles.")
    var movies: [String] = []

    @Option(
        name: .customLong("from"),
        help: ArgumentHelp("Also read titles from this file, one per line; - reads standard input.", valueName: "file"))
    var titlesFile: String?

    private var validatedMember = ""
    private var validatedMovies: [String] = []

    mutating func validate() throws {
        validatedMember = try NameArgument.validated(member, field: "member name")
        let listed = try titlesFile.map(TitleList.read) ?? []
        validatedMovies = try (movies + listed).map { try NameArgument.validated($0, field: "movie title") }
        guard !validatedMovies.isEmpty else { throw ValidationError("give at least one movie title") }
    }

    func run() async throws {
        try await reporting {
            let config = try global.loadConfig()
            let store = try global.openStore(config)
            let client = noLookup ? nil : global.client(config, retry: RetryPolicy(maxRetries: 1, maxDelay: 2))
            var warnedNoCredentials = false
            for title in validatedMovies {
                let link = try store.link(member: validatedMember, title: title)
                print(
                    link.linked
                        ? "\(link.member) now has \"\(link.title)\"."
                        : "\(link.member) already has \"\(link.title)\"; nothing changed.")
                guard !noLookup, link.remoteId == nil else { continue }
                guard let client else {
                    if !warnedNoCredentials {
                        Output.note(
                            "no TMDB credentials (set TMDB_API_KEY or TMDB_ACCESS_TOKEN); "
                                + "ratings will come with the first fetch after they are set.")
                        warnedNoCredentials = true
                    }
                    continue
                }
                try await lookUp(link, client: client, store: store)
            }
        }
    }

    /// Resolves the movie on TMDB right away. Failures are not errors: the link is already saved.
    private func lookUp(_ link: LinkOutcome, client: TMDBClient, store: Store) async throws {
        let found: RemoteMovie?
        do {
            found = try await client.lookUp(title: link.title)
        } catch let error as TMDBError {
            Output.note("\(error); \"\(link.title)\" is saved and its rating will come with the next fetch.")
            return
        }
        guard let found else {
            Output.note("TMDB found nothing for \"\(link.title)\"; it is saved and the next fetch will try again.")
            return
        }
        let resolved = try store.resolve(movieId: link.movieId, with: found)
        if resolved.mergedInto {
            print("\"\(link.title)\" is the same TMDB movie as \"\(resolved.title)\"; they are now one movie.")
        }
        print("  TMDB: \(Describe.ratings(of: found))")
    }
}

enum Describe {
    static func ratings(of movie: RemoteMovie) -> String {
        var parts = ["\(movie.title ?? "untitled")"]
        if let year = movie.releaseDate?.prefix(4) { parts[0] += " (\(year))" }
        parts.append("id \(movie.id)")
        if let average = movie.voteAverage, let count = movie.voteCount {
            parts.append(String(format: "rated %.1f from %d votes", average, count))
        }
        if let popularity = movie.popularity { parts.append(String(format: "popularity %.1f", popularity)) }
        return parts.joined(separator: ", ")
    }
}
