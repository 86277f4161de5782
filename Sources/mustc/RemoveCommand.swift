import ArgumentParser
import MustCore

struct RemoveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove",
        abstract: "Take a movie off a member's list; a movie no member keeps is deleted."
    )

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The family member.")
    var member: String

    @Argument(help: "The movie title.")
    var movie: String

    func validate() throws {
        _ = try NameArgument.validated(member, field: "member name")
        _ = try NameArgument.validated(movie, field: "movie title")
    }

    func run() async throws {
        try await reporting {
            let store = try global.openStore(try global.loadConfig())
            switch try store.unlink(member: member, title: movie) {
            case .unknownMember:
                throw Failure.usage("there is no member \"\(member)\"; see `mustc members`")
            case .unknownMovie:
                throw Failure.usage("there is no movie \"\(movie)\"; see `mustc movies --member \(member)`")
            case .notLinked(let member, let title):
                print("\(member) does not have \"\(title)\"; nothing changed.")
            case .unlinked(let member, let title, let deleted):
                print("\(member) no longer has \"\(title)\".\(deleted ? " No one else kept it, so it is gone." : "")")
            }
        }
    }
}
