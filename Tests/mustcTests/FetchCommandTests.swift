import Foundation
import TMDBStub
import TestSupport
import Testing

/// `mustc fetch` and `mustc status` driven as a timer would drive them, against the loopback stub.
@Suite final class FetchCommandTests {
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

    // The accept thread keeps a started stub alive; only stop() ends it and closes its sockets.
    deinit { stub.stop() }

    func fetchJSON(_ arguments: String...) async throws -> (Outcome, [String: Any]) {
        let outcome = try await mustc.run(["fetch", "--json"] + arguments)
        return (outcome, try outcome.json())
    }

    /// Adds `count` synthetic titles without looking them up, then resolves them all with one forced fetch.
    func seedSynthetic(_ count: Int) async throws {
        let added = try await mustc.run(["add", "--no-lookup", "Bob"] + (1...count).map { "Movie \($0)" })
        #expect(added.status == 0)
        let (resolved, json) = try await fetchJSON("--force")
        #expect(resolved.status == 0)
        #expect(json["changed"] as? Int == count)
        stub.resetCounters()
    }

    @Test func unchangedDataBacksOffUntilARatingChanges() async throws {
        #expect(try await mustc("add", "Alice", "Amélie", "Up", "Spirited Away").status == 0)
        var intervals: [Int] = []
        for _ in 0..<4 {
            let (outcome, json) = try await fetchJSON("--force")
            #expect(outcome.status == 0)
            #expect(json["result"] as? String == "noData")
            #expect(json["unchanged"] as? Int == 3)
            #expect(!outcome.stdout.contains("\r"), "no progress bar when stdout is not a terminal")
            intervals.append(json["interval"] as? Int ?? -1)
        }
        // Each movie doubles its own interval (up to the 2h cap); the run wakes for the earliest, ±10% jitter.
        for (interval, expected) in zip(intervals, [1800.0, 3600, 7200, 7200]) {
            #expect((expected * 0.9...min(expected * 1.1, 7200)).contains(Double(interval)), "\(intervals)")
        }

        let (notDue, waiting) = try await fetchJSON()
        #expect(notDue.status == 0)
        #expect(waiting["result"] as? String == "notDue")
        #expect(waiting["nextFetchAt"] is String)

        stub.update(id: 14160) { $0.voteAverage = 8.0 }
        let (changed, json) = try await fetchJSON("--force")
        #expect(changed.status == 0)
        #expect(json["result"] as? String == "newData")
        #expect(json["changed"] as? Int == 1)
        // The changed movie is back at 15m (±10%, and never sooner than the minimum); it wakes the next run.
        #expect((900...990).contains(json["interval"] as? Int ?? 0))

        let status = try await mustc("status", "--json").json()
        #expect(status["lastResult"] as? String == "newData")
        #expect(status["interval"] as? Int == json["interval"] as? Int)
        #expect(status["consecutiveNoData"] as? Int == 0)
        #expect(status["consecutiveFailures"] as? Int == 0)
        #expect((status["runs"] as? [Any])?.count == 5)
    }

    @Test func theURLSessionFallbackFetchesLikeTheDefault() async throws {
        try await seedSynthetic(20)
        let fallback = mustc.home.file("urlsession.json")
        try #"{"tmdb": {"transport": "urlsession", "maxRequestsPerSecond": 2000}}"#
            .write(toFile: fallback, atomically: true, encoding: .utf8)
        stub.update(id: 100_004) { $0.voteAverage = 9.5 }
        let (outcome, json) = try await fetchJSON("--force", "--config", fallback)
        #expect(outcome.status == 0)
        #expect(json["result"] as? String == "newData")
        #expect(json["changed"] as? Int == 1)
        #expect(json["unchanged"] as? Int == 19)
        #expect(stub.requestCount == 20)
    }

    @Test func aTerminalGetsAProgressBar() async throws {
        try await seedSynthetic(40)
        // `script` gives mustc a pseudo-terminal, as a person at a shell would have.
        var terminal = mustc
        terminal.executable = URL(fileURLWithPath: "/usr/bin/script")
        let outcome = try await terminal.run(["-qec", "'\(MustcBinary.url.path)' fetch --force", "/dev/null"])
        #expect(outcome.status == 0, "\(outcome.all)")
        #expect(outcome.stdout.contains("\r["))
        #expect(outcome.stdout.contains("40/40"))
        #expect(outcome.stdout.contains("req/s"))
        #expect(outcome.stdout.contains("noData: 40 of 40 movies"))
    }

    @Test func aFailedRunExits75AndTheKeyStaysHidden() async throws {
        try await mustc("add", "Alice", "Up")
        stub.inject(.unauthorized, times: nil)
        let (outcome, json) = try await fetchJSON("--force", "--verbose")
        #expect(outcome.status == 75)
        #expect(json["result"] as? String == "failed")
        #expect(json["interval"] as? Int ?? 0 >= 540)
        #expect(!outcome.all.contains(stub.apiKey))
        let plain = try await mustc("fetch", "--force")
        #expect(plain.status == 75)
        #expect(plain.stdout.contains("401"))
        let status = try await mustc("status", "--json").json()
        #expect(status["consecutiveFailures"] as? Int == 2)
    }

    @Test func fetchWithoutCredentialsIsAConfigError() async throws {
        var bare = mustc
        bare.environment["TMDB_API_KEY"] = nil
        let outcome = try await bare("fetch")
        #expect(outcome.status == 78)
        #expect(outcome.stderr.contains("TMDB_API_KEY"))
    }

    @Test func ofTwoFetchesStartedTogetherExactlyOneFetches() async throws {
        try await seedSynthetic(40)
        stub.latency = 0.1
        let both = await waitAll(try (0..<2).map { _ in try mustc.start(["fetch", "--force", "--json"]) })
        let results = try both.map { try $0.json()["result"] as? String }
        #expect(both.allSatisfy { $0.status == 0 })
        #expect(results.sorted { ($0 ?? "") < ($1 ?? "") } == ["alreadyRunning", "noData"])
        #expect(stub.requestCount == 40)
    }

    @Test func sigtermStopsWatchCleanly() async throws {
        // 200 movies at 0.2 s an answer, four at a time: a 10 s run, so a loaded machine that is slow to deliver
        // the signal still stops it midway (with 40 movies it once finished first in a fresh-clone CI run).
        try await seedSynthetic(200)
        for id in 100_000..<100_200 { stub.update(id: id) { $0.voteCount += 1000 } }
        stub.latency = 0.2
        let schedule = try sqlite(mustc.databasePath, "SELECT nextFetchAt, interval FROM schedule")
        let watch = try mustc.start(["fetch", "--watch", "--force", "--verbose"])
        await Poll.until(within: .seconds(10)) { stub.requestCount >= 8 }
        kill(watch.process.processIdentifier, SIGTERM)
        let (outcome, stopped) = await watch.wait(orKillAfter: 60)
        try #require(stopped, "--watch ignored SIGTERM: \(outcome.all)")
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(try sqlite(mustc.databasePath, "PRAGMA integrity_check") == "ok")
        #expect(try sqlite(mustc.databasePath, "SELECT result FROM fetchRun ORDER BY id DESC LIMIT 1") == "interrupted")
        #expect(try sqlite(mustc.databasePath, "SELECT count(*) FROM fetchRun WHERE endedAt IS NULL") == "0")
        let written = Int(try sqlite(mustc.databasePath, "SELECT count(*) FROM movie WHERE voteCount >= 1000")) ?? 0
        #expect(written > 0 && written < 200)
        // The interrupted run left the schedule alone, and the next run picks up what it did not finish.
        #expect(try sqlite(mustc.databasePath, "SELECT nextFetchAt, interval FROM schedule") == schedule)
        stub.latency = 0
        let (_, next) = try await fetchJSON("--force")
        #expect(next["result"] as? String == "newData")
        #expect(next["changed"] as? Int == 200 - written, "\(next)")
    }

    @Test func killDashNineMidFetchLosesNothingCommitted() async throws {
        try await mustc.run(["add", "--no-lookup", "Bob"] + (1...200).map { "Movie \($0)" })
        // At 0.2 s an answer, four at a time, the run takes 10 s: time for the poll below to see 30 movies written
        // however slowly a loaded machine starts its sqlite3 processes (at 0.05 s it once finished between two
        // polls in a full run).
        stub.latency = 0.2
        let fetch = try mustc.start(["fetch", "--force"])
        var resolved = 0
        try await Poll.until(within: .seconds(20), every: .milliseconds(20)) {
            resolved = Int(try sqlite(mustc.databasePath, "SELECT count(*) FROM movie WHERE remoteId IS NOT NULL")) ?? 0
            return resolved >= 30
        }
        kill(fetch.process.processIdentifier, SIGKILL)
        _ = await fetch.wait()
        stub.latency = 0
        #expect(try sqlite(mustc.databasePath, "PRAGMA integrity_check") == "ok")
        let afterKill = Int(try sqlite(mustc.databasePath, "SELECT count(*) FROM movie WHERE remoteId IS NOT NULL"))
        #expect((afterKill ?? 0) >= resolved)
        #expect((afterKill ?? 0) < 200)
        #expect(try sqlite(mustc.databasePath, "SELECT count(*) FROM fetchRun WHERE endedAt IS NULL") == "1")

        let (again, json) = try await fetchJSON()
        #expect(again.status == 0, "\(again.all)")
        #expect(json["result"] as? String == "newData", "\(again.all)")
        #expect(try sqlite(mustc.databasePath, "SELECT count(*) FROM movie WHERE remoteId IS NOT NULL") == "200")
        #expect(try sqlite(mustc.databasePath, "SELECT count(*) FROM movie") == "200", "\(json)")
        #expect(try await mustc("status").stdout.contains("unfinished"))
    }
}
