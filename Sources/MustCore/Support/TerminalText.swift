/// The one sanitiser for text meant for a terminal or a plain-text log. Titles come from TMDB (edited by the
/// public), from imported files and from users: an `ESC ] 0;…BEL` would retitle the terminal, `ESC [2J` clear it,
/// and a right-to-left override reorder the rest of the line. Each such character is written out as its escape,
/// `\u001B`, so it shows instead of acting, and a table's column widths stay right (the escape is plain ASCII).
/// The escape is JSON's own: JSON passed through here by mistake still reads back as the exact text (its encoder
/// already escapes C0, and a backslash in the text is already `\\`). The database stores the text unchanged.
public enum TerminalText {
    /// `text` with every control character made visible, except newline and tab.
    public static func visible(_ text: String) -> String {
        // Most text has none: one scan of the scalars, no copy.
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if isControl(scalar) {
                let hex = String(scalar.value, radix: 16, uppercase: true)
                out.append(contentsOf: ("\\u" + String(repeating: "0", count: 4 - hex.count) + hex).unicodeScalars)
            } else {
                out.append(scalar)
            }
        }
        return String(out)
    }

    /// `text` for one cell of a table or a CSV printed to a terminal: as `visible`, and newline, tab and carriage
    /// return shown as `\n`, `\t`, `\r` too, so a title holding one cannot split its row or fake another.
    public static func cell(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { isControl($0) || $0 == "\n" || $0 == "\t" }) else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": out.append(contentsOf: #"\n"#.unicodeScalars)
            case "\t": out.append(contentsOf: #"\t"#.unicodeScalars)
            case "\r": out.append(contentsOf: #"\r"#.unicodeScalars)
            default: out.append(contentsOf: visible(String(scalar)).unicodeScalars)
            }
        }
        return String(out)
    }

    /// At most `width` characters: a longer text keeps its first `width - 1` and ends with `…`. One 10,000-character
    /// title padded every row of a 31-movie table to 321 KB.
    public static func cut(_ text: String, width: Int) -> String {
        guard text.count > width else { return text }
        return String(text.prefix(max(width - 1, 0))) + "…"
    }

    /// C0 but newline and tab, DEL, C1, the bidi embeddings, overrides (U+202A–U+202E) and isolates
    /// (U+2066–U+2069), and the format characters that show nothing yet move, hide or join text: the soft hyphen,
    /// the Arabic letter mark, the Mongolian vowel separator, the zero-width space, the left-to-right and
    /// right-to-left marks, the word joiner and invisible operators (U+2060–U+2064), the deprecated format
    /// characters (U+206A–U+206F), the byte order mark, the interlinear annotations and the shorthand format
    /// controls. The zero-width non-joiner and joiner (U+200C, U+200D) are left alone: Persian, Indic scripts and
    /// emoji sequences need them to be written right, and neither reorders nor hides anything.
    public static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0A, 0x09: false
        case 0x00...0x1F, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069: true
        case 0xAD, 0x61C, 0x180E, 0x200B, 0x200E, 0x200F, 0x2060...0x2064, 0x206A...0x206F, 0xFEFF,
            0xFFF9...0xFFFB, 0x1BCA0...0x1BCA3:
            true
        default: false
        }
    }
}
