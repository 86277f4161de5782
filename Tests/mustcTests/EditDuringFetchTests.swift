import Foundation
import TMDBStub
import TestSupport
import Testing

/// Edits from the command line while `fetch --force` writes against a slow stub: each edit waits its turn for the
/// write lock (IMMEDIATE transactions, busy timeout) and succeeds; none says "database is locked". Every command is
/// a process of the built binary, as the processes' locking is the subject (and the end-to-end runs of `remove`
/// and `resolve`).
@Suite final class EditDuringFetchTests {
    let stub: TMDBStubServer
    let mustc: MustcBinary

    init() throws {
        stub = TMDBStubServer(movies: StubMovie.identity + StubMovie.synthetic(200))
        try stub.start()
        var mustc = MustcBinary(stub: stub)
        let config = mustc.home.file("config.json")
        try #"""
        {"fetch": {"maxConcurrentOperations": 4, "writeBatchSize": 10},
         "tmdb": {"maxRequestsPerSecond": 2000, "requestTimeout": "120s"}}
        """#.write(toFile: config, atomically: true, encoding: .utf8)
        mustc.environment["MUSTC_CONFIG"] = config
        mustc.through = .binary
        self.mustc = mustc
    }

    deinit { stub.stop() }

    func resolvedCount() throws -> Int {
        Int(try sqlite(mustc.databasePath, "SELECT count(*) FROM movie WHERE remoteId IS NOT NULL")) ?? 0
    }

    @Test func addRemoveAndResolveSucceedWhileAFetchWrites() async throws {
        try await mustc.run(["add", "--no-lookup", "Bob"] + (1...200).map { "Movie \($0)" })
        stub.latency = 0.25
        // The last movie's answer waits for the edits: the fetch goes on writing the others meanwhile, and cannot
        // end before the edits however slow the machine (its 120 s timeout is never reached).
        stub.hold { $0.query["query"] == "Movie 200" }
        defer { stub.release() }
        let fetch = try mustc.start(["fetch", "--force"])
        // Wait until the fetch has written: the edits below then meet its write transactions.
        try await Poll.until(within: .seconds(60), every: .milliseconds(20)) { try resolvedCount() >= 10 }
        #expect(try resolvedCount() >= 10)

        // Each edit starts while the fetch runs: it cannot end while Movie 200 is held.
        #expect(fetch.process.isRunning)
        let add = try await mustc("add", "Ann", "Dune (2021)")
        #expect(add.status == 0, "\(add.all)")
        #expect(add.stdout.contains("id 438631"), "\(add.all)")
        #expect(fetch.process.isRunning)
        let remove = try await mustc("remove", "Bob", "Movie 7")
        #expect(remove.status == 0, "\(remove.all)")
        #expect(fetch.process.isRunning)
        let resolve = try await mustc("resolve", "Ann", "Dune (2021)", "tmdb:841")
        #expect(resolve.status == 0, "\(resolve.all)")
        #expect(fetch.process.isRunning)
        stub.release()
        let fetched = await fetch.wait()
        #expect(fetched.status == 0, "\(fetched.all)")
        for outcome in [add, remove, resolve, fetched] { #expect(!outcome.all.contains("locked")) }
        #expect(try resolvedCount() == 200, "\(fetched.all)")
        let ann = try await mustc("ratings", "--member", "Ann", "--format", "json").json()
        let movies = (ann["members"] as? [[String: Any]])?.first?["movies"] as? [[String: Any]]
        #expect(movies?.map { $0["remoteId"] as? Int } == [841])
    }
}
