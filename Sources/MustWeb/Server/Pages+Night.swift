import Foundation
import Hummingbird
import MustCore

extension Pages {
    /// `/night?member=Ann&member=Bob[&watched=include]`: `mustc pick Ann Bob` as a page.
    func night(members names: [String], includeWatched: Bool) async throws -> Response {
        let since = Date().addingTimeInterval(-(Durations.parse(Self.window) ?? 7 * 86400))
        let chosen = names.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        let (everyone, library) = try await reader.read { store in
            (try store.members(), chosen.isEmpty ? nil : try store.movieNight(members: chosen, trendSince: since))
        }
        if let unknown = library?.unknown, !unknown.isEmpty {
            throw PageError.badRequest(
                "There is no member \(unknown.map { "\"\($0)\"" }.joined(separator: ", ")). Tick members from the list."
            )
        }
        let report = library.map { PickReport($0, count: NightPage.count, includeWatched: includeWatched) }
        return site.page(
            NightPage(members: everyone, chosen: chosen, report: report, includeWatched: includeWatched),
            template: "night")
    }
}
