import MustCore
import Testing

@Suite struct TitleKeyTests {
    @Test(arguments: [
        ("Amélie", "AMELIE"), ("Amélie", "amélie"), ("Ame\u{301}lie", "Am\u{E9}lie"), ("Straße", "STRASSE"),
        ("Cœur", "coeur"), ("CŒUR", "coeur"), ("Æon Flux", "AEON FLUX"), ("Łódź", "lodz"), ("Ørsted", "orsted"),
        ("ＡＭＥＬＩＥ", "amelie"), ("Ｕｐ", "UP"), ("  The   Matrix ", "the matrix"), ("C’est la vie", "C'est la vie"),
        ("ﬁlm", "film"), ("Þór", "thor"), ("Đorđe", "dorde"), ("Bob", "bob"),
    ])
    func matches(_ left: String, _ right: String) {
        #expect(TitleKey.make(left) == TitleKey.make(right))
    }

    /// Invisible characters a paste or an export carries, and punctuation twins (version 2 of the fold).
    @Test(arguments: [
        ("Up", "U\u{00AD}p"), ("Up", "\u{FEFF}Up"), ("Up", "Up\u{2060}"), ("Up", "U\u{200B}p"), ("Ann", "An\u{00AD}n"),
        ("\"Ran\"", "„Ran\u{201C}"), ("\"Ran\"", "«Ran»"), ("Don't", "Don´t"), ("Don't", "Don‚t"), ("Don't", "Don′t"),
        ("2001 - A", "2001 ‒ A"), ("2001 - A", "2001 ― A"), ("2001 - A", "2001 − A"),
    ])
    func ignoresInvisibleCharactersAndFoldsPunctuationTwins(_ left: String, _ right: String) {
        #expect(TitleKey.make(left) == TitleKey.make(right))
    }

    @Test(arguments: [("Up", "Us"), ("Amélie", "Amelia"), ("Heat", "Heat 2"), ("a+b", "a b"), ("50% Off", "50 Off")])
    func distinguishes(_ left: String, _ right: String) {
        #expect(TitleKey.make(left) != TitleKey.make(right))
    }

    @Test func producesLowercaseAsciiForLatinTitles() {
        #expect(TitleKey.make("  Le Fabuleux   Destin d'AMÉLIE ") == "le fabuleux destin d'amelie")
    }

    @Test func keepsNonLatinScripts() {
        #expect(TitleKey.make("千と千尋の神隠し") == "千と千尋の神隠し")
        #expect(TitleKey.make("Ёлки") == TitleKey.make("ёлки"))
    }
}

@Suite struct NameValidationTests {
    @Test func trimsOuterWhitespace() throws {
        #expect(try NameValidation.validate("  Amélie  ", field: "movie title") == "Amélie")
    }

    @Test(arguments: ["", "   ", "\u{3000}"])
    func rejectsEmpty(_ name: String) {
        #expect(throws: NameProblem.empty(field: "member name")) {
            try NameValidation.validate(name, field: "member name")
        }
    }

    @Test(arguments: ["a\tb", "line\nbreak", "esc\u{1B}[31m", "nul\u{0}"])
    func rejectsControlCharacters(_ name: String) {
        #expect(throws: NameProblem.controlCharacter(field: "movie title")) {
            try NameValidation.validate(name, field: "movie title")
        }
    }

    @Test(arguments: [
        ("U\u{202E}p", "U+202E", 2), ("\u{202A}Up", "U+202A", 1), ("Up\u{2066}", "U+2066", 3),
        ("Amélie\u{2069}", "U+2069", 7),
    ])
    func rejectsTextDirectionControlsNamingThem(_ name: String, _ code: String, _ position: Int) {
        #expect(throws: NameProblem.bidiControl(field: "movie title", scalar: code, position: position)) {
            try NameValidation.validate(name, field: "movie title")
        }
        #expect(
            NameProblem.bidiControl(field: "movie title", scalar: code, position: position).description
                .contains("\(code) at character \(position)"))
    }

    @Test func rejectsOverlongAndAcceptsTheLimit() throws {
        #expect(throws: NameProblem.tooLong(field: "movie title", limit: 200)) {
            try NameValidation.validate(String(repeating: "é", count: 201), field: "movie title")
        }
        #expect(try NameValidation.validate(String(repeating: "é", count: 200), field: "movie title").count == 200)
    }
}
