import Foundation
import TMDBStub
import Testing

/// `mustc pick` through mustc's commands, over movies whose TMDB figures the stub sets.
@Suite final class PickTests {
    let stub: TMDBStubServer
    let mustc: MustcBinary

    /// C is the mean of these five averages (7.72) and m their median vote count (5,000): Big Hit weighs
    /// (30000·8.4 + 5000·7.72) / 35000 = 8.30, Tiny Gem (4·9.5 + 5000·7.72) / 5004 = 7.72.
    static let night = [
        StubMovie(id: 910_001, title: "Big Hit", voteAverage: 8.4, voteCount: 30_000),
        StubMovie(id: 910_002, title: "Tiny Gem", voteAverage: 9.5, voteCount: 4),
        StubMovie(id: 910_003, title: "Plain One", voteAverage: 7.0, voteCount: 5_000),
        StubMovie(id: 910_004, title: "Plain Two", voteAverage: 6.5, voteCount: 8_000),
        StubMovie(id: 910_005, title: "Plain Three", voteAverage: 7.2, voteCount: 3_000),
    ]

    init() async throws {
        stub = TMDBStubServer(movies: Self.night)
        try stub.start()
        mustc = MustcBinary(stub: stub)
    }

    deinit { stub.stop() }

    /// Ann keeps Big Hit, Tiny Gem, Plain One and Plain Two, and a movie TMDB has no figures for; Bob keeps Plain
    /// Two and Plain Three, and has watched Plain One.
    func family() async throws {
        for (member, movies) in [
            ("Ann", ["tmdb:910001", "tmdb:910002", "tmdb:910003", "tmdb:910004"]),
            ("Bob", ["tmdb:910004", "tmdb:910005"]),
        ] {
            let added = try await mustc.run(["add", member] + movies)
            #expect(added.status == 0, "\(added.all)")
        }
        #expect(try await mustc("add", "--no-lookup", "Ann", "Not Out Yet").status == 0)
        let watched = try await mustc("watched", "Bob", "Plain One", "--on", "2024-05-01")
        #expect(watched.status == 0, "\(watched.all)")
    }

    func picks(_ arguments: String...) async throws -> [[String: Any]] {
        let outcome = try await mustc.run(["pick", "--format", "json"] + arguments)
        #expect(outcome.status == 0, "\(outcome.all)")
        return try #require(try outcome.json()["picks"] as? [[String: Any]])
    }

    @Test func sharedFirstThenWeightedWatchedLeftOutAndUnratedLast() async throws {
        try await family()
        let picks = try await picks("Ann", "bob")
        // Plain Two: both keep it. Big Hit (8.4 from 30,000) above Tiny Gem (9.5 from 4). Plain One: Bob saw it.
        #expect(
            picks.map { $0["title"] as? String } == ["Plain Two", "Big Hit", "Tiny Gem", "Plain Three", "Not Out Yet"])
        #expect(picks[0]["keptBy"] as? [String] == ["Ann", "Bob"])
        #expect(picks[1]["weighted"] as? Double == 8.3029 && picks[1]["voteCount"] as? Int == 30_000)
        #expect(picks[0]["why"] as? String == "Plain Two (2001): Ann and Bob keep it; 6.5 from 8,000 votes")
        #expect(picks[4]["why"] as? String == "Not Out Yet: Ann keeps it; no TMDB figures yet")
        #expect(picks[4]["weighted"] is NSNull && picks[4]["voteAverage"] is NSNull)
        // Ann alone has not seen Plain One.
        #expect(
            try await self.picks("Ann", "--count", "3").map { $0["title"] as? String } == [
                "Big Hit", "Tiny Gem", "Plain One",
            ])
        let all = try await self.picks("Ann", "Bob", "--include-watched", "--count", "10")
        let plainOne = try #require(all.first { $0["title"] as? String == "Plain One" })
        #expect(plainOne["keptBy"] as? [String] == ["Ann", "Bob"])
        #expect((plainOne["why"] as? String)?.hasSuffix("; Bob has seen it") == true)
    }

    @Test func theSameLibraryGivesTheSamePicksAndATableWithReasons() async throws {
        try await family()
        let first = try await mustc("pick", "Ann", "Bob", "--format", "json")
        let second = try await mustc("pick", "Ann", "Bob", "--format", "json")
        #expect(first.status == 0 && first.stdout == second.stdout && !first.stdout.isEmpty)
        let table = try await mustc("pick", "Ann", "Bob", "--count", "2")
        #expect(
            table.stdout.hasPrefix(
                "Tonight for Ann and Bob, best first:\n"
                    + "  1. Plain Two (2001): Ann and Bob keep it; 6.5 from 8,000 votes\n"
                    + "  2. Big Hit (2001): Ann keeps it; 8.4 from 30,000 votes\n"), "\(table.all)")
        #expect(table.stdout.contains("C = 7.7") && table.stdout.contains("m = 5,000 votes"))
    }

    @Test func anUnknownMemberExits64NamingIt() async throws {
        try await family()
        let outcome = try await mustc("pick", "Ann", "Zed")
        #expect(outcome.status == 64 && outcome.stderr.contains("there is no member \"Zed\""), "\(outcome.all)")
        #expect(outcome.stdout.isEmpty)
        #expect(try await mustc("pick").status == 64)
        #expect(try await mustc("pick", "Ann", "--count", "0").status == 64)
    }
}
