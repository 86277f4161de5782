import Foundation

/// A member's own rating of a movie, stored on a 1–10 scale: Letterboxd's half stars (0.5–5) doubled, IMDb's
/// 1–10 as is.
public enum OwnRating {
    public static let range = 1...10

    /// `--rating`: "4.5/5" (half stars out of 5), "9/10", or a bare number out of 10. Nil for anything else,
    /// for a value outside its scale, and for what does not land on a whole point of 10 ("3.7/5", "7.5").
    public static func parse(_ text: String) -> Int? {
        let parts = text.trimmingCharacters(in: .whitespaces).split(separator: "/", omittingEmptySubsequences: false)
        guard let value = parts.first.flatMap({ Double($0) }), value.isFinite else { return nil }
        switch parts.count {
        case 1: return outOfTen(value)
        case 2 where parts[1] == "10": return outOfTen(value)
        case 2 where parts[1] == "5": return stars(value)
        default: return nil
        }
    }

    /// Letterboxd's `Rating`: a half star from 0.5 to 5, doubled.
    public static func stars(_ value: Double) -> Int? { outOfTen(value * 2) }

    public static func stars(_ text: String) -> Int? {
        Double(text.trimmingCharacters(in: .whitespaces)).flatMap(stars)
    }

    /// IMDb's `Your Rating` and mustc's own `ownRating`: a whole number from 1 to 10.
    public static func outOfTen(_ value: Double) -> Int? {
        guard value.isFinite, value == value.rounded(), range.contains(Int(exactly: value) ?? 0) else { return nil }
        return Int(value)
    }

    public static func outOfTen(_ text: String) -> Int? {
        Double(text.trimmingCharacters(in: .whitespaces)).flatMap(outOfTen)
    }
}
