import Foundation
import TMDBStub
import Testing

/// Issue 38: what real answers and exports, replayed against the binary, still broke. Through the built binary,
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
}
