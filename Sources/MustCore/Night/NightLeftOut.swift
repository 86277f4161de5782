import Foundation

/// What tonight's choices left out of the picks, counted by choice: "3 movies left out: 2 above PG (Leo's limit),
/// 1 longer than 90 minutes". Only movies the watchers could otherwise pick count (not those already watched,
/// unless watched ones are included), so an empty pick is never blamed on the family when a choice emptied it.
/// A movie two choices leave out counts under both: each count is what relaxing that one choice could bring back.
public struct NightLeftOut: Sendable, Equatable {
    /// Why a movie was left out; the raw values are the JSON's keys.
    public enum Reason: String, CaseIterable, Sendable, Hashable {
        case aboveAgeLimit, noCertification, tooLong, unknownRuntime, notOnServices, otherGenres
    }

    /// How many movies at least one choice left out.
    public var movies = 0
    public var counts: [Reason: Int] = [:]
    /// The limit that applied, and whose it is (see `NightFilters.limitSource`), for the words.
    public var limit: NightLimit?
    public var maxMinutes: Int?
    public var genres: [String] = []

    public init() {}

    public init(filters: NightFilters, library: NightLibrary) {
        limit = filters.limitSource(library)
        maxMinutes = filters.maxMinutes
        genres = filters.genres
    }

    public func count(_ reason: Reason) -> Int { counts[reason] ?? 0 }

    /// The reasons with a count, in a fixed order.
    public var reasons: [Reason] { Reason.allCases.filter { count($0) > 0 } }

    mutating func add(_ reasons: [Reason]) {
        guard !reasons.isEmpty else { return }
        movies += 1
        for reason in reasons { counts[reason, default: 0] += 1 }
    }

    /// "3 movies left out: 2 above PG (Leo's limit), 1 longer than 90 minutes"; nil when nothing was.
    public var text: String? {
        guard movies > 0 else { return nil }
        return summary + ": " + reasons.map(phrase).joined(separator: ", ")
    }

    /// "3 movies left out".
    public var summary: String { "\(movies) movie\(movies == 1 ? "" : "s") left out" }

    /// "2 above PG (Leo's limit)", "1 longer than 90 minutes".
    public func phrase(_ reason: Reason) -> String {
        let count = count(reason)
        let words: String
        switch reason {
        case .aboveAgeLimit:
            words = "above \(limit?.limit ?? "the age limit") (\(limit?.whose ?? "tonight's") limit)"
        case .noCertification: words = "with no certification"
        case .tooLong: words = "longer than \(maxMinutes ?? 0) minutes"
        case .unknownRuntime: words = "with no known runtime"
        case .notOnServices: words = "not on our services"
        case .otherGenres: words = "not " + MovieNight.names(genres, joiner: " or ")
        }
        return "\(count) \(words)"
    }
}

extension NightLeftOut: Encodable {
    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// `{"movies": 3, "aboveAgeLimit": 2, "tooLong": 1, …}`: every key, 0 when nothing was left out for it.
    // Hand-written: a key for each `Reason` case, so a reason added is a key added, with no second list to keep.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(movies, forKey: Key(stringValue: "movies"))
        for reason in Reason.allCases { try container.encode(count(reason), forKey: Key(stringValue: reason.rawValue)) }
    }
}

/// The age limit that applies tonight, and where it comes from.
public struct NightLimit: Sendable, Equatable {
    /// The strictest limit, as the region writes it.
    public var limit: String
    /// The watchers whose own limit is that strict, in name order; empty when only tonight's choice is.
    public var owners: [String]
    /// The limit chosen tonight, if any (it may be less strict than `limit`).
    public var chosen: String?

    /// "Leo's", "Ann's and Leo's", or "tonight's" when no watcher's own limit is as strict.
    public var whose: String {
        owners.isEmpty ? "tonight's" : MovieNight.names(owners.map { $0 + "'s" })
    }

    /// "Age limit: PG-13, Leo's own limit, stricter than the R chosen", "Age limit: PG, chosen tonight, stricter
    /// than Leo's own (PG-13)": which limit applies and why, as the menu can only make the members' own stricter.
    public func line(ownLimits: [String: String]) -> String {
        var text = "Age limit: \(limit), "
        if owners.isEmpty {
            text += "chosen tonight"
            let own = ownLimits.sorted { $0.key < $1.key }.map { "\($0.key)'s own (\($0.value))" }
            if !own.isEmpty { text += ", stricter than " + MovieNight.names(own) }
        } else {
            text += "\(whose) own limit"
            if let chosen, chosen.uppercased() != limit.uppercased() {
                text += ", stricter than the \(chosen) chosen"
            } else if chosen != nil {
                text += ", as chosen"
            }
        }
        return text
    }
}
