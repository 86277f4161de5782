import ArgumentParser
import Foundation
import MustCore

extension PickReport.Format: ExpressibleByArgument {}

struct PickCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pick",
        abstract: "Pick tonight's movie for the members watching together, best first, each with its reason.",
        discussion: """
            Considers the movies on at least one of their lists that none of them has watched. Best first: the \
            movies TMDB has rated, then by how many of them keep it, then a weighted rating that a handful of \
            votes cannot win, (v·R + m·C) / (v + m), with R and v the movie's vote average and count, C the mean \
            vote average of the library's rated movies and m their median vote count; then the vote average's \
            trend over 7 days, then the title. Reads only.
            Tonight's choices narrow the movies: --max-minutes (its runtime), --age-limit (a certification of \
            family.region; the strictest of it and the members' own limits applies, and a movie with no \
            certification there is left out unless --include-unrated), --streaming (on one of family.services by \
            subscription, free or with ads), --genre (any of those given). Each reason names what was used.
            Each member's taste moves the rating: from their own ratings, how they rate overall against TMDB (their \
            lean) and how far they rate each genre beyond that lean, each shrunk toward nothing when it rests on few \
            movies and bounded to 2 points; the picks go by the mean of the watchers' predicted ratings, and a \
            reason names a genre that lifted a pick by 0.3 or more from at least 5 of a watcher's films. --no-taste ranks by the weighted rating alone. Each line ends with the runtime, the \
            certification and where it streams for the family.
            """
    )

    @OptionGroup var global: GlobalOptions

    @Option(help: "How many movies to show.")
    var count = 5

    @Option(help: "Output format: table or json.")
    var format: PickReport.Format = .table

    @Flag(help: "Also pick movies one of them has watched.")
    var includeWatched = false

    @OptionGroup var tonight: TonightOptions

    @Flag(help: "Rank by the weighted rating alone, without the members' taste.")
    var noTaste = false

    @Argument(help: "The members watching tonight.")
    var members: [String] = []

    func validate() throws {
        guard !members.isEmpty else { throw ValidationError("name the members watching tonight") }
        for member in members { _ = try NameArgument.validated(member, field: "member name") }
        guard count > 0 else { throw ValidationError("--count \(count) must be at least 1") }
    }

    func run() async throws {
        try await reporting {
            let loaded = try global.loadConfig()
            let region = loaded.family.region
            let store = try global.openStoreForReading(loaded)
            let config = try loaded.resolvingServices(store)
            var library = try store.movieNight(
                members: members, trendSince: Tonight.trendStart(global.time.now()), region: region,
                taste: !noTaste)
            if !library.unknown.isEmpty {
                let names = library.unknown.map(quoted).joined(separator: ", ")
                throw Failure.usage(
                    "there is no member \(names); see `mustc members`")
            }
            let filters = try await tonight.filters(
                global, config, memberLimits: !library.ageLimits.isEmpty, certifications: &library.certifications)
            if tonight.streaming { try warnOfUnseenServices(config, store: store) }
            let pick = Tonight.picks(
                library, count: count, includeWatched: includeWatched, filters: filters,
                services: config.family.services, region: region)
            let report = pick.render(format)
            if format == .json { Output.exact(report) } else { print(report) }
        }
    }

    /// A configured service that no movie in the library has (for the region): a warning naming close matches,
    /// not an error, as providers come and go.
    private func warnOfUnseenServices(_ config: Config, store: Store) throws {
        // Names only: counting every offer of the region made this most of pick's time.
        let seen = try store.providerNamesSeen(region: config.family.region)
        for service in config.family.services {
            let matcher = ServiceMatcher([service])
            guard !seen.contains(where: { matcher.matches(id: $0.id, name: $0.name) }) else { continue }
            let close = ServiceNames.closest(to: service, among: seen.map(\.name))
            Output.note(
                "warning: no movie in the library is on \(quoted(service)) (family.services) in "
                    + "\(config.family.region)"
                    + (close.isEmpty ? "" : "; did you mean \(close.map(quoted).joined(separator: ", "))?"))
        }
    }
}
