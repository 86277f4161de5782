/// What a message quotes of an input it could not use: at most 80 characters, in quotes, with control characters
/// written as escapes (`\u001B`, as `TerminalText` writes them; a line break too, so the message stays one line),
/// so that a binary file or a 50 MB line never reaches the terminal as it is.
enum Excerpt {
    static let limit = 80

    static func quoted(_ text: String) -> String { "\"\(shown(text))\"" }

    /// The same, without the quotes.
    static func shown(_ text: String) -> String {
        var shown = String.UnicodeScalarView()
        for (index, character) in text.enumerated() {
            guard index < limit else { return String(shown) + "…" }
            for scalar in character.unicodeScalars {
                if TerminalText.isControl(scalar) || scalar == "\n" || scalar == "\t" {
                    let hex = String(scalar.value, radix: 16, uppercase: true)
                    shown.append(
                        contentsOf: ("\\u" + String(repeating: "0", count: 4 - hex.count) + hex).unicodeScalars)
                } else {
                    shown.append(scalar)
                }
            }
        }
        return String(shown)
    }
}
