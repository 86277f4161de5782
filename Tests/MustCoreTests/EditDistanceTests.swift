import Testing

@testable import MustCore

/// Levenshtein's distance, whole and with the limit the library's scan for close titles gives it.
@Suite struct EditDistanceTests {
    static let pairs: [(String, String, Int)] = [
        ("", "", 0), ("", "abc", 3), ("abc", "", 3), ("spirited away", "spirted away", 1),
        ("kitten", "sitting", 3), ("amélie", "amelie", 1), ("dune", "dune", 0), ("abcdef", "fedcba", 6),
        ("the godfather", "godfather", 4), ("film 0000001", "spirted away", 12),
    ]

    @Test func wholeDistances() {
        for (a, b, distance) in Self.pairs {
            #expect(EditDistance.between(Array(a), Array(b)) == distance, "\(a) → \(b)")
            #expect(EditDistance.between(Array(b), Array(a)) == distance, "\(b) → \(a)")
        }
    }

    /// Within the limit the distance is exact; above it, anything above the limit may come back, and the scan
    /// answers limit + 1.
    @Test func aLimitStopsAboveItAndNeverUnderstates() {
        for (a, b, distance) in Self.pairs {
            for limit in 0...4 {
                let bounded = EditDistance.between(Array(a), Array(b), limit: limit)
                if distance <= limit {
                    #expect(bounded == distance, "\(a) → \(b) within \(limit)")
                } else {
                    #expect(bounded > limit, "\(a) → \(b) above \(limit): \(bounded)")
                }
            }
        }
    }
}
