import Foundation
import TMDBStub
import Testing

/// What the fetch issue's throughput scenario asserts, on a small library: every movie asked for once, no more than
/// `maxConcurrentOperations` requests in flight. The figure itself (5,000 movies at 25 ms, C=8) is measured by
/// `contrib/benchmarks/run --only throughput`; timing never fails a test.
@Suite struct FetchThroughputTests {
    @Test func twoHundredMoviesEachAskedOnceAtMostEightAtATime() async throws {
        let count = 200
        let stub = TMDBStubServer(movies: StubMovie.synthetic(count))
        stub.recordsRequests = false
        try stub.start()
        defer { stub.stop() }
        var mustc = MustcBinary(stub: stub)
        let config = mustc.home.file("config.json")
        try #"{"fetch": {"maxConcurrentOperations": 8}, "tmdb": {"maxRequestsPerSecond": 100000}}"#
            .write(toFile: config, atomically: true, encoding: .utf8)
        mustc.environment["MUSTC_CONFIG"] = config
        let titles = mustc.home.file("titles.txt")
        try (1...count).map { "Movie \($0)\n" }.joined().write(toFile: titles, atomically: true, encoding: .utf8)
        #expect(try await mustc("add", "--no-lookup", "Bob", "--from", titles).status == 0)

        let resolve = try await mustc("fetch", "--force", "--json")
        #expect(try resolve.json()["changed"] as? Int == count)

        // A little latency keeps requests in flight together, so the bound on them is put to work.
        stub.latency = 0.005
        stub.resetCounters()
        let fetch = try await mustc("fetch", "--force", "--json")
        let json = try fetch.json()
        #expect(json["result"] as? String == "noData")
        #expect(json["unchanged"] as? Int == count)
        #expect(stub.requestCount == count)
        #expect(stub.peakConcurrency <= 8)
    }
}
