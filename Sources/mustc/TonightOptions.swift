import ArgumentParser
import Foundation
import MustCore

/// Tonight's choices, as `pick` and `suggest` take them: a runtime limit, an age limit, the family's services and
/// genres, checked and turned into `NightFilters` against the region's certifications.
struct TonightOptions: ParsableArguments {
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

    func validate() throws {
        if let maxMinutes, maxMinutes < 1 {
            throw ValidationError("--max-minutes \(maxMinutes) must be a number of minutes of at least 1")
        }
        for name in genre where name.trimmingCharacters(in: .whitespaces).isEmpty {
            throw ValidationError("--genre takes a genre's name, such as Comedy")
        }
    }

    /// The filters, with `certifications` filled from TMDB (once, then kept) when an age limit needs the order.
    func filters(
        _ global: GlobalOptions, _ config: Config, memberLimits: Bool, certifications: inout [RegionCertification]
    ) async throws -> NightFilters {
        var filters = NightFilters(maxMinutes: maxMinutes, includeUnrated: includeUnrated, genres: genre)
        // A member's limit set under another region needs this region's order too.
        if ageLimit != nil || memberLimits, certifications.isEmpty {
            certifications = try await Certifications.order(global, config)
        }
        if let ageLimit {
            filters.ageLimit = try Certifications.checked(
                ageLimit, in: certifications, region: config.family.region, option: "--age-limit")
        }
        if streaming {
            guard !config.family.services.isEmpty else {
                throw Failure.config(
                    "--streaming keeps movies on the family's services, and none are chosen; choose them with "
                        + "`mustc providers --ours NAME`, on the page's settings, or in family.services")
            }
            filters.streaming = ServiceMatcher(config.family.services)
        }
        return filters
    }
}
