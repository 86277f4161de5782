import ArgumentParser
import Foundation
import MustCore

struct SuggestCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "suggest",
        abstract: "Something new for tonight: movies TMDB recommends from what the members watching loved.",
        discussion: """
            Suggests movies nobody in the family keeps or has watched, from TMDB's recommendations of the movies \
            the members watching loved (their own rating of 8 or more, best first, ten each; for a member who has \
            rated nothing, the watched movies they keep with the best weighted rating). Best first: the movies \
            recommended from more of the watchers' loved movies, each counted by how much it was loved, then the \
            weighted rating; each watcher's taste moves that as in pick (rating a genre 2 points below TMDB counts \
            as loving the seed 2 points less), and --no-taste leaves it out. Takes pick's choices for tonight; a movie whose runtime, certification or offers are \
            not known yet is left out under a choice that needs them. The fetch gathers the recommendations in \
            the background, within suggest.requestsPerDay; this command asks TMDB nothing.
            --hide MOVIE says "not for us" (a title or tmdb:ID), and --forget takes every "not for us" back.
            """
    )

    @OptionGroup var global: GlobalOptions
    @OptionGroup var tonight: TonightOptions

    @Option(help: "How many movies to show.")
    var count = 5

    @Option(help: "Output format: table or json.")
    var format: PickReport.Format = .table

    @Option(help: ArgumentHelp("Never suggest this movie again (a title, or tmdb:ID).", valueName: "MOVIE"))
    var hide: String?

    @Flag(help: "Rank without the members' taste.")
    var noTaste = false

    @Flag(help: "Take back every \"not for us\".")
    var forget = false

    @Argument(help: "The members watching tonight.")
    var members: [String] = []

    func validate() throws {
        if hide != nil || forget {
            guard members.isEmpty, !(hide != nil && forget) else {
                throw ValidationError("--hide and --forget take no members, and not both at once")
            }
            return
        }
        guard !members.isEmpty else { throw ValidationError("name the members watching tonight") }
        for member in members { _ = try NameArgument.validated(member, field: "member name") }
        guard count > 0 else { throw ValidationError("--count \(count) must be at least 1") }
    }

    func run() async throws {
        try await reporting {
            let config = try global.loadConfig()
            if let hide { return try hideMovie(hide, config) }
            if forget {
                let count = try global.openStore(config).forgetHiddenSuggestions()
                return print("Took back \(count) \"not for us\"; those movies may be suggested again.")
            }
            let store = try global.openStoreForReading(config)
            var library = try store.suggestionWatchers(
                members: members, region: config.family.region, taste: !noTaste)
            if !library.unknown.isEmpty {
                throw Failure.usage(
                    "there is no member \(library.unknown.map(quoted).joined(separator: ", ")); "
                        + "see `mustc members`")
            }
            let filters = try await tonight.filters(
                global, try config.resolvingServices(store), memberLimits: !library.ageLimits.isEmpty,
                certifications: &library.certifications)
            let report = try Tonight.suggestions(
                library, count: count, filters: filters, region: config.family.region, store: store
            ).render(format)
            if format == .json { Output.exact(report) } else { print(report) }
        }
    }

    private func hideMovie(_ text: String, _ config: Config) throws {
        let reference: MovieReference
        do { reference = try MovieReference.parse(text) } catch { throw Failure.usage("\(error)") }
        let hidden = try global.openStore(config).hideSuggestion(reference, now: global.time.now())
        guard !hidden.isEmpty else {
            throw Failure.usage(
                "no suggestion is named \(quoted(text)); `mustc suggest MEMBER --format json` lists them with their "
                    + "tmdb ids")
        }
        for title in hidden { print("Not for us: \(title) is never suggested again.") }
    }
}
