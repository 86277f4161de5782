import Foundation
import MustCore
import Testing

/// The two guards on text leaving mustc: `TerminalText` for a terminal, `SpreadsheetText` for a CSV.
@Suite struct OutputSafetyTests {
    @Test(arguments: [
        ("plain Amélie 千と千尋", "plain Amélie 千と千尋"),
        ("tab\tand\nnewline stay", "tab\tand\nnewline stay"),
        ("\u{1B}]0;title\u{07}", "\\u001B]0;title\\u0007"),
        ("nul\u{0}del\u{7F}", "nul\\u0000del\\u007F"),
        ("c1\u{80}\u{85}\u{9F}", "c1\\u0080\\u0085\\u009F"),
        ("bidi\u{202A}\u{202E}\u{2066}\u{2069}", "bidi\\u202A\\u202E\\u2066\\u2069"),
        ("cr\r", "cr\\u000D"),
    ])
    func controlsAreWrittenOutAndTheRestKept(_ input: String, _ shown: String) {
        #expect(TerminalText.visible(input) == shown)
    }

    /// JSON passed through the sanitiser by mistake still reads back as the exact text.
    @Test func jsonThroughTheSanitiserReadsBackExactly() throws {
        let title = "a\\b\u{85}c\u{202E}d\u{1B}e\"f"
        let json = String(decoding: try JSONEncoder().encode(["title": title]), as: UTF8.self)
        let shown = TerminalText.visible(json)
        #expect(!shown.unicodeScalars.contains { TerminalText.isControl($0) })
        let back = try JSONDecoder().decode([String: String].self, from: Data(shown.utf8))
        #expect(back["title"] == title)
    }

    @Test(arguments: [
        ("=SUM(A1)", "'=SUM(A1)"), ("+1", "'+1"), ("-2", "'-2"), ("@x", "'@x"), ("\tx", "'\tx"), ("\rx", "'\rx"),
        ("'=x", "''=x"), ("''+1", "'''+1"), ("'Twas", "'Twas"), ("'", "'"), ("", ""), ("Up", "Up"), ("a=b", "a=b"),
    ])
    func formulasAreGuardedAndTheGuardComesOffExactly(_ field: String, _ written: String) {
        #expect(SpreadsheetText.guarded(field) == written)
        #expect(SpreadsheetText.unguarded(written) == field)
    }
}
