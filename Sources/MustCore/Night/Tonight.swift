import Foundation

/// Tonight's picks and suggestions, assembled in one place: `pick`, `suggest`, the `/night` page and the tonight
/// notification all call it, so they rank, filter and locate the same way.
public enum Tonight {
    /// The window of the trends and sparklines: what "this week's move" means everywhere, and the default of
    /// `ratings --trend` and `changes --since`.
    public static let trendWindow: TimeInterval = 7 * 86_400
    /// `trendWindow` as a duration is written on the command line.
    public static let trendWindowText = "7d"

    /// The start of the trend window ending at `now`.
    public static func trendStart(_ now: Date) -> Date { now.addingTimeInterval(-trendWindow) }

    /// The watchers' picks under tonight's choices, best first, each with where it streams on `services`.
    public static func picks(
        _ library: NightLibrary, count: Int, includeWatched: Bool = false, filters: NightFilters = NightFilters(),
        services: [String], region: String
    ) -> PickReport {
        var report = PickReport(library, count: count, includeWatched: includeWatched, filters: filters)
        report.locate(services: services, region: region)
        return report
    }

    /// Something new for the watchers under the same choices: the shortlist read from what the fetch stored (this
    /// never asks TMDB), ranked.
    public static func suggestions(
        _ watchers: SuggestionLibrary, count: Int, filters: NightFilters, region: String, store: Store
    ) throws(StoreError) -> SuggestReport {
        var watchers = watchers
        watchers.candidates = try store.suggestionShortlist(
            for: watchers, region: region, count: count, filters: filters)
        return SuggestReport(watchers, count: count, filters: filters)
    }
}
