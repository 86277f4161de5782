import Foundation
import TMDBStub
import Testing

/// The fetch issue's throughput scenario: 5,000 movies, 25 ms stub latency, 8 operations in flight.
/// It prints the figure; timing never fails the test (the benchmarks track it).
@Suite struct FetchThroughputTests {
    @Test func fiveThousandMoviesAtTwentyFiveMilliseconds() async throws {
        let count = 5000
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

        stub.latency = 0.025
        stub.resetCounters()
        let started = Date()
        let fetch = try await mustc("fetch", "--force", "--json")
        let wall = Date().timeIntervalSince(started)
        let json = try fetch.json()
        #expect(json["result"] as? String == "noData")
        #expect(json["unchanged"] as? Int == count)
        #expect(stub.requestCount == count)
        #expect(stub.peakConcurrency <= 8)
        let ideal = Double(count) * 0.025 / 8
        print(
            String(
                format: "throughput: %d movies, 25 ms latency, C=8: %.2f s wall (ideal %.2f s, %.2fx), %.0f req/s",
                count, wall, ideal, wall / ideal, Double(count) / wall))
    }
}
