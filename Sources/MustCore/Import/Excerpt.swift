/// What a message quotes of an input it could not use: at most 80 characters, in quotes, with control characters
/// made visible, so that a binary file or a 50 MB line never reaches the terminal as it is.
enum Excerpt {
    static let limit = 80

    static func quoted(_ text: String) -> String { "\"\(shown(text))\"" }

    /// The same, without the quotes.
    static func shown(_ text: String) -> String {
        var shown = ""
        for (index, character) in text.enumerated() {
            guard index < limit else { return shown + "…" }
            for scalar in character.unicodeScalars { shown += visible(scalar) }
        }
        return shown
    }

    /// C0 controls as their control pictures (␀, ␉, ␍), DEL as ␡, C1 controls as U+0080-style codes.
    private static func visible(_ scalar: Unicode.Scalar) -> String {
        switch scalar.value {
        case 0..<0x20: String(Unicode.Scalar(0x2400 + scalar.value)!)
        case 0x7F: "␡"
        case 0x80...0x9F: "<U+00\(String(scalar.value, radix: 16, uppercase: true))>"
        default: String(scalar)
        }
    }
}
