import Foundation

/// A family service as configured: a TMDB provider id, or a name matched ignoring case and accents.
public struct ServiceMatcher: Sendable, Equatable {
    public var services: [String]
    private let ids: Set<Int>
    private let keys: Set<String>

    public init(_ services: [String]) {
        self.services = services
        ids = Set(services.compactMap { Int($0) })
        keys = Set(services.filter { Int($0) == nil }.map(TitleKey.make))
    }

    public var isEmpty: Bool { services.isEmpty }

    public func matches(id: Int, name: String) -> Bool {
        ids.contains(id) || keys.contains(TitleKey.make(name))
    }

    /// `matches(id:name:)` for a name already folded (`TitleKey.make`).
    public func matches(id: Int, key: String) -> Bool {
        ids.contains(id) || keys.contains(key)
    }
}

/// Close matches for a service name nobody offers: names that contain it (or it them), ignoring case and accents,
/// or within a few edits of it; at most three, closest first.
public enum ServiceNames {
    public static func closest(to wanted: String, among names: [String]) -> [String] {
        let key = letters(wanted)
        let scored = Set(names).compactMap { name -> (Int, String)? in
            let other = letters(name)
            guard !other.isEmpty else { return nil }
            if !key.isEmpty, other.contains(key) || key.contains(other) { return (0, name) }
            let distance = EditDistance.between(Array(key), Array(other))
            return distance <= max(2, key.count / 3) ? (distance, name) : nil
        }
        return scored.sorted { ($0.0, $0.1) < ($1.0, $1.1) }.prefix(3).map(\.1)
    }

    /// Its letters and digits, folded: "Disney+" and "Disney Plus" meet at "disney".
    static func letters(_ name: String) -> String {
        String(TitleKey.make(name).filter { $0.isLetter || $0.isNumber })
    }
}
