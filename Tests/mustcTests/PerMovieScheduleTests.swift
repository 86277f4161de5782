import Foundation
import TMDBStub
import Testing

/// The per-movie schedule through mustc's commands: only the movies that are due are checked.
@Suite final class PerMovieScheduleTests {
    let stub: TMDBStubServer
    let mustc: MustcBinary

    init() throws {
        stub = TMDBStubServer(movies: StubMovie.classics + StubMovie.synthetic(30))
        try stub.start()
        var mustc = MustcBinary(stub: stub)
        let config = mustc.home.file("config.json")
        // A movie coming due is tested on a test clock (MovieComesDueTests); here minutes, so that nothing comes due
        // during the test however slow the machine, and a backoff of 10 tells changed from unchanged movies.
        try #"""
        {"schedule": {"minimumInterval": "15m", "maximumInterval": "1d", "backoffFactor": 10},
         "fetch": {"maxConcurrentOperations": 4},
         "tmdb": {"maxRequestsPerSecond": 2000, "requestTimeout": "5s"}}
        """#.write(toFile: config, atomically: true, encoding: .utf8)
        mustc.environment["MUSTC_CONFIG"] = config
        self.mustc = mustc
    }

    deinit { stub.stop() }

    func fetchJSON(_ arguments: String...) async throws -> [String: Any] {
        let outcome = try await mustc.run(["fetch", "--json"] + arguments)
        #expect(outcome.status == 0, "\(outcome.all)")
        return try outcome.json()
    }

    /// Adds Movie 1…count to Bob's list without lookups, then resolves them with one forced fetch.
    func seed(_ count: Int) async throws {
        let added = try await mustc.run(["add", "--no-lookup", "Bob"] + (1...count).map { "Movie \($0)" })
        #expect(added.status == 0, "\(added.all)")
        let json = try await fetchJSON("--force")
        #expect(json["changed"] as? Int == count)
    }

    /// Through the binary: the changed movies are back at the minimum, the rest backed off, and a plain fetch
    /// straight after checks nothing. That they then come due is MovieComesDueTests', on a test clock.
    @Test func onlyTheMoviesThatChangedComeBackSoonAndAPlainFetchWaits() async throws {
        try await seed(20)
        stub.update(id: 100_002) { $0.voteCount += 1 }
        stub.update(id: 100_006) { $0.popularity += 0.5 }
        let forced = try await fetchJSON("--force")
        #expect(forced["result"] as? String == "newData")
        #expect(forced["changed"] as? Int == 2)
        #expect(forced["unchanged"] as? Int == 18)
        #expect(forced["due"] as? Int == 20)
        #expect(forced["total"] as? Int == 20)

        // Read with plain SQLite, not mustc: the two changed movies are back at the minimum, the rest backed off.
        let intervals = try sqlite(
            mustc.databasePath,
            """
            SELECT group_concat(title || '=' || interval, ',') FROM (
                SELECT movie.title, movieSchedule.interval FROM movieSchedule JOIN movie ON movie.id = movieId
                WHERE interval = 900.0 ORDER BY movie.id)
            """)
        #expect(intervals == "Movie 3=900.0,Movie 7=900.0")
        #expect(try sqlite(mustc.databasePath, "SELECT count(*) FROM movieSchedule WHERE interval = 9000.0") == "18")

        // Nothing is due straight after: the next fetch waits for the earliest movie.
        stub.resetCounters()
        let waiting = try await fetchJSON()
        #expect(waiting["result"] as? String == "notDue")
        #expect(stub.requestCount == 0)

        stub.resetCounters()
        let all = try await fetchJSON("--force")
        #expect(all["due"] as? Int == 20)
        #expect(all["movies"] as? Int == 20)
        #expect(stub.requestCount == 20)
    }

    @Test func aLookupAtAddCountsAsTheFirstCheck() async throws {
        let config = mustc.home.file("config.json")
        try #"{"schedule": {"minimumInterval": "15m"}, "tmdb": {"maxRequestsPerSecond": 2000}}"#
            .write(toFile: config, atomically: true, encoding: .utf8)
        #expect(try await mustc("add", "Ann", "Up", "Amélie").status == 0)
        #expect(try await mustc("add", "--no-lookup", "Ann", "Spirited Away").status == 0)
        let interval = try sqlite(
            mustc.databasePath,
            "SELECT group_concat(coalesce(interval, '-'), ',') FROM (SELECT interval FROM movieSchedule ORDER BY movieId)"
        )
        #expect(interval == "900.0,900.0,-")
        stub.resetCounters()
        let json = try await fetchJSON()
        #expect(json["due"] as? Int == 1, "only the movie added without a lookup is due")
        // Its search, then the region's certification list, which the first fetch reads.
        #expect(stub.requests.map(\.path) == ["/3/search/movie", "/3/certification/movie/list"])
    }

    @Test func statusAndMoviesShowThePerMovieSchedule() async throws {
        // Minutes here, so a slow machine cannot bring the checked movies due during the test.
        let config = mustc.home.file("config.json")
        try #"{"schedule": {"minimumInterval": "15m"}, "tmdb": {"maxRequestsPerSecond": 2000}}"#
            .write(toFile: config, atomically: true, encoding: .utf8)
        try await seed(5)
        let added = try await mustc("add", "--no-lookup", "Bob", "Movie 6")
        #expect(added.status == 0)

        let status = try await mustc("status", "--json").json()
        let checks = try #require(status["checks"] as? [String: Any])
        #expect(checks["total"] as? Int == 6)
        #expect(checks["dueNow"] as? Int == 1, "a movie added without a lookup is due at once")
        #expect(checks["dueWithinHour"] as? Int == 6)
        #expect(checks["dueWithinDay"] as? Int == 6)
        #expect(checks["nextCheckAt"] is String)
        let text = try await mustc("status")
        #expect(text.stdout.contains("Movies due now 1, within an hour 6, within a day 6 (of 6); the next due now."))

        let movies = try await mustc("movies", "--format", "json").jsonArray()
        let byTitle = Dictionary(uniqueKeysWithValues: movies.map { ($0["title"] as? String ?? "", $0) })
        #expect(byTitle["Movie 1"]?["lastCheckedAt"] is String)
        #expect(byTitle["Movie 1"]?["nextCheckAt"] is String)
        #expect(byTitle["Movie 6"]?["lastCheckedAt"] is NSNull)
        let table = try await mustc("movies")
        let row = table.stdout.split(separator: "\n").first { $0.hasPrefix("Movie 6 ") }
        #expect(row?.contains("never") == true)
        #expect(row?.contains("due now") == true)
    }
}
