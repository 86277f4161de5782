import Foundation
import MustCore
import Testing

/// The pure parts of the written-output checks: JSON's escapes, table cells, watched days and Letterboxd list names.
@Suite struct WrittenTextTests {
    struct Titled: Encodable { var title: String }

    @Test(arguments: ["\u{9B}", "\u{7F}", "\u{202A}", "\u{202E}", "\u{2066}", "\u{2069}", "\u{85}"])
    func jsonEscapesEachInvisibleCharacterAndDecodesBack(_ character: String) throws {
        let title = "a\(character)b ’“–” é"
        let json = ReportRenderer.json(Titled(title: title))
        let hex = String(character.unicodeScalars.first!.value, radix: 16)
        #expect(json.contains("a\\u" + String(repeating: "0", count: 4 - hex.count) + hex + "b"), "\(json)")
        #expect(!json.unicodeScalars.contains(character.unicodeScalars.first!))
        #expect(json.contains("’“–” é"), "other non-ASCII text stays as it is")
        let decoded = try JSONDecoder().decode([String: String].self, from: Data(json.utf8))
        #expect(decoded["title"] == title)
    }

    @Test func aCellShowsLineBreaksAndTabsAndIsCut() {
        #expect(TerminalText.cell("a\nb\tc\rd\u{1B}") == #"a\nb\tc\rd\u001B"#)
        #expect(
            TerminalText.cut(String(repeating: "x", count: 61), width: 60) == String(repeating: "x", count: 59) + "…")
        #expect(TerminalText.cut(String(repeating: "x", count: 60), width: 60) == String(repeating: "x", count: 60))
    }

    @Test func aWatchedDaySaysWhatIsWrongWithIt() throws {
        let today = try #require(WatchDay.parse("2026-11-25"))
        #expect(WatchDay.problem("2026-11-25", today: today) == nil)
        #expect(WatchDay.problem("2026-11-26", today: today)?.hasPrefix("is after today") == true)
        #expect(WatchDay.problem("2999-01-01", today: today)?.hasPrefix("is after today") == true)
        #expect(WatchDay.problem("1700-01-01", today: today)?.hasPrefix("is too early") == true)
        #expect(WatchDay.problem("2024-02-30", today: today) == "is not a day written YYYY-MM-DD")
        #expect(WatchDay.problem("yesterday", today: today) == "is not a day written YYYY-MM-DD")
    }

    @Test func aLetterboxdListIsNamedOnlyByItsExactFileName() {
        #expect(LetterboxdList.named("watched.csv") == .watched)
        #expect(LetterboxdList.named("/home/ann/Downloads/WATCHLIST.csv") == .watchlist)
        #expect(LetterboxdList.named("letterboxd-ann.zip:diary.csv") == .diary)
        for name in ["-", "/dev/stdin", "watched (1).csv", "my-watched.csv", "watched.txt"] {
            #expect(LetterboxdList.named(name) == nil, "\(name)")
        }
    }
}
