import Foundation
import TMDBStub
import Testing

/// What real answers and exports, replayed against the binary, still broke. Through mustc's commands,
/// against the stub, with the family's region set so that checks ask for the appended blocks.
@Suite(.serialized) final class ReplayedAnswersTests {
    let stub: TMDBStubServer
    var mustc: MustcBinary

    /// TMDB's ids: 550 is Fight Club, 551 The Poseidon Adventure.
    static let movies = [
        StubMovie(
            id: 550, title: "Fight Club", popularity: 61.4, voteAverage: 8.4, voteCount: 26_000,
            releaseDate: "1999-10-15", imdbId: "tt0137523"),
        StubMovie(
            id: 551, title: "The Poseidon Adventure", popularity: 12.1, voteAverage: 6.9, voteCount: 27_999,
            releaseDate: "1972-12-13", imdbId: "tt0069113"),
        // Two films spelled apart only by case, as in a real Letterboxd account (ids are stand-ins).
        StubMovie(id: 600_001, title: "Rain", popularity: 5, releaseDate: "2019-03-01"),
        StubMovie(id: 600_002, title: "rain", popularity: 4, releaseDate: "2019-09-01"),
        StubMovie(id: 600_666, title: "Fight Club\n  TMDB: Evil Twin (2001), id 666, rated 9.9"),
        StubMovie(id: 600_200, title: "Zero\u{200B}Width\u{2066}Isolate"),
    ]

    init() throws {
        stub = TMDBStubServer(movies: StubMovie.classics + Self.movies)
        try stub.start()
        mustc = MustcBinary(stub: stub)
        let config = mustc.home.file("config.json")
        mustc.environment["MUSTC_CONFIG"] = config
        try """
        {"tmdb": {"maxRequestsPerSecond": 2000, "requestTimeout": "5s"}, "family": {"region": "US"}}
        """.write(toFile: config, atomically: true, encoding: .utf8)
    }

    deinit { stub.stop() }

    func column(_ sql: String) throws -> String { try sqlite(mustc.databasePath, sql) }

    /// Every movie, and the run, due now.
    func makeDue() throws {
        _ = try column(
            "UPDATE movieSchedule SET nextCheckAt = 0; UPDATE schedule SET nextFetchAt = '2000-01-01 00:00:00.000'")
    }

    /// The details requests for `id` that carried the blocks.
    func appendedRequests(for id: Int) -> Int {
        stub.requests.filter {
            $0.path == "/3/movie/\(id)" && $0.query["append_to_response"] == "release_dates,watch/providers"
        }.count
    }

    @Test func anAnswerAboutAnotherMovieWithTheBlocksIsRefusedAtAFirstCheckAndOnAForcedFetch() async throws {
        let added = try await mustc("add", "Ann", "tmdb:550")
        #expect(added.status == 0, "\(added.all)")
        #expect(try column("SELECT voteCount FROM movie WHERE remoteId = 550") == "26000")

        // The first check asks for the blocks (none were ever read); the answer is 551's.
        try makeDue()
        stub.inject(.answerFor(id: 551), on: .details(id: 550), times: nil)
        let first = try await mustc("fetch", "--json")
        #expect(appendedRequests(for: 550) == 1, "\(stub.requests.map(\.path))")
        #expect(try first.json()["result"] as? String != "newData", "\(first.all)")
        #expect(first.status != 0, "\(first.all)")
        #expect(try column("SELECT voteCount FROM movie WHERE remoteId = 550") == "26000")
        #expect(try column("SELECT title FROM movie WHERE remoteId = 550") == "Fight Club")
        #expect(try column("SELECT count(*) FROM movie WHERE remoteId = 551") == "0")
        #expect(try column("SELECT extrasCheckedAt IS NULL FROM movieSchedule") == "1", "551's blocks not kept")
        let reason = try column("SELECT fetchError FROM movie WHERE remoteId = 550")
        #expect(reason.contains("551") && reason.contains("not 550"), "\(reason)")

        // Answered rightly once, then a forced fetch (which always asks for the blocks) gets 551's answer again.
        stub.clearFaults()
        #expect(try await mustc("fetch", "--force").status == 0)
        stub.inject(.answerFor(id: 551), on: .details(id: 550), times: nil)
        let forced = try await mustc("fetch", "--force", "--json")
        #expect(appendedRequests(for: 550) == 3)
        #expect(try forced.json()["result"] as? String != "newData", "\(forced.all)")
        #expect(forced.status != 0, "\(forced.all)")
        #expect(try column("SELECT voteCount FROM movie WHERE remoteId = 550") == "26000")
    }

    func write(_ name: String, _ text: String) throws -> String {
        let path = mustc.home.file(name)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// Each movie as "title|remoteId|letterboxdUri", by title then id.
    func movies() throws -> [String] {
        try column("SELECT title, remoteId, letterboxdUri FROM movie ORDER BY title, id")
            .split(separator: "\n").map(String.init)
    }

    @Test func ratingsCSVsURIsNameFilmsSoCaseTwinsKeepBothRatings() async throws {
        // Real exports: ratings.csv's URI is the film's, as in watched.csv.
        let ratings = try write(
            "ratings.csv",
            "Date,Name,Year,Letterboxd URI,Rating\n2024-01-01,Rain,2019,https://boxd.it/rainA,4\n"
                + "2024-01-02,rain,2019,https://boxd.it/rainB,2.5\n")
        let imported = try await mustc("import", "Ann", ratings)
        #expect(imported.status == 0, "\(imported.all)")
        #expect(try movies() == ["Rain|600001|https://boxd.it/rainA", "rain|600002|https://boxd.it/rainB"])
        #expect(try column("SELECT count(*) FROM memberMovie WHERE ownRating IS NOT NULL") == "2", "both ratings")
    }

    @Test func aDiaryAloneKeepsCaseTwinsApart() async throws {
        // The diary's URIs name entries, not films: only the exact titles tell the two films apart.
        let diary = try write(
            "diary.csv",
            "Date,Name,Year,Letterboxd URI,Rating,Rewatch,Tags,Watched Date\n"
                + "2024-02-02,Rain,2019,https://boxd.it/entry1,4,,,2024-02-01\n"
                + "2024-02-03,rain,2019,https://boxd.it/entry2,3,,,2024-02-03\n")
        let imported = try await mustc("import", "Ann", diary)
        #expect(imported.status == 0, "\(imported.all)")
        #expect(try movies() == ["Rain|600001|", "rain|600002|"])
        // Again: each row finds its own film, nothing new.
        #expect(try await mustc("import", "Ann", diary).status == 0)
        #expect(try movies() == ["Rain|600001|", "rain|600002|"])
        var offline = mustc
        offline.environment["TMDB_API_KEY"] = nil
        let database = mustc.home.file("offline.sqlite")
        #expect(try await offline("import", "--database", database, "Bob", diary).status == 0)
        let titles = try sqlite(database, "SELECT title FROM movie ORDER BY title")
        #expect(titles == "Rain\nrain", "without TMDB too")
    }

    @Test func aMovieLinkedByTitleLearnsItsIMDbIdFromTheDetails() async throws {
        #expect(try await mustc("add", "Ann", "Fight Club (1999)").status == 0)
        #expect(try column("SELECT remoteId, imdbId IS NULL FROM movie") == "550|1", "a search result has no IMDb id")
        #expect(try await mustc("fetch", "--force").status == 0)
        #expect(try column("SELECT imdbId FROM movie WHERE remoteId = 550") == "tt0137523")
        let export = try await mustc("export")
        #expect(export.stdout.contains("tt0137523"), "\(export.stdout)")
    }

    @Test func addMakesALineFeedInATitleVisible() async throws {
        let add = try await mustc("add", "Ann", "tmdb:600666")
        #expect(add.status == 0, "\(add.all)")
        let lines = add.stdout.split(separator: "\n")
        #expect(!lines.contains { $0.hasPrefix("  TMDB: Evil Twin") }, "\(add.stdout)")
        #expect(add.stdout.contains(#"Fight Club\n  TMDB: Evil Twin"#), "\(add.stdout)")
    }

    @Test func aNullVoteAverageKeepsThePreviousFigure() async throws {
        #expect(try await mustc("add", "Ann", "tmdb:550").status == 0)
        #expect(try await mustc("fetch", "--force").status == 0)
        stub.inject(.field("vote_average", json: "null"), on: .details(id: 550), times: nil)
        let fetch = try await mustc("fetch", "--force", "--json")
        #expect(fetch.status == 0, "\(fetch.all)")
        #expect(try fetch.json()["result"] as? String == "noData", "\(fetch.all)")
        #expect(try column("SELECT voteAverage FROM movie WHERE remoteId = 550") == "8.4")
    }

    @Test func formatCharactersInTablesReachNoTerminalRaw() async throws {
        #expect(try await mustc("add", "Ann", "tmdb:600200").status == 0)
        for command in [["ratings"], ["movies"], ["status"]] {
            let outcome = try await mustc.run(command)
            let raw = outcome.stdout.unicodeScalars.filter { [0x200B, 0x2066].contains($0.value) }
            #expect(raw.isEmpty, "\(command): \(outcome.stdout)")
        }
        let ratings = try await mustc("ratings")
        #expect(ratings.stdout.contains(#"Zero\u200BWidth\u2066Isolate"#), "\(ratings.stdout)")
    }
}
