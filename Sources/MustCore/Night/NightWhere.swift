import Foundation

/// Where a pick can be watched for this family: on one of its services at no extra cost, free for
/// anyone, on a service it does not have, to rent, to buy, nowhere in the region, or not read yet. Pure: made from
/// the offers stored for the region and the family's services.
public struct NightWhere: Sendable, Equatable, Encodable {
    public enum Kind: String, Sendable, Encodable {
        /// On one of `family.services` at no extra cost.
        case ours
        /// Free or with adverts, on a service the family need not have.
        case free
        /// A subscription the family does not have.
        case elsewhere
        case rent, buy
        /// The region's offers were read, and there is none.
        case none
        /// The region's offers were never read.
        case unknown
    }

    public var kind: Kind
    /// The providers meant, each once, in the order of the offers given (the store's: by kind, then name).
    public var providers: [String]
    public var region: String

    public init(kind: Kind, providers: [String], region: String) {
        (self.kind, self.providers, self.region) = (kind, providers, region)
    }

    /// The first kind that applies, in the order of `Kind`'s cases.
    public static func of(_ offers: [ProviderOffer]?, services: ServiceMatcher, region: String) -> NightWhere {
        guard let offers else { return NightWhere(kind: .unknown, providers: [], region: region) }
        let ours = offers.filter { $0.kind.noExtraCost && services.matches(id: $0.id, name: $0.name) }
        let tries: [(Kind, [ProviderOffer])] = [
            (.ours, ours),
            (.free, offers.filter { $0.kind == .free || $0.kind == .ads }),
            (.elsewhere, offers.filter { $0.kind == .flatrate }),
            (.rent, offers.filter { $0.kind == .rent }),
            (.buy, offers.filter { $0.kind == .buy }),
        ]
        for (kind, found) in tries where !found.isEmpty {
            var names: [String] = []
            for offer in found where !names.contains(offer.name) { names.append(offer.name) }
            return NightWhere(kind: kind, providers: names, region: region)
        }
        return NightWhere(kind: .none, providers: [], region: region)
    }

    /// "On Netflix", "Free on Tubi", "On Hulu, not one of ours", "Rent on Apple TV", "Not streaming in US".
    /// At most two names: "Rent on Apple TV or Google Play Movies".
    public var text: String {
        let names =
            providers.count > 2
            ? providers.prefix(2).joined(separator: ", ") + " or more"
            : MovieNight.names(
                providers, joiner: " or ")
        switch kind {
        case .ours: return "On \(names)"
        case .free: return "Free on \(names)"
        case .elsewhere: return "On \(names), not one of ours"
        case .rent: return "Rent on \(names)"
        case .buy: return "Buy on \(names)"
        case .none: return "Not streaming in \(region)"
        case .unknown: return "Where it streams: not read yet"
        }
    }

    /// For `pick`'s table: "Netflix", "free: Tubi", "rent: Apple TV", "none", "?"; the first provider only.
    public var short: String {
        let first = providers.first ?? ""
        switch kind {
        case .ours: return first
        case .free: return "free: " + first
        case .elsewhere: return "other: " + first
        case .rent: return "rent: " + first
        case .buy: return "buy: " + first
        case .none: return "none"
        case .unknown: return "?"
        }
    }
}
