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
            Each member's taste moves the weighted rating: from their own ratings, how far they rate each genre \
            above or below TMDB, shrunk toward nothing for a genre they rated few movies of and bounded to 2 \
            points; the picks go by the mean of the watchers' predicted ratings, and the reason says whose taste \
            moved a pick. --no-taste ranks by the weighted rating alone. Each line ends with the runtime, the \
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

    @Option(help: ArgumentHelp("Only movies that last at most this many minutes.", valueName: "N"))
    var maxMinutes: Int?

    @Option(
        help: ArgumentHelp("Nothing above this certification (the members' own limits apply too).", valueName: "CERT"))
    var ageLimit: String?

    @Flag(help: "Keep movies with no certification in the region under an age limit.")
    var includeUnrated = false

    @Flag(help: "Only movies on one of the family's services (family.services) at no extra cost.")
    var streaming = false

    @Option(help: ArgumentHelp("Only movies of this genre; repeat for any of several.", valueName: "NAME"))
    var genre: [String] = []

    @Flag(help: "Rank by the weighted rating alone, without the members' taste.")
    var noTaste = false

    @Argument(help: "The members watching tonight.")
    var members: [String] = []

    func validate() throws {
        guard !members.isEmpty else { throw ValidationError("name the members watching tonight") }
        for member in members { _ = try NameArgument.validated(member, field: "member name") }
        guard count > 0 else { throw ValidationError("--count \(count) must be at least 1") }
        if let maxMinutes, maxMinutes < 1 {
            throw ValidationError("--max-minutes \(maxMinutes) must be a number of minutes of at least 1")
        }
        for name in genre where name.trimmingCharacters(in: .whitespaces).isEmpty {
            throw ValidationError("--genre takes a genre's name, such as Comedy")
        }
    }

    func run() async throws {
        try await reporting {
            let config = try global.loadConfig()
            let region = config.family.region
            let store = try global.openStoreForReading(config)
            var library = try store.movieNight(
                members: members, trendSince: global.time.now().addingTimeInterval(-7 * 86_400), region: region,
                taste: !noTaste)
            if !library.unknown.isEmpty {
                let names = library.unknown.map(quoted).joined(separator: ", ")
                throw Failure.usage(
                    "there is no member \(names); see `mustc members`")
            }
            var filters = NightFilters(maxMinutes: maxMinutes, includeUnrated: includeUnrated, genres: genre)
            // A member's limit set under another region needs this region's order too.
            if ageLimit != nil || !library.ageLimits.isEmpty, library.certifications.isEmpty {
                library.certifications = try await Certifications.order(global, config)
            }
            if let ageLimit {
                filters.ageLimit = try Certifications.checked(
                    ageLimit, in: library.certifications, region: region, option: "--age-limit")
            }
            if streaming {
                guard !config.family.services.isEmpty else {
                    throw Failure.config(
                        "--streaming keeps movies on the family's services, and family.services is empty; list them "
                            + "there by name or id (see `mustc providers`)")
                }
                filters.streaming = ServiceMatcher(config.family.services)
                try warnOfUnseenServices(config, store: store)
            }
            var pick = PickReport(library, count: count, includeWatched: includeWatched, filters: filters)
            pick.locate(services: config.family.services, region: region)
            let report = pick.render(format)
            if format == .json { Output.exact(report) } else { print(report) }
        }
    }

    /// A configured service that no movie in the library has (for the region): a warning naming close matches,
    /// not an error, as providers come and go.
    private func warnOfUnseenServices(_ config: Config, store: Store) throws {
        let seen = try store.providersSeen(region: config.family.region)
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
