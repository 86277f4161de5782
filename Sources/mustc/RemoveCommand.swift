import ArgumentParser
import MustCore

struct RemoveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove",
        abstract: "Take a movie off a member's list; a movie no member keeps is deleted.",
        discussion: """
            The movie may be named by any spelling a member added it with, "Title (Year)", tmdb:ID or imdb:ttID.
            """
    )

    @OptionGroup var global: GlobalOptions

    @Option(help: "The release year, when the member keeps two movies with the same title.")
    var year: Int?

    @Argument(help: "The family member.")
    var member: String

    @Argument(help: "The movie: a title, \"Title (Year)\", tmdb:ID, imdb:ttID or a URL.")
    var movie: String

    func validate() throws {
        _ = try NameArgument.validated(member, field: "member name")
        _ = try MovieArgument.parsed(movie, year: year)
    }

    func run() async throws {
        try await reporting {
            let reference = try MovieArgument.parsed(movie, year: year)
            let config = try global.loadConfig()
            let editor = MovieEditor(
                store: try global.openStore(config), checks: MovieSchedulePolicy(config.schedule), time: global.time)
            switch try editor.remove(member: member, movie: reference) {
            case .unknownMember:
                throw Failure.usage("there is no member \(quoted(member)); see `mustc members`")
            case .unknownMovie:
                throw Failure.usage(
                    "there is no movie \(quoted("\(reference)")); see `mustc movies --member \(member)`")
            case .ambiguous(let member, let movies):
                throw Failure.usage(
                    "\(member) keeps \(movies.count) movies named \(quoted("\(reference)")): "
                        + movies.map(\.reference.argument).joined(separator: ", ") + "; name one of them")
            case .notLinked(let member, let title):
                print("\(member) does not have \(quoted(title)); nothing changed.")
            case .unlinked(let member, let title, let deleted):
                print(
                    "\(member) no longer has \(quoted(title)).\(deleted ? " No one else kept it, so it is gone." : "")")
            }
        }
    }
}
