import Foundation
import TMDBStub
import Testing

/// Suggestions through mustc's commands against the stub: the fetch gathers recommendations of loved movies after the
/// ratings, and `suggest` ranks them for the watchers under tonight's limits; added, kept, watched and hidden movies
/// are never suggested.
@Suite final class SuggestTests {
    let stub: TMDBStubServer
    var mustc: MustcBinary
    let config: String

    /// Recommended movies: Kind (G, 95 min, on Netflix), Scary (R, 120 min, Disney Plus), Epic (PG, 150 min,
    /// Netflix), Plain (PG, 100 min, to rent), and Quiet, with no votes yet.
    static let movies = [
        StubMovie(id: 930_001, title: "Kind", voteAverage: 8.5, voteCount: 4_000, releaseDate: "2019-01-01"),
        StubMovie(id: 930_002, title: "Scary", voteAverage: 8.0, voteCount: 9_000),
        StubMovie(id: 930_003, title: "Epic", voteAverage: 7.5, voteCount: 5_000),
        StubMovie(id: 930_004, title: "Plain", voteAverage: 6.5, voteCount: 2_000),
        StubMovie(id: 930_005, title: "Quiet", voteAverage: 0, voteCount: 0),
    ]

    init() throws {
        stub = TMDBStubServer(movies: StubMovie.classics + Self.movies)
        stub.setExtras(
            id: 930_001,
            StubExtras(runtime: 95, genres: ["Family"], certification: "G", offers: ["flatrate": [.netflix]]))
        stub.setExtras(
            id: 930_002,
            StubExtras(runtime: 120, genres: ["Horror"], certification: "R", offers: ["flatrate": [.disneyPlus]]))
        stub.setExtras(
            id: 930_003,
            StubExtras(runtime: 150, genres: ["Drama"], certification: "PG", offers: ["flatrate": [.netflix]]))
        stub.setExtras(
            id: 930_004, StubExtras(runtime: 100, genres: ["Comedy"], certification: "PG", offers: ["rent": [.appleTV]])
        )
        // Spirited Away recommends all five and Up (which Leo keeps); Totoro recommends Kind and Plain.
        stub.setRecommendations(id: 129, [14160, 930_002, 930_001, 930_003, 930_004, 930_005])
        stub.setRecommendations(id: 8392, [930_004, 930_001])
        try stub.start()
        mustc = MustcBinary(stub: stub, posters: true)
        config = mustc.home.file("config.json")
        mustc.environment["MUSTC_CONFIG"] = config
        try """
        {"tmdb": {"maxRequestsPerSecond": 2000, "requestTimeout": "5s"},
         "family": {"region": "US", "services": ["Netflix"]}}
        """.write(toFile: config, atomically: true, encoding: .utf8)
    }

    deinit { stub.stop() }

    /// Claire loved Spirited Away (9), Sofia Totoro (10); Leo keeps Up. One fetch gathers the suggestions.
    func family() async throws {
        for (member, movie, rating) in [("Claire", "tmdb:129", "9"), ("Sofia", "tmdb:8392", "10")] {
            let added = try await mustc("add", member, movie)
            #expect(added.status == 0, "\(added.all)")
            let rated = try await mustc("watched", member, movie, "--rating", rating)
            #expect(rated.status == 0, "\(rated.all)")
        }
        #expect(try await mustc("add", "Leo", "tmdb:14160").status == 0)
        let fetched = try await mustc("fetch", "--force")
        #expect(fetched.status == 0, "\(fetched.all)")
    }

    func suggested(_ arguments: String...) async throws -> [[String: Any]] {
        let outcome = try await mustc.run(["suggest"] + arguments + ["--format", "json"])
        #expect(outcome.status == 0, "\(outcome.all)")
        return try outcome.json()["suggestions"] as? [[String: Any]] ?? []
    }

    func ids(_ suggestions: [[String: Any]]) -> [Int] { suggestions.compactMap { $0["remoteId"] as? Int } }

    @Test func theFetchGathersAndSuggestRanksForTheWatchers() async throws {
        try await family()
        let paths = stub.requests.map(\.path)
        #expect(
            paths.filter { $0.hasSuffix("/recommendations") }.sorted()
                == ["/3/movie/129/recommendations", "/3/movie/8392/recommendations"])
        // Details for the four with votes, each once, with the blocks; none for Quiet or Up.
        let details = stub.requests.filter { $0.query["append_to_response"] != nil }.map(\.path)
        for id in 930_001...930_004 { #expect(details.filter { $0 == "/3/movie/\(id)" }.count == 1) }
        #expect(!details.contains("/3/movie/930005"))
        // The fetch downloads the suggestions' posters onto the library's shelf, none of Quiet's (never detailed).
        let shelf = mustc.databasePath + ".posters/w185/"
        for id in 930_001...930_004 { #expect(FileManager.default.fileExists(atPath: shelf + "poster\(id).png")) }
        #expect(!FileManager.default.fileExists(atPath: shelf + "poster930005.png"))
        let both = try await suggested("Claire", "Sofia", "--no-taste")
        // Kind and Plain come from both watchers' seeds; then Claire's alone, each by its weighted rating (the
        // library's prior: C = 8.17, m = 16,870 votes): Kind 8.23, Plain 7.99; Scary 8.11, Epic 8.01.
        #expect(ids(both) == [930_001, 930_004, 930_002, 930_003])
        // With their taste: Sofia rated My Neighbor Totoro (a Drama) 1.9 above TMDB, so Epic, a Drama, passes
        // Scary, a Horror neither has rated.
        let tasted = try await suggested("Claire", "Sofia")
        #expect(ids(tasted) == [930_001, 930_004, 930_003, 930_002])
        let epic = (tasted.first { $0["remoteId"] as? Int == 930_003 }?["taste"] as? [String]) ?? []
        // One film of Drama moves the score but earns no reason.
        #expect(epic == [], "\(epic)")
        #expect((tasted.first { $0["remoteId"] as? Int == 930_002 }?["taste"] as? [String]) == [])
        let first = try #require(both.first)
        #expect(first["title"] as? String == "Kind" && first["year"] as? Int == 2019)
        #expect(first["runtime"] as? Int == 95 && first["certification"] as? String == "G")
        #expect((first["providers"] as? [String: [String]])?["flatrate"] == ["Netflix"])
        #expect((first["because"] as? [[String: Any]])?.compactMap { $0["member"] as? String } == ["Claire", "Sofia"])
        #expect(
            first["why"] as? String
                == "Kind (2019): because Claire loved Spirited Away (9) and Sofia loved My Neighbor Totoro (10); 8.5 from 4,000 votes"
        )
        // Sofia alone: only Totoro's.
        #expect(ids(try await suggested("sofia")) == [930_001, 930_004])
        let table = try await mustc("suggest", "Claire", "Sofia", "--count", "1")
        #expect(table.status == 0)
        #expect(table.stdout.contains("Something new for Claire and Sofia, best first:"))
        #expect(table.stdout.contains("1 h 35 min · G · Family · tmdb:930001"))
    }

    @Test func tonightsLimitsApply() async throws {
        try await family()
        #expect(ids(try await suggested("Claire", "--max-minutes", "110")) == [930_001, 930_004])
        #expect(ids(try await suggested("Claire")) == [930_001, 930_002, 930_003, 930_004])
        #expect(ids(try await suggested("Claire", "--age-limit", "PG")) == [930_001, 930_003, 930_004])
        #expect(ids(try await suggested("Claire", "--streaming")) == [930_001, 930_003])
        #expect(ids(try await suggested("Claire", "--genre", "horror")) == [930_002])
        // A member's own age limit applies as in pick.
        #expect(try await mustc("member", "Claire", "--age-limit", "G").status == 0)
        #expect(ids(try await suggested("Claire")) == [930_001])
    }

    @Test func addedHiddenKeptAndWatchedMoviesAreNeverSuggested() async throws {
        try await family()
        // "Add to Claire's list" is an ordinary add of the TMDB id.
        #expect(try await mustc("add", "Claire", "tmdb:930002").status == 0)
        #expect(ids(try await suggested("Claire")) == [930_001, 930_003, 930_004])
        let hidden = try await mustc("suggest", "--hide", "Epic")
        #expect(hidden.status == 0, "\(hidden.all)")
        #expect(
            hidden.stdout.hasPrefix("Not for us: Epic (") && hidden.stdout.hasSuffix(") is never suggested again.\n"))
        #expect(try await mustc("add", "Leo", "tmdb:930004").status == 0)
        #expect(try await mustc("watched", "Leo", "tmdb:930004").status == 0)
        // Across another fetch: Claire's and Sofia's seeds were asked this week; Leo, who has rated nothing, now
        // has a seed, Plain, which he watched, and its recommendations (none) are asked.
        #expect(try await mustc("fetch", "--force").status == 0)
        #expect(ids(try await suggested("Claire", "Sofia")) == [930_001])
        let unknown = try await mustc("suggest", "--hide", "No Such Film")
        #expect(unknown.status == 64 && unknown.stderr.contains("no suggestion is named"))
        let forgot = try await mustc("suggest", "--forget")
        #expect(forgot.status == 0 && forgot.stdout.contains("Took back 1"))
        #expect(ids(try await suggested("Claire", "Sofia")) == [930_001, 930_003])
        #expect(
            stub.requests.filter { $0.path.hasSuffix("/recommendations") }.map(\.path)
                == ["/3/movie/129/recommendations", "/3/movie/8392/recommendations", "/3/movie/930004/recommendations"])
    }

    @Test func withoutSeedsSuggestSaysWhatToDo() async throws {
        #expect(try await mustc("add", "Ann", "tmdb:194").status == 0)
        let outcome = try await mustc("suggest", "Ann")
        #expect(outcome.status == 0)
        #expect(outcome.stdout.contains("Nothing to suggest yet for Ann"))
        #expect(outcome.stdout.contains("mustc watched MEMBER MOVIE --rating 9"))
        let nobody = try await mustc("suggest", "Zed")
        #expect(nobody.status == 64 && nobody.stderr.contains("there is no member"))
        #expect(try await mustc("suggest").status == 64)
    }
}
