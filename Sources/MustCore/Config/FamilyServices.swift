import Foundation

/// The services the family pays for, as every command, the page and the fetch read them.
/// `family.services` in the config wins when it lists any: the page then shows them read-only and says where they
/// are set. Otherwise the choice made on the page's settings or with `mustc providers --ours` counts, kept in the
/// database as TMDB provider ids. A kept choice the config shadows is not lost: it applies again once the config
/// lists none, and the page and `mustc providers` say so.
public struct FamilyServices: Sendable, Equatable {
    public enum Source: String, Sendable {
        /// `family.services` in the config.
        case config
        /// Chosen on the page or with `mustc providers --ours`.
        case chosen
        /// Neither: no services.
        case none
    }

    /// What everything matches against (`ServiceMatcher`): names or ids as text.
    public var services: [String]
    public var source: Source
    /// The choice kept in the database, also while the config shadows it; nil when none was ever made.
    public var chosen: [Int]?
    /// When that choice was made.
    public var chosenAt: Date?

    public init(configured: [String], chosen: [Int]?, chosenAt: Date? = nil) {
        (self.chosen, self.chosenAt) = (chosen, chosenAt)
        if !configured.isEmpty {
            (services, source) = (configured, .config)
        } else if let chosen {
            (services, source) = (chosen.map(String.init), .chosen)
        } else {
            (services, source) = ([], .none)
        }
    }

    /// The kept choice is shadowed by the config: kept, but not used until the config lists no services.
    public var shadowed: Bool { source == .config && !(chosen ?? []).isEmpty }
}

extension Config {
    /// This config with `family.services` as everything reads them: the config's own when it lists any, else the
    /// choice kept in the database (`FamilyServices`).
    public func resolvingServices(_ store: Store) throws(StoreError) -> Config {
        var config = self
        config.family.services = try store.familyServices(configured: family.services).services
        return config
    }
}

/// When the region's certification list (GET /certification/movie/list) is asked of TMDB again: when it was never
/// asked (or not since its time was first recorded), and 30 days after the last answer. The list changes rarely;
/// one request a month keeps a new rating of the region from going unseen for long.
public enum CertificationRefresh {
    public static let every: TimeInterval = 30 * 86_400

    /// A time after `now` (the clock was set back) counts as due, so a wrong clock cannot put it off for years.
    public static func isDue(checkedAt: Date?, now: Date) -> Bool {
        guard let checkedAt else { return true }
        return checkedAt > now || now.timeIntervalSince(checkedAt) >= every
    }
}
