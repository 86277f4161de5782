import Foundation
import Hummingbird
import MustCore

/// The `/night` form's choices beyond who watches, as its GET query carries them:
/// `minutes=100&age=PG&unrated=include&streaming=on&genre=Comedy`. Empty fields mean no choice.
struct NightChoices: Sendable, Equatable {
    var minutes: Int?
    var age: String?
    var includeUnrated = false
    var streaming = false
    var genres: [String] = []

    init() {}

    init(_ query: Parameters) throws {
        let text = { (name: Substring) in query[name].map(String.init)?.trimmingCharacters(in: .whitespaces) ?? "" }
        if !text("minutes").isEmpty {
            guard let minutes = Int(text("minutes")), minutes > 0, minutes <= 10_000 else {
                throw PageError.badRequest("The runtime limit must be a whole number of minutes, such as 120.")
            }
            self.minutes = minutes
        }
        age = text("age").isEmpty ? nil : text("age")
        includeUnrated = query["unrated"] == "include"
        streaming = query["streaming"] == "on"
        genres = query.getAll("genre").map { String($0).trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// This night's address for the watchers, opening at the picks.
    func href(members: [String], includeWatched: Bool) -> String {
        let value = WebPath.queryEncoded
        var parts = members.map { "member=" + value($0) }
        if includeWatched { parts.append("watched=include") }
        if let minutes { parts.append("minutes=\(minutes)") }
        if let age { parts.append("age=" + value(age)) }
        if includeUnrated { parts.append("unrated=include") }
        if streaming { parts.append("streaming=on") }
        parts += genres.map { "genre=" + value($0) }
        return "/night" + (parts.isEmpty ? "" : "?" + parts.joined(separator: "&")) + "#picks"
    }

    /// The same choices less the one that left movies out for `reason`; nil when the form cannot relax it (a
    /// member's own age limit is the settings', not tonight's).
    func relaxed(_ reason: NightLeftOut.Reason, limit: NightLimit?) -> NightChoices? {
        var choices = self
        switch reason {
        case .aboveAgeLimit:
            guard age != nil, limit?.owners.isEmpty == true else { return nil }
            choices.age = nil
        case .noCertification: choices.includeUnrated = true
        case .tooLong, .unknownRuntime: choices.minutes = nil
        case .notOnServices: choices.streaming = false
        case .otherGenres: choices.genres = []
        }
        return choices
    }
}

extension Pages {
    /// `/night?member=Ann&member=Bob[&watched=include][&minutes=…]`: `mustc pick Ann Bob …` as a page.
    /// Signed in, each pick has "We're watching this", which comes back to `back`, this page's address.
    func night(
        members names: [String], includeWatched: Bool, choices: NightChoices = NightChoices(), back: String = "/night"
    ) async throws -> Response {
        let since = trendStart
        let chosen = names.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        let region = family.region
        let services = try await familyServices().services
        let (everyone, read, genres, order, suggestible) = try await reader.read { store in
            (
                try store.members(),
                chosen.isEmpty
                    ? nil : try store.movieNight(members: chosen, trendSince: since, region: region, taste: true),
                try store.genresSeen(), try store.certificationOrder(region: region),
                // Only what the fetch stored: a page request never asks TMDB.
                chosen.isEmpty ? nil : try store.suggestionWatchers(members: chosen, region: region, taste: true)
            )
        }
        if let unknown = read?.unknown, !unknown.isEmpty {
            throw PageError.badRequest(
                "There is no member \(unknown.map { "\"\($0)\"" }.joined(separator: ", ")). Tick members from the list."
            )
        }
        // A kid's own limit applies to every night they look at, whoever is ticked, and never lets unrated through.
        let kid = Viewer.current.access.flatMap { $0.isKid ? $0.profile : nil }
        var (library, new) = (read, suggestible)
        if let kid, let limit = kid.ageLimit {
            library?.ageLimits[kid.name] = limit
            new?.ageLimits[kid.name] = limit
        }
        var filters = NightFilters(
            maxMinutes: choices.minutes, includeUnrated: choices.includeUnrated && kid?.ageLimit == nil,
            streaming: choices.streaming ? ServiceMatcher(services) : nil, genres: choices.genres)
        if let age = choices.age {
            guard let known = order.first(where: { $0.certification.uppercased() == age.uppercased() }) else {
                throw PageError.badRequest("\(region) has no certification \"\(age)\". Pick one from the list.")
            }
            filters.ageLimit = known.certification
        }
        var report = library.map { library in
            Tonight.picks(
                library, count: NightPage.count, includeWatched: includeWatched, filters: filters,
                services: services, region: region)
        }
        // `mustc suggest`'s answer under the same choices.
        var suggested: SuggestReport?
        if let new {
            suggested = try await reader.read { [filters] store in
                try Tonight.suggestions(new, count: NightPage.count, filters: filters, region: region, store: store)
            }
        }
        (report, suggested) = try await keptPosters(report, suggested)
        // Buttons for who may record nights: the family password and grown-ups, not kids.
        let signedIn = Viewer.current.access?.mayRecordNights == true ? EditRoutes.sitePath(back) : nil
        var page = NightPage(
            members: everyone, chosen: chosen, report: report, includeWatched: includeWatched, back: signedIn)
        if let report { page.explain(report, choices: choices, includeWatched: includeWatched) }
        if let suggested { page.suggest(suggested, services: services, region: region, back: signedIn) }
        page.offer(
            choices, genres: genres, certifications: order.map(\.certification), hasServices: !services.isEmpty,
            applied: library.flatMap { filters.limitSource($0) }, limits: library?.ageLimits ?? [:])
        return site.page(page, template: "night")
    }

    /// The picks' and suggestions' posters that are on the shelf (the others show the placeholder): a stat per
    /// poster, on the reader's threads rather than the event loop.
    private func keptPosters(_ report: PickReport?, _ suggested: SuggestReport?) async throws
        -> (PickReport?, SuggestReport?)
    {
        guard report != nil || suggested != nil else { return (nil, nil) }
        let shelf = posters
        return try await reader.read { _ in
            var (picks, new) = (report?.picks ?? [], suggested?.suggestions ?? [])
            for index in picks.indices {
                picks[index].candidate.posterPath = shelf.kept(picks[index].candidate.posterPath)
            }
            for index in new.indices { new[index].candidate.posterPath = shelf.kept(new[index].candidate.posterPath) }
            var (report, suggested) = (report, suggested)
            report?.picks = picks
            suggested?.suggestions = new
            return (report, suggested)
        }
    }
}
