import Foundation
import TMDBStub
import Testing

/// Movie nights through mustc's commands against the stub: the picks' overview and where they stream, `night` and its
/// undo, `nights`, and the taste that `--no-taste` turns off.
@Suite final class MovieNightCommandTests {
    let stub: TMDBStubServer
    var mustc: MustcBinary

    /// Claire keeps a Horror film TMDB rates 8.0 and an Animation film it rates 7.4, and has rated eight other
    /// Animation films 2 points above TMDB and four Horror films 3 below.
    static let scream = StubMovie(id: 930_001, title: "Night Screams", voteAverage: 8.0, voteCount: 40_000)
    static let fox = StubMovie(id: 930_002, title: "Paper Moon Fox", voteAverage: 7.4, voteCount: 40_000)
    static let rated =
        (0..<8).map { StubMovie(id: 931_000 + $0, title: "Toon \($0)", voteAverage: 7, voteCount: 5_000) }
        + (0..<4).map { StubMovie(id: 932_000 + $0, title: "Fright \($0)", voteAverage: 7, voteCount: 5_000) }

    init() throws {
        stub = TMDBStubServer(movies: [Self.scream, Self.fox] + Self.rated)
        stub.setExtras(
            id: Self.scream.id,
            StubExtras(runtime: 100, genres: ["Horror"], certification: "R", offers: ["flatrate": [.netflix]]))
        stub.setExtras(
            id: Self.fox.id,
            StubExtras(
                runtime: 95, genres: ["Animation", "Family"], certification: "PG",
                offers: ["rent": [.appleTV, .amazonVideo]]))
        for movie in Self.rated {
            stub.setExtras(
                id: movie.id,
                StubExtras(genres: [movie.title.hasPrefix("Toon") ? "Animation" : "Horror"], certification: "PG"))
        }
        try stub.start()
        mustc = MustcBinary(stub: stub)
        let config = mustc.home.file("config.json")
        mustc.environment["MUSTC_CONFIG"] = config
        try """
        {"tmdb": {"maxRequestsPerSecond": 2000, "requestTimeout": "5s"},
         "family": {"region": "US", "services": ["Netflix"]}}
        """.write(toFile: config, atomically: true, encoding: .utf8)
    }

    deinit { stub.stop() }

    func run(_ arguments: [String]) async throws -> Outcome {
        let outcome = try await mustc.run(arguments)
        #expect(outcome.status == 0, "\(arguments): \(outcome.all)")
        return outcome
    }

    /// Claire's list, fetched (the extras ride on the details request), and her ratings.
    func claire() async throws {
        _ = try await run(
            ["add", "Claire", "tmdb:\(Self.scream.id)", "tmdb:\(Self.fox.id)"] + Self.rated.map { "tmdb:\($0.id)" })
        _ = try await run(["add", "Leo", "tmdb:\(Self.fox.id)"])
        _ = try await run(["fetch", "--force"])
        for movie in Self.rated {
            let rating = movie.title.hasPrefix("Toon") ? "9" : "4"
            _ = try await run(["watched", "Claire", "tmdb:\(movie.id)", "--rating", rating])
        }
    }

    func titles(_ outcome: Outcome) throws -> [String] {
        try #require(try outcome.json()["picks"] as? [[String: Any]]).compactMap { $0["title"] as? String }
    }

    @Test func tasteMovesTheHorrorPickBelowTheAnimationOneAndNoTasteGivesTheWeightedOrder() async throws {
        try await claire()
        let plain = try await run(["pick", "Claire", "--no-taste", "--format", "json"])
        #expect(try titles(plain) == ["Night Screams", "Paper Moon Fox"])
        let tasted = try await run(["pick", "Claire", "--format", "json"])
        #expect(try titles(tasted) == ["Paper Moon Fox", "Night Screams"])
        let picks = try #require(try tasted.json()["picks"] as? [[String: Any]])
        // A lean of (8 × 2 - 4 × 3) / (12 + 5) = 0.24; beyond it Animation 8 × 1.76 / (8 + 5) = 1.1 and Horror
        // 4 × -3.24 / (4 + 5) = -1.4.
        #expect(
            picks[0]["taste"] as? [String] == ["Claire rates animation higher than usual (8 films, +1.1)"],
            "\(picks[0])")
        // Four films, and a shift against the pick: no reason.
        #expect(picks[1]["taste"] as? [String] == [], "\(picks[1])")
        let table = try await run(["pick", "Claire"])
        #expect(table.stdout.contains("Claire rates animation higher than usual (8 films, +1.1)"), "\(table.stdout)")
        // Leo has rated nothing: his pick is the plain base, Paper Moon Fox's own 7.4 from 40,000 votes, above the
        // weighted rating that the library's median of 5,000 votes pulls toward its mean.
        let leo = try await run(["pick", "Leo", "--format", "json"])
        let leoPicks = try #require(try leo.json()["picks"] as? [[String: Any]])
        #expect(
            leoPicks.first?["taste"] as? [String] == []
                && abs((leoPicks.first?["predicted"] as? Double ?? 0) - 7.4) < 0.01
                && (leoPicks.first?["predicted"] as? Double ?? 0) > (leoPicks.first?["weighted"] as? Double ?? 9))
    }

    @Test func picksCarryTheOverviewAndWhereTheyStream() async throws {
        try await claire()
        let json = try await run(["pick", "Claire", "--no-taste", "--format", "json"])
        let picks = try #require(try json.json()["picks"] as? [[String: Any]])
        #expect(picks[0]["overview"] as? String == "An overview of Night Screams.")
        let scream = try #require(picks[0]["where"] as? [String: Any])
        #expect(scream["kind"] as? String == "ours" && scream["providers"] as? [String] == ["Netflix"])
        let fox = try #require(picks[1]["where"] as? [String: Any])
        #expect(fox["kind"] as? String == "rent" && fox["providers"] as? [String] == ["Amazon Video", "Apple TV"])
        let table = try await run(["pick", "Claire", "--no-taste"])
        #expect(table.stdout.contains("[1 h 40 min · R · Netflix]"), "\(table.stdout)")
        #expect(table.stdout.contains("[1 h 35 min · PG · rent: Amazon Video]"), "\(table.stdout)")
    }

    @Test func aNightMarksTheWatchersAndItsUndoPutsEverythingBack() async throws {
        try await claire()
        let marks = "SELECT memberId, movieId, addedAt, watched, watchedOn FROM memberMovie ORDER BY memberId, movieId"
        let before = try sqlite(mustc.databasePath, marks)
        let night = try await run(["night", "Paper Moon Fox", "claire", "Leo", "--on", "2026-11-20"])
        #expect(night.stdout.contains("Movie night of 2026-11-20: \"Paper Moon Fox"), "\(night.stdout)")
        _ = try await run(["watched", "Leo", "Paper Moon Fox", "--rating", "8"])
        let nights = try await run(["nights", "--format", "json"])
        let list = try #require(try nights.json()["nights"] as? [[String: Any]])
        #expect(list.count == 1 && list[0]["day"] as? String == "2026-11-20")
        let watchers = try #require(list[0]["watchers"] as? [[String: Any]])
        #expect(watchers.map { $0["name"] as? String } == ["Claire", "Leo"])
        #expect(watchers.map { $0["rating"] as? Int } == [nil, 8])
        let table = try await run(["nights"])
        #expect(table.stdout.contains("2026-11-20") && table.stdout.contains("Leo 8/10"), "\(table.stdout)")
        // A pick no longer offers what both watched.
        let pick = try await run(["pick", "Claire", "Leo", "--format", "json"])
        #expect(try !titles(pick).contains("Paper Moon Fox"))

        let wrong = try await mustc.run(["night", "Paper Moon Fox", "Claire", "--undo"])
        #expect(wrong.status == 64 && wrong.stderr.contains("no movie night"), "\(wrong.all)")
        _ = try await run(["night", "Paper Moon Fox", "Claire", "Leo", "--undo"])
        // Leo's rating, given after the night, stays; everything else is as before.
        #expect(try sqlite(mustc.databasePath, marks) == before)
        #expect(
            try sqlite(
                mustc.databasePath,
                "SELECT ownRating FROM memberMovie JOIN member ON member.id = memberId WHERE member.name = 'Leo'")
                == "8")
        #expect(try sqlite(mustc.databasePath, "SELECT count(*) FROM movieNight") == "0")
    }

    @Test func badInputWritesNothing() async throws {
        try await claire()
        for (arguments, words) in [
            (["night", "Paper Moon Fox", "Nobody"], "no member"),
            (["night", "Jaws", "Claire"], "no movie"),
            (["night", "Paper Moon Fox", "Claire", "--on", "yesterday"], "is not a day"),
            (["night", "Paper Moon Fox"], "name the members"),
        ] {
            let outcome = try await mustc.run(arguments)
            #expect(outcome.status == 64 && outcome.stderr.contains(words), "\(arguments): \(outcome.all)")
        }
        #expect(try sqlite(mustc.databasePath, "SELECT count(*) FROM movieNight") == "0")
    }

    @Test func anEmptyOrThinPickSaysWhatTonightsChoicesLeftOutInTheTableAndTheJSON() async throws {
        try await claire()
        _ = try await run(["member", "Leo", "--age-limit", "PG"])
        // Night Screams is R and 100 minutes, Paper Moon Fox PG and 95: neither is watched, neither fits.
        let empty = try await run(["pick", "Claire", "Leo", "--max-minutes", "90"])
        #expect(
            empty.stdout.contains(
                "Nothing to pick for Claire and Leo tonight: 2 movies left out: 1 above PG (Leo's limit), "
                    + "2 longer than 90 minutes."), "\(empty.all)")
        #expect(!empty.stdout.contains("has watched"))
        let json = try await run(["pick", "Claire", "Leo", "--max-minutes", "90", "--format", "json"])
        let left = try #require(try json.json()["leftOut"] as? [String: Int], "\(json.all)")
        #expect(
            left == [
                "movies": 2, "aboveAgeLimit": 1, "tooLong": 2, "noCertification": 0, "unknownRuntime": 0,
                "notOnServices": 0, "otherGenres": 0,
            ], "\(left)")
        #expect(try titles(json).isEmpty)
        // Thin: the Fox is picked, and the line under it says what Leo's limit left out.
        let thin = try await run(["pick", "Claire", "Leo"])
        #expect(thin.stdout.contains("1 movie left out: 1 above PG (Leo's limit)."), "\(thin.all)")
        let all = try await run(["pick", "Claire", "--format", "json"])
        #expect((try all.json()["leftOut"] as? [String: Int])?["movies"] == 0, "\(all.all)")
    }
}
