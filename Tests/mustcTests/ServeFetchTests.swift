import Foundation
import TMDBStub
import TestSupport
import Testing

/// `mustc serve --fetch` through the built binary: the page and the background fetch in one process, on the
/// movies' own schedule, under the same lock as `mustc fetch`; and `MUSTC_LISTEN`.
@Suite final class ServeFetchTests {
    let stub: TMDBStubServer
    let mustc: MustcBinary

    init() throws {
        stub = TMDBStubServer(movies: StubMovie.classics + StubMovie.synthetic(200))
        try stub.start()
        var mustc = MustcBinary(stub: stub)
        let config = mustc.home.file("config.json")
        try #"""
        {"schedule": {"minimumInterval": "15m", "maximumInterval": "2h"},
         "fetch": {"maxConcurrentOperations": 4, "writeBatchSize": 10},
         "tmdb": {"maxRequestsPerSecond": 2000, "requestTimeout": "5s"}}
        """#.write(toFile: config, atomically: true, encoding: .utf8)
        mustc.environment["MUSTC_CONFIG"] = config
        self.mustc = mustc
    }

    deinit { stub.stop() }

    func query(_ sql: String) throws -> String { try sqlite(mustc.databasePath, sql) }

    /// Seconds until `condition` holds, or nil when it still does not after `seconds`.
    func waitUntil(_ seconds: Double, _ condition: () throws -> Bool) async throws -> Double? {
        let start = ContinuousClock.now
        guard try await Poll.until(within: Poll.seconds(seconds), every: .milliseconds(100), { try condition() })
        else { return nil }
        return (ContinuousClock.now - start) / .seconds(1)
    }

    /// Up rated and then left due with a new rating waiting at TMDB, Amélie rated and not due, Totoro added
    /// without a lookup (due at once), and the fetch itself due long ago, as after days with nothing running.
    func leaveTwoDue() async throws {
        #expect(try await mustc("add", "Ann", "Up", "Amélie").status == 0)
        #expect(try await mustc("fetch", "--force").status == 0)
        stub.update(id: 14160) { $0.voteAverage = 8.4 }
        _ = try query(
            "UPDATE movieSchedule SET nextCheckAt = 0 WHERE movieId = (SELECT id FROM movie WHERE remoteId = 14160); "
                + "UPDATE schedule SET nextFetchAt = '2000-01-01 00:00:00.000'")
        #expect(try await mustc("add", "--no-lookup", "Bob", "My Neighbor Totoro").status == 0)
        stub.resetCounters()
    }

    @Test func theDueMoviesAreFetchedSoonAfterTheStartAndSIGTERMStopsCleanly() async throws {
        try await leaveTwoDue()
        let runsBefore = Int(try query("SELECT count(*) FROM fetchRun")) ?? -1
        let launched = Date()
        let server = try await ServeProcess.start(mustc, arguments: ["--fetch", "--listen", "127.0.0.1:0"])
        defer { server.ensureStopped() }
        let rated = try await waitUntil(60) {
            try query("SELECT count(*) FROM movie WHERE remoteId IN (14160, 8392) AND voteAverage IN (8.4, 8.1)") == "2"
                && query("SELECT count(*) FROM fetchRun WHERE endedAt IS NULL") == "0"
        }
        let rows = try query("SELECT title, remoteId, voteAverage FROM movie")
        let log = (try? String(contentsOfFile: server.running.stderrPath, encoding: .utf8)) ?? ""
        try #require(rated != nil, "not fetched within 60 s of the start: \(rows); \(log)")
        let seconds = Date().timeIntervalSince(launched)
        print("serve --fetch: the due movies rated within \(String(format: "%.2f", seconds)) s of the launch")
        // Only the due movies were asked about: Amélie's own schedule is hours away.
        let paths = stub.requests.map(\.path)
        #expect(paths.contains("/3/movie/14160") && !paths.contains("/3/movie/194"), "\(paths)")
        #expect(Int(try query("SELECT count(*) FROM fetchRun")) == runsBefore + 1)

        let page = try await HTTP.get(server.url + "api/ratings")
        #expect(page.status == 200)
        #expect(page.body.contains("8.4"))

        let stopped = Date()
        let (outcome, exited) = await server.stop(within: 10)
        print("serve --fetch: stopped \(String(format: "%.2f", Date().timeIntervalSince(stopped))) s after SIGTERM")
        #expect(exited, "still running 10 s after SIGTERM: \(outcome.all)")
        #expect(outcome.status == 0, "\(outcome.all)")
        #expect(outcome.stderr.contains("mustc: fetch: newData: 2 of 3 movies: 2 changed"), "\(outcome.stderr)")
        #expect(!outcome.all.contains(stub.apiKey))
        #expect(try query("PRAGMA integrity_check") == "ok")
        let ratings = try await mustc("ratings", "--format", "json")
        #expect(ratings.status == 0)
        #expect(ratings.stdout.contains("8.4") && ratings.stdout.contains("Totoro"), "\(ratings.stdout)")
    }

    @Test func sigtermStopsAFetchInProgressBetweenMovies() async throws {
        #expect(try await mustc.run(["add", "--no-lookup", "Bob"] + (1...200).map { "Movie \($0)" }).status == 0)
        // The run takes the movies in order: the first 100 are answered, then the stub holds every lookup after
        // them, so the run is still going when the signal comes however late a loaded machine sends it (a run
        // paced only by latency had ended first in a full-suite run).
        stub.hold { Int($0.query["query"]?.dropFirst("Movie ".count) ?? "") ?? 0 > 100 }
        defer { stub.release() }
        let server = try await ServeProcess.start(mustc, arguments: ["--fetch", "--listen", "127.0.0.1:0"])
        defer { server.ensureStopped() }
        let holding = try await waitUntil(60) { stub.heldCount >= 4 }
        try #require(holding != nil, "the fetch did not reach the held movies")
        #expect(try await HTTP.get(server.url).status == 200)
        let signalled = Date()
        let (outcome, exited) = await server.stop(within: 10)
        let took = Date().timeIntervalSince(signalled)
        print("serve --fetch: a fetch in progress stopped \(String(format: "%.2f", took)) s after SIGTERM")
        #expect(exited, "still running 10 s after SIGTERM: \(outcome.all)")
        #expect(outcome.status == 0, "\(outcome.all)")
        #expect(outcome.stderr.contains("mustc: fetch: interrupted:"), "\(outcome.stderr)")
        #expect(try query("PRAGMA integrity_check") == "ok")
        #expect(try query("SELECT result FROM fetchRun ORDER BY id DESC LIMIT 1") == "interrupted")
        #expect(try query("SELECT count(*) FROM fetchRun WHERE endedAt IS NULL") == "0")
        // Every answer that came in was written, none of the held ones.
        #expect(try query("SELECT count(*) FROM movie WHERE remoteId IS NOT NULL") == "100")
        // What was written stays; the next fetch does the rest.
        stub.release()
        let next = try await mustc.run(["fetch", "--force", "--json"])
        #expect(try next.json()["changed"] as? Int == 100, "\(next.all)")
    }

    @Test func itNeverFetchesWhileAnotherProcessHoldsTheLock() async throws {
        #expect(try await mustc("add", "--no-lookup", "Bob", "Up").status == 0)
        let lock = open(mustc.databasePath + ".fetch-lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        try #require(lock >= 0 && flock(lock, LOCK_EX) == 0)
        var held = true
        defer { if held { close(lock) } }
        let server = try await ServeProcess.start(mustc, arguments: ["--fetch", "--listen", "127.0.0.1:0"])
        defer { server.ensureStopped() }
        let stderr = { (try? String(contentsOfFile: server.running.stderrPath, encoding: .utf8)) ?? "" }
        let refused = try await waitUntil(60) { stderr().contains("Another mustc fetch is running") }
        try #require(refused != nil, "no word of the other fetch: \(stderr())")
        // It looks again every second: a few more looks, none of which may fetch.
        let fetched = await Poll.until(within: .seconds(3), every: .milliseconds(100)) { stub.requestCount > 0 }
        #expect(!fetched && stub.requestCount == 0)
        #expect(try query("SELECT count(*) FROM movie WHERE remoteId IS NOT NULL") == "0")
        #expect(stderr().components(separatedBy: "Another mustc fetch is running").count == 2, "\(stderr())")
        close(lock)
        held = false
        let rated = try await waitUntil(30) { try query("SELECT remoteId FROM movie") == "14160" }
        #expect(rated != nil, "not fetched once the lock was free: \(stderr())")
        let (outcome, exited) = await server.stop(within: 10)
        #expect(exited && outcome.status == 0, "\(outcome.all)")
    }

    @Test func withoutCredentialsFetchIsAConfigErrorAndNothingIsWritten() async throws {
        var bare = mustc
        bare.environment["TMDB_API_KEY"] = nil
        let outcome = try await bare("serve", "--fetch", "--listen", "127.0.0.1:0")
        #expect(outcome.status == 78, "\(outcome.all)")
        #expect(outcome.stderr.contains("mustc serve --fetch needs TMDB credentials"))
        #expect(outcome.stderr.contains("TMDB_API_KEY"))
        #expect(!FileManager.default.fileExists(atPath: mustc.databasePath))
        // Plain serve needs no key.
        let server = try await ServeProcess.start(bare)
        defer { server.ensureStopped() }
        #expect(try await HTTP.get(server.url).status == 200)
        #expect(await server.stop().outcome.status == 0)
    }

    @Test func listenVariableOverridesTheConfigAndTheOptionOverridesIt() async throws {
        var served = mustc
        let config = served.home.file("listen.json")
        try #"{"serve": {"listen": "0.0.0.0:0"}}"#.write(toFile: config, atomically: true, encoding: .utf8)
        served.environment["MUSTC_CONFIG"] = config
        served.environment["MUSTC_LISTEN"] = "127.0.0.1:0"
        let fromVariable = try await ServeProcess.start(served, arguments: [])
        defer { fromVariable.ensureStopped() }
        #expect(fromVariable.url.hasPrefix("http://127.0.0.1:"), "\(fromVariable.url)")
        let first = await fromVariable.stop()
        #expect(first.outcome.status == 0)
        #expect(!first.outcome.stderr.contains("anyone on the network"))

        served.environment["MUSTC_LISTEN"] = "0.0.0.0:0"
        let fromOption = try await ServeProcess.start(served, arguments: ["--listen", "127.0.0.1:0"])
        defer { fromOption.ensureStopped() }
        #expect(fromOption.url.hasPrefix("http://127.0.0.1:"), "\(fromOption.url)")
        #expect(await fromOption.stop().outcome.status == 0)

        for bad in ["8080", "localhost:http", "127.0.0.1:70000"] {
            served.environment["MUSTC_LISTEN"] = bad
            let outcome = try await served("serve")
            #expect(outcome.status == 78, "\(bad): \(outcome.all)")
            #expect(outcome.stderr.contains("MUSTC_LISTEN") && outcome.stderr.contains("HOST:PORT"), "\(outcome.all)")
        }
    }
}
