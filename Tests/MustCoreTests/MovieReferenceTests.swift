import MustCore
import Testing

/// Every way to name a movie, and every malformed one, as a table.
@Suite struct MovieReferenceTests {
    @Test(
        arguments: [
            ("Dune", nil, MovieReference.title("Dune", year: nil)),
            ("  Dune  ", nil, .title("Dune", year: nil)),
            ("Dune (1984)", nil, .title("Dune", year: 1984)),
            ("Dune(2021)", nil, .title("Dune", year: 2021)),
            ("Dune", 1984, .title("Dune", year: 1984)),
            ("Dune (1984)", 1984, .title("Dune", year: 1984)),
            ("The Lion King (1994)", nil, .title("The Lion King", year: 1994)),
            ("(500) Days of Summer", nil, .title("(500) Days of Summer", year: nil)),
            ("Blade Runner 2049", nil, .title("Blade Runner 2049", year: nil)),
            ("1917", nil, .title("1917", year: nil)),
            ("(1984)", nil, .title("(1984)", year: nil)),
            ("Dune (84)", nil, .title("Dune (84)", year: nil)),
            ("Dune (part one)", nil, .title("Dune (part one)", year: nil)),
            ("Amélie (2001)", nil, .title("Amélie", year: 2001)),
            ("Nosferatu (1870)", nil, .title("Nosferatu", year: 1870)),
            ("Far Future (2100)", nil, .title("Far Future", year: 2100)),
            ("tmdb:438631", nil, .tmdb(438631)),
            ("TMDB:841", nil, .tmdb(841)),
            ("tmdb: 841", nil, .tmdb(841)),
            ("imdb:tt1160419", nil, .imdb("tt1160419")),
            ("IMDB:TT0087182", nil, .imdb("tt0087182")),
            ("imdb:tt10872600", nil, .imdb("tt10872600")),
            ("https://www.themoviedb.org/movie/438631-dune", nil, .tmdb(438631)),
            ("https://www.themoviedb.org/movie/841", nil, .tmdb(841)),
            ("http://themoviedb.org/movie/841-dune/cast?language=de", nil, .tmdb(841)),
            ("www.themoviedb.org/movie/841-dune", nil, .tmdb(841)),
            ("https://www.imdb.com/title/tt1160419/", nil, .imdb("tt1160419")),
            ("https://m.imdb.com/title/tt0087182/?ref_=nv_sr_srsg_0", nil, .imdb("tt0087182")),
            ("imdb.com/title/tt0110357", nil, .imdb("tt0110357")),
            ("https://www.imdb.com/de/title/tt6105098/", nil, .imdb("tt6105098")),
        ] as [(String, Int?, MovieReference)])
    func parses(_ raw: String, _ year: Int?, _ expected: MovieReference) throws {
        #expect(try MovieReference.parse(raw, year: year) == expected)
    }

    @Test(
        arguments: [
            ("tmdb:abc", nil, MovieReferenceProblem.badTMDBId("tmdb:abc")),
            ("tmdb:", nil, .badTMDBId("tmdb:")),
            ("tmdb:0", nil, .badTMDBId("tmdb:0")),
            ("tmdb:-5", nil, .badTMDBId("tmdb:-5")),
            ("tmdb:99999999999", nil, .badTMDBId("tmdb:99999999999")),
            ("imdb:123", nil, .badIMDbId("imdb:123")),
            ("imdb:tt12", nil, .badIMDbId("imdb:tt12")),
            ("imdb:nm0000123", nil, .badIMDbId("imdb:nm0000123")),
            ("Dune (1700)", nil, .yearOutOfRange("Dune (1700)")),
            ("Dune (2101)", nil, .yearOutOfRange("Dune (2101)")),
            ("Dune", 1869, .yearOutOfRange("--year 1869")),
            ("Dune", 3000, .yearOutOfRange("--year 3000")),
            ("Dune (1984)", 2021, .conflictingYears("Dune (1984)", 2021)),
            ("tmdb:841", 1984, .yearWithId("tmdb:841")),
            ("https://example.com/movie/841", nil, .notATitleURL("https://example.com/movie/841")),
            ("https://www.themoviedb.org/tv/1399", nil, .notATitleURL("https://www.themoviedb.org/tv/1399")),
            ("https://www.themoviedb.org/movie/dune", nil, .notATitleURL("https://www.themoviedb.org/movie/dune")),
            ("https://www.imdb.com/name/nm0000123/", nil, .notATitleURL("https://www.imdb.com/name/nm0000123/")),
            ("https://www.imdb.com/title/123/", nil, .notATitleURL("https://www.imdb.com/title/123/")),
        ] as [(String, Int?, MovieReferenceProblem)])
    func rejects(_ raw: String, _ year: Int?, _ problem: MovieReferenceProblem) {
        #expect(throws: problem) { try MovieReference.parse(raw, year: year) }
    }

    @Test func problemsNameTheArgument() {
        for raw in ["tmdb:abc", "imdb:123", "Dune (1700)", "https://example.com/x"] {
            #expect {
                try MovieReference.parse(raw)
            } throws: { error in
                "\(error)".contains(raw.debugDescription)
            }
        }
    }

    @Test func emptyAndControlCharacterTitlesAreNameProblems() {
        #expect(throws: MovieReferenceProblem.self) { try MovieReference.parse("  ") }
        #expect(throws: MovieReferenceProblem.self) { try MovieReference.parse("Bad\u{7}Title (1984)") }
    }

    @Test(arguments: [
        (MovieReference.title("Dune", year: 1984), "\"Dune (1984)\""), (.title("Dune", year: nil), "Dune"),
        (.tmdb(841), "tmdb:841"), (.imdb("tt0087182"), "imdb:tt0087182"),
        (.title("Don't Look Up", year: 2021), "\"Don't Look Up (2021)\""),
        (.title("Say \"Cheese\" $HOME", year: nil), "'Say \"Cheese\" $HOME'"),
        (.title("It's $5", year: nil), "'It'\\''s $5'"),
    ])
    func argumentsAreQuotedForTheShellAndParseBack(_ reference: MovieReference, _ argument: String) throws {
        #expect(reference.argument == argument)
        #expect(try MovieReference.parse(reference.description) == reference)
    }
}
