import Foundation
import TMDBStub
import Testing

/// `mustc changes` and `ratings --trend` through mustc's commands, against the loopback stub.
@Suite final class ChangesCommandTests {
    let stub: TMDBStubServer
    let mustc: MustcBinary
    let config: String

    init() throws {
        stub = TMDBStubServer(movies: StubMovie.classics)
        try stub.start()
        var mustc = MustcBinary(stub: stub)
        config = mustc.home.file("config.json")
        mustc.environment["MUSTC_CONFIG"] = config
        self.mustc = mustc
        try writeConfig(keep: "365d")
    }

    deinit { stub.stop() }

    /// Minutes between checks, so nothing comes due on its own during a test.
    func writeConfig(keep: String) throws {
        try """
        {"schedule": {"minimumInterval": "15m"}, "tmdb": {"maxRequestsPerSecond": 2000, "requestTimeout": "5s"},
         "history": {"keep": "\(keep)"}}
        """.write(toFile: config, atomically: true, encoding: .utf8)
    }

    /// Ann keeps Up and Amélie, Bob keeps Spirited Away and Totoro, all looked up at add: four baselines.
    func seed() async throws {
        #expect(try await mustc("add", "Ann", "Up", "Amélie").status == 0)
        #expect(try await mustc("add", "Bob", "Spirited Away", "My Neighbor Totoro").status == 0)
    }

    func fetch(expect result: String) async throws {
        let outcome = try await mustc("fetch", "--force", "--json")
        #expect(outcome.status == 0, "\(outcome.all)")
        #expect(try outcome.json()["result"] as? String == result, "\(outcome.stdout)")
    }

    func changes(_ arguments: String...) async throws -> [[String: Any]] {
        let outcome = try await mustc.run(["changes", "--format", "json"] + arguments)
        #expect(outcome.status == 0, "\(outcome.all)")
        return try outcome.json()["changes"] as? [[String: Any]] ?? []
    }

    func historyRows() throws -> Int { Int(try sqlite(mustc.databasePath, "SELECT count(*) FROM movieHistory")) ?? -1 }

    @Test func twoMoviesChangedOnTheStubAreExactlyTheTwoListedWithItsFigures() async throws {
        try await seed()
        #expect(try await changes().isEmpty, "a movie's first figures are not a change")
        stub.update(id: 14160) {
            $0.voteCount = 19_350
            $0.popularity = 81.5
        }
        stub.update(id: 129) { $0.voteAverage = 8.6 }
        try await fetch(expect: "newData")

        let listed = try await changes()
        let byTitle = Dictionary(uniqueKeysWithValues: listed.map { ($0["title"] as? String ?? "", $0) })
        #expect(listed.count == 2)
        let up = try #require(byTitle["Up"])
        let first = try #require(up["first"] as? [String: Any])
        let last = try #require(up["last"] as? [String: Any])
        #expect(first["voteCount"] as? Int == 19_300 && last["voteCount"] as? Int == 19_350)
        #expect(first["popularity"] as? Double == 80.3 && last["popularity"] as? Double == 81.5)
        #expect(first["voteAverage"] as? Double == 7.9 && last["voteAverage"] as? Double == 7.9)
        #expect(up["changes"] as? Int == 1 && up["remoteId"] as? Int == 14160 && up["year"] as? Int == 2009)
        #expect(up["members"] as? [String] == ["Ann"])
        #expect(first["at"] is String && first["at"] as? String == last["at"] as? String)
        let spirited = try #require(byTitle["Spirited Away"])
        #expect((spirited["first"] as? [String: Any])?["voteAverage"] as? Double == 8.5)
        #expect((spirited["last"] as? [String: Any])?["voteAverage"] as? Double == 8.6)
        #expect(spirited["members"] as? [String] == ["Bob"])

        // A noData run adds no history.
        let rows = try historyRows()
        try await fetch(expect: "noData")
        #expect(try historyRows() == rows)
        #expect(try await changes().count == 2)

        // Reading writes nothing: the database and its WAL are the same bytes afterwards, and every table's content
        // hashes the same.
        let files = [mustc.databasePath, mustc.databasePath + "-wal"]
        let bytes = files.map { FileManager.default.contents(atPath: $0) }
        let content = try sqlite(mustc.databasePath, ".sha3sum")
        #expect(try await changes("--since", "30d").count == 2)
        #expect(try await mustc("changes").status == 0)
        #expect(files.map { FileManager.default.contents(atPath: $0) } == bytes)
        #expect(try sqlite(mustc.databasePath, ".sha3sum") == content)

        #expect(try await changes("--member", "BOB").map { $0["title"] as? String } == ["Spirited Away"])
        let nobody = try await mustc("changes", "--member", "Nobody")
        #expect(nobody.status == 64 && nobody.stderr.contains("Nobody"))
        let csv = try await mustc("changes", "--format", "csv")
        #expect(csv.stdout.components(separatedBy: "\r\n").filter { !$0.isEmpty }.count == 3)
        let table = try await mustc("changes")
        #expect(table.stdout.contains("19300 → 19350 (+50)"))
        #expect(!table.stdout.contains("▁"), "no sparkline off a terminal")
    }

    @Test func sinceTakesADurationOrADate() async throws {
        try await seed()
        stub.update(id: 14160) { $0.voteCount += 1 }
        try await fetch(expect: "newData")
        // The change happened three days ago, as far as the history knows.
        _ = try sqlite(mustc.databasePath, "UPDATE movieHistory SET at = at - 3 * 86400 WHERE baseline = 0")
        #expect(try await changes("--since", "2d").isEmpty)
        #expect(try await changes("--since", "4d").count == 1)
        let day = DateFormatter()
        day.dateFormat = "yyyy-MM-dd"
        day.timeZone = TimeZone(identifier: "UTC")
        day.locale = Locale(identifier: "en_US_POSIX")
        let fiveDaysAgo = day.string(from: Date().addingTimeInterval(-5 * 86_400))
        let tomorrow = day.string(from: Date().addingTimeInterval(86_400))
        #expect(try await changes("--since", fiveDaysAgo).count == 1)
        #expect(try await changes("--since", tomorrow).isEmpty)
        let outcome = try await mustc("changes", "--since", fiveDaysAgo, "--format", "json")
        #expect(try outcome.json()["since"] as? String == fiveDaysAgo + "T00:00:00Z")
    }

    @Test func entriesOlderThanHistoryKeepArePrunedByAFetch() async throws {
        try writeConfig(keep: "2d")
        try await seed()
        stub.update(id: 14160) { $0.voteCount += 1 }
        try await fetch(expect: "newData")
        _ = try sqlite(mustc.databasePath, "UPDATE movieHistory SET at = at - 10 * 86400 WHERE movieId = 1")
        #expect(try sqlite(mustc.databasePath, "SELECT count(*) FROM movieHistory WHERE movieId = 1") == "2")
        try await fetch(expect: "noData")
        #expect(try sqlite(mustc.databasePath, "SELECT count(*) FROM movieHistory WHERE movieId = 1") == "0")
        #expect(try historyRows() == 3, "the other movies' baselines are recent and stay")
    }

    @Test func ratingsShowTheTrendAndATerminalGetsSparklines() async throws {
        try await seed()
        for votes in [19_310, 19_330] {
            stub.update(id: 14160) {
                $0.voteCount = votes
                $0.popularity += 5
            }
            try await fetch(expect: "newData")
        }
        let json = try await mustc("ratings", "--member", "Ann", "--format", "json").json()
        let movies = (json["members"] as? [[String: Any]])?.first?["movies"] as? [[String: Any]] ?? []
        let up = try #require(movies.first { $0["title"] as? String == "Up" })
        let trend = try #require(up["trend"] as? [String: Any])
        #expect(trend["voteCount"] as? Int == 30)
        #expect(trend["popularity"] as? Double == 10)
        #expect(trend["since"] is String)
        let table = try await mustc("ratings", "--trend", "1d")
        #expect(table.stdout.contains("19330 (+30)"))

        // `script` gives mustc a pseudo-terminal, as a person at a shell would have.
        var terminal = mustc
        terminal.executable = URL(fileURLWithPath: "/usr/bin/script")
        let binary = MustcBinary.url.path
        let changes = try await terminal.run(["-qec", "'\(binary)' changes", "/dev/null"])
        #expect(changes.stdout.contains("▁▅█"), "\(changes.stdout)")
        let ratings = try await terminal.run(["-qec", "'\(binary)' ratings --trend 7d", "/dev/null"])
        #expect(ratings.stdout.contains("Popularity over time") && ratings.stdout.contains("▁▅█"))
    }

    @Test func badSinceOrTrendExit64NamingTheValueAndWriteNothing() async throws {
        let fresh = MustcBinary()
        let cases = [
            (["changes", "--since", "yesterday"], "yesterday"), (["changes", "--since=-2d"], "-2d"),
            (["changes", "--since", "0"], "0"), (["ratings", "--trend", "0"], "0"),
            (["ratings", "--trend=-1h"], "-1h"),
        ]
        for (arguments, value) in cases {
            let outcome = try await fresh.run(arguments)
            #expect(outcome.status == 64, "\(arguments)")
            #expect(outcome.stderr.contains("\"\(value)\""), "\(outcome.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: fresh.databasePath))
    }
}
