import ArgumentParser
import Foundation
import MustCore

struct ResolveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "resolve",
        abstract: "Say which TMDB movie one of a member's movies is, for everyone who keeps it.",
        discussion: """
            Settles a movie that no TMDB title matched exactly, or one that was matched to the wrong movie \
            (a remake, say): mustc resolve Ann Dune tmdb:841. If another movie already has that TMDB id, \
            the two become one, keeping every member and spelling of both.
            """
    )

    @OptionGroup var global: GlobalOptions

    @Argument(help: "A family member who keeps the movie.")
    var member: String

    @Argument(help: "The movie as the member named it: a title, \"Title (Year)\", tmdb:ID or imdb:ttID.")
    var movie: String

    @Argument(help: "Which movie it is: tmdb:ID, imdb:ttID, or a themoviedb.org or imdb.com URL.")
    var target: String

    func validate() throws {
        _ = try NameArgument.validated(member, field: "member name")
        _ = try MovieArgument.parsed(movie)
        if try MovieArgument.parsed(target).isTitle {
            throw ValidationError(
                "\(target.debugDescription) is not an id; give tmdb:ID, imdb:ttID, or a themoviedb.org or imdb.com URL")
        }
    }

    func run() async throws {
        try await reporting {
            let (named, id) = (try MovieArgument.parsed(movie), try MovieArgument.parsed(target))
            let config = try global.loadConfig()
            let editor = MovieEditor(
                store: try global.openStore(config), checks: MovieSchedulePolicy(config.schedule), time: global.time)
            let found = try kept(try editor.kept(member: member, named: named), named: named)
            guard let client = TMDBClient.forSettling(config, time: global.time, logger: global.logger) else {
                throw Failure.config(
                    "mustc resolve asks TMDB about \(id): set TMDB_API_KEY or TMDB_ACCESS_TOKEN, "
                        + "or tmdb.apiKey or tmdb.accessToken in the config file")
            }
            guard let remote = try await remoteMovie(id, client: client) else {
                Output.note("TMDB knows no movie \(id); \(quoted(found.shown)) is unchanged.")
                return
            }
            let resolved = try editor.take(remote, movieId: found.id)
            print("\(quoted(found.shown)) is now \(LookupWording.shown(remote)) for everyone who keeps it.")
            MovieLookup.tell(resolved, remote)
        }
    }

    /// The member's movie, or a usage failure that says why not.
    private func kept(_ lookup: MemberMovieLookup, named: MovieReference) throws -> MovieName {
        switch lookup {
        case .found(_, _, let movie): return movie
        case .unknownMember: throw Failure.usage("there is no member \(quoted(member)); see `mustc members`")
        case .unknownMovie:
            throw Failure.usage("there is no movie \(quoted("\(named)")); see `mustc movies --member \(member)`")
        case .notKept(let member, let movie):
            throw Failure.usage("\(member) does not keep \(quoted(movie.shown)); name a member who does")
        case .ambiguous(let member, let movies):
            throw Failure.usage(
                "\(member) keeps \(movies.count) movies named \(quoted("\(named)")): "
                    + movies.map(\.reference.argument).joined(separator: ", ") + "; name one of them")
        }
    }

    /// TMDB's movie for the id, or nil when TMDB does not know it. Nothing is written when TMDB cannot answer.
    private func remoteMovie(_ id: MovieReference, client: TMDBClient) async throws -> RemoteMovie? {
        do {
            return try await MovieEditor.remoteMovie(id, client: client)
        } catch TMDBError.unauthorized(let code, let message) {
            throw Failure.config("\(TMDBError.unauthorized(code: code, message: message)); nothing was changed")
        } catch let error as TMDBError {
            throw Failure.temporary("\(error); nothing was changed")
        }
    }
}
