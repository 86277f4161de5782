import Foundation

/// The fold used to match member names and movie titles: like NSPredicate's `==[dc]`, but for all of Unicode.
///
/// Compatibility-normalizes first (full-width letters, ligatures), folds case and diacritics,
/// spells out the letters Unicode does not decompose (œ, æ, ø, ł, …), and collapses whitespace.
public enum TitleKey {
    public static func make(_ text: String) -> String {
        let folded = text.precomposedStringWithCompatibilityMapping
            .folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
        var spelled = ""
        spelled.reserveCapacity(folded.utf8.count)
        for scalar in folded.unicodeScalars {
            if let replacement = spelledOut[scalar] {
                spelled += replacement
            } else {
                spelled.unicodeScalars.append(scalar)
            }
        }
        return spelled.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// Letters with no canonical decomposition, so diacritic folding leaves them alone,
    /// plus typographic punctuation people type interchangeably with its ASCII twin.
    private static let spelledOut: [Unicode.Scalar: String] = [
        "œ": "oe", "æ": "ae", "ø": "o", "ł": "l", "đ": "d", "ð": "d", "þ": "th",
        "ı": "i", "ħ": "h", "ŧ": "t", "ŋ": "n", "ĸ": "k", "ſ": "s",
        "\u{2018}": "'", "\u{2019}": "'", "\u{02BC}": "'", "\u{201C}": "\"", "\u{201D}": "\"",
        "\u{2010}": "-", "\u{2011}": "-", "\u{2013}": "-", "\u{2014}": "-",
    ]
}
