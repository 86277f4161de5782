import Clocks
import Foundation
import TMDBStub
import TestSupport
import Testing

@testable import MustCore

/// The libcurl transport on its own, over loopback: connection reuse, limits, cancellation, the loop thread.
@Suite final class CurlTransportTests {
    let stub: TMDBStubServer

    init() throws {
        stub = TMDBStubServer(movies: StubMovie.classics)
        try stub.start()
    }

    // The accept thread keeps a started stub alive; only stop() ends it and closes its sockets.
    deinit { stub.stop() }

    /// The timeout is long: these tests are about connections and cancellation, and a loaded machine can hold an
    /// answer's thread for seconds.
    func request(_ path: String, timeout: TimeInterval = 60) -> HTTPRequest {
        HTTPRequest(
            url: URL(string: "\(stub.baseURL.absoluteString)/\(path)?api_key=\(stub.apiKey)")!, timeout: timeout)
    }

    @Test func answersWithStatusLowercasedHeadersAndBody() async throws {
        let response = try await CurlTransport.make(time: .system)(request("movie/194"))
        #expect(response.status == 200)
        #expect(response.headers["content-type"]?.hasPrefix("application/json") == true)
        #expect(try JSONDecoder().decode(RemoteMovie.self, from: response.body).id == 194)
        let missing = try await CurlTransport.make(time: .system)(request("movie/999999"))
        #expect(missing.status == 404)
        #expect(String(decoding: missing.body, as: UTF8.self).contains("\"status_code\":34"))
    }

    @Test func aBodyOverTheCapIsRefused() async throws {
        stub.inject(.oversizedBody(bytes: CurlTransfer.maxBodyBytes + 1_000_000), on: .details(id: 194))
        await #expect(throws: TransportError.unreachable("response larger than 8 MB")) {
            try await CurlTransport.make(time: .system)(request("movie/194"))
        }
        stub.inject(.oversizedBody(bytes: CurlTransfer.maxBodyBytes - 1_000_000), on: .details(id: 194))
        #expect(
            try await CurlTransport.make(time: .system)(request("movie/194")).body.count == CurlTransfer.maxBodyBytes
                - 1_000_000)
    }

    /// curl refuses option strings over 8,000,000 bytes. The refusal was ignored and the transfer started
    /// anyway, without the URL it was given; it must fail at once, saying what curl refused.
    @Test func aURLCurlRefusesFailsInsteadOfFetchingThePreviousOne() async throws {
        let transport = CurlTransport.make(maxConnections: 1, time: .system)
        #expect(try await transport(request("movie/194")).status == 200)
        let huge = request("movie/129?pad=" + String(repeating: "x", count: 8_000_001))
        await #expect {
            try await transport(huge)
        } throws: { error in
            guard case .unreachable(let reason) = error as? TransportError else { return false }
            return reason.contains("libcurl refused") && !reason.contains(self.stub.apiKey)
        }
        #expect(stub.requestCount == 1)
    }

    @Test func sequentialRequestsShareOneConnection() async throws {
        let transport = CurlTransport.make(maxConnections: 4, time: .system)
        for _ in 0..<30 { _ = try await transport(request("movie/194")) }
        #expect(stub.requestCount == 30)
        #expect(stub.connectionCount == 1)
    }

    @Test func concurrentRequestsStayWithinTheConnectionLimit() async throws {
        stub.latency = 0.02
        let transport = CurlTransport.make(maxConnections: 3, time: .system)
        let details = request("movie/194")
        try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<24 { group.addTask { try await transport(details).status } }
            for try await status in group { #expect(status == 200) }
        }
        #expect(stub.requestCount == 24)
        #expect(stub.peakConcurrency <= 3)
        #expect(stub.connectionCount <= 3)
    }

    @Test func cancellationReturnsWhileTheServerStillHangs() async throws {
        stub.inject(.hang(seconds: 60), on: .details(id: 194))
        let transport = CurlTransport.make(time: .system)
        let details = request("movie/194", timeout: 120)
        let task = Task { try await transport(details) }
        await Poll.until(within: .seconds(60)) { stub.peakConcurrency != 0 }
        task.cancel()
        try #require(stub.peakConcurrency > 0, "the request never reached the stub")
        await #expect(throws: CancellationError.self) { try await task.value }
    }

    @Test func alreadyCancelledRequestsNeverReachTheServer() async throws {
        let transport = CurlTransport.make(time: .system)
        let details = request("movie/194")
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await transport(details)
        }
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(stub.requestCount == 0)
    }

    /// The idle time is measured on the loop's clock: a test clock keeps the thread until it is turned, however
    /// long the machine takes, and the thread stops at its next poll (at most a second) once it has been.
    @Test func loopThreadStopsWhenIdleAndStartsAgain() async throws {
        let clock = TestClock<Duration>()
        let loop = CurlLoop(maxConnections: 2, idleStop: .seconds(5), time: .test(clock))
        #expect(try await loop.perform(request("movie/194")).status == 200)
        #expect(loop.threadRunning)
        await clock.advance(by: .seconds(5))
        await Poll.until(within: .seconds(60), every: .milliseconds(20)) { !loop.threadRunning }
        #expect(!loop.threadRunning)
        #expect(try await loop.perform(request("movie/194")).status == 200)
        #expect(stub.requestCount == 2)
    }

    /// A command run inside a longer-lived process (the tests' in-process `fetch`) leaves no thread or connection
    /// behind: once its transport is gone, the loop's thread stops without waiting out its idle time (this clock
    /// never moves, so it would wait for ever), and the loop, whose `deinit` closes the connections, goes with it.
    @Test func theLoopEndsWithItsTransport() async throws {
        var stack: HTTPStack? = CurlTransport.stack(maxConnections: 2, time: .test(TestClock<Duration>()))
        weak let loop = stack?.executor as? CurlLoop
        #expect(try await stack?.transport(request("movie/194")).status == 200)
        #expect(loop?.threadRunning == true)
        stack = nil
        await Poll.until(within: .seconds(60), every: .milliseconds(20)) { loop == nil }
        #expect(loop == nil, "the loop outlived its transport")
    }
}
