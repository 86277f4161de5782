import Foundation

/// The fold used to match member names and movie titles: like NSPredicate's `==[dc]`, but for all of Unicode.
///
/// Drops invisible characters, maps typographic punctuation to its ASCII twin, compatibility-normalizes
/// (full-width letters, ligatures), folds case and diacritics, spells out the letters Unicode does not decompose
/// (œ, æ, ø, ł, …), and collapses whitespace.
public enum TitleKey {
    /// Stored with the database (`setting.titleKeyFold`): a database whose keys an older fold made is re-keyed on
    /// its next write open. 1: the first fold; 2: drops default-ignorable characters, folds more punctuation.
    public static let version = 2

    public static func make(_ text: String) -> String {
        var visible = String.UnicodeScalarView()
        for scalar in text.unicodeScalars where !scalar.properties.isDefaultIgnorableCodePoint {
            // Before normalization: NFKC would turn the acute accent ´ into a space and a combining mark.
            if let twin = punctuation[scalar] { visible.append(twin) } else { visible.append(scalar) }
        }
        let folded = String(visible).precomposedStringWithCompatibilityMapping
            .folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
        var spelled = ""
        spelled.reserveCapacity(folded.utf8.count)
        for scalar in folded.unicodeScalars {
            if let replacement = spelledOut[scalar] {
                spelled += replacement
            } else if let twin = punctuation[scalar] {
                spelled.unicodeScalars.append(twin)
            } else {
                spelled.unicodeScalars.append(scalar)
            }
        }
        return spelled.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// Letters with no canonical decomposition, so diacritic folding leaves them alone.
    private static let spelledOut: [Unicode.Scalar: String] = [
        "œ": "oe", "æ": "ae", "ø": "o", "ł": "l", "đ": "d", "ð": "d", "þ": "th",
        "ı": "i", "ħ": "h", "ŧ": "t", "ŋ": "n", "ĸ": "k", "ſ": "s",
    ]

    /// Typographic punctuation people type interchangeably with its ASCII twin.
    private static let punctuation: [Unicode.Scalar: Unicode.Scalar] = [
        "\u{2018}": "'", "\u{2019}": "'", "\u{201A}": "'", "\u{02BC}": "'", "\u{2032}": "'", "\u{00B4}": "'",
        "\u{201C}": "\"", "\u{201D}": "\"", "\u{201E}": "\"", "\u{00AB}": "\"", "\u{00BB}": "\"",
        "\u{2010}": "-", "\u{2011}": "-", "\u{2012}": "-", "\u{2013}": "-", "\u{2014}": "-", "\u{2015}": "-",
        "\u{2212}": "-",
    ]
}

/// `TitleKey.make` kept for the strings already folded, for one ranking of tonight's movies. A fold costs tens of
/// microseconds (Foundation's compatibility mapping and its case and diacritic folding: about 30 µs for "Comedy"
/// in an optimized build on the shared build machine), and the ranking folded the same few genre and provider
/// names again for every candidate, and every title: thousands of folds for 900 candidates.
public struct TitleKeyMemo {
    private var keys: [String: String] = [:]

    public init() {}

    public mutating func key(_ text: String) -> String {
        if let key = keys[text] { return key }
        let key = TitleKey.make(text)
        keys[text] = key
        return key
    }
}
