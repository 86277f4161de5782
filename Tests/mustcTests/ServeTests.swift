import Foundation
import TMDBStub
import Testing

/// `mustc serve` over plain HTTP through the built binary: the JSON API against the commands, limits, serving while
/// a fetch writes, signals and the listen address. The routes, headers, error pages and validators are tested
/// in-process (Tests/MustWebTests: WebRouteTests, WebCacheTests, WebSignInTests, WebPosterTests).
@Suite struct ServeTests {
    static func family(_ stub: TMDBStubServer) async throws -> MustcBinary {
        let mustc = MustcBinary(stub: stub)
        #expect(try await mustc("add", "Ann", "Up", "Amélie").status == 0)
        #expect(try await mustc("add", "Zoë & <b>Co</b>", "Spirited Away").status == 0)
        #expect(try await mustc("add", "--no-lookup", "Bob", "Not On TMDB").status == 0)
        stub.update(id: 14160) { $0.voteAverage = 8.3 }
        #expect(try await mustc("fetch", "--force").status == 0)
        return mustc
    }

    /// The family served by `mustc serve`, with the stub and the server stopped however `body` ends.
    static func serving(_ body: (TMDBStubServer, MustcBinary, ServeProcess) async throws -> Void) async throws {
        let stub = TMDBStubServer(movies: StubMovie.classics)
        try stub.start()
        defer { stub.stop() }
        let mustc = try await Self.family(stub)
        let server = try await ServeProcess.start(mustc)
        defer { server.ensureStopped() }
        try await body(stub, mustc, server)
    }

    @Test func theAPIAnswersExactlyWhatTheCommandsPrint() async throws {
        try await Self.serving { stub, mustc, server in

            let ratings = try await HTTP.get(server.url + "api/ratings")
            #expect(ratings.status == 200)
            #expect(ratings.header("Content-Type") == "application/json; charset=utf-8")
            let command = try await mustc("ratings", "--format", "json")
            #expect(
                ServeBrowserTests.withoutTrendStart(ratings.body)
                    == ServeBrowserTests.withoutTrendStart(command.stdout))
            #expect(ratings.body.contains("\"voteAverage\" : 8.3"))

            // A date rather than a duration, so that both answers name the same window.
            let changes = try await HTTP.get(server.url + "api/changes?since=2020-01-01")
            #expect(changes.status == 200)
            #expect(changes.body == (try await mustc("changes", "--since", "2020-01-01", "--format", "json")).stdout)
            #expect(changes.body.contains("\"changes\" : 1"))

            let status = try await HTTP.get(server.url + "api/status")
            #expect(status.status == 200)
            #expect(status.body == (try await mustc("status", "--json")).stdout)
            #expect(!(ratings.body + changes.body + status.body).contains(stub.apiKey))
        }
    }

    @Test func fiveHundredIdleConnectionsDoNotStopANewClient() async throws {
        let stub = TMDBStubServer(movies: StubMovie.classics)
        try stub.start()
        defer { stub.stop() }
        let mustc = MustcBinary(stub: stub)
        #expect(try await mustc("add", "Ann", "Up").status == 0)
        let server = try await ServeProcess.start(mustc)
        defer { server.ensureStopped() }
        let port = try #require(URL(string: server.url)?.port)
        let idle = (0..<500).map { _ in IdleConnection(port: port) }
        defer { idle.forEach { $0.close() } }
        #expect(idle.filter(\.connected).count == 500)
        // A partial request head on some of them: a slow client that never finishes.
        for connection in idle.prefix(100) { connection.send("GET / HTTP/1.1\r\nHost: x\r\n") }
        let page = try await HTTP.get(server.url + "members/Ann")
        #expect(page.status == 200)
        #expect(page.body.contains("<bdi>Up</bdi>"))
        // Served while every idle connection was still open: not by closing them to make room.
        #expect(idle.filter(\.isOpen).count == 500)
    }

    @Test func pagesKeepAnsweringWhileAFetchWrites() async throws {
        try await Self.serving { stub, mustc, server in
            // Slow answers keep the fetch, and its writes, going while the pages are read.
            stub.latency = 0.3
            stub.update(id: 129) { $0.voteAverage = 8.7 }
            let fetch = try mustc.start(["fetch", "--force"])
            var statuses: [Int] = []
            while fetch.process.isRunning || statuses.count < 3 {
                for path in ["", "members/Ann", "movies/129", "changes", "status", "api/ratings"] {
                    statuses.append(try await HTTP.get(server.url + path).status)
                }
            }
            let (outcome, exited) = await fetch.wait(orKillAfter: MustcBinary.deadline)
            #expect(exited && outcome.status == 0, "\(outcome.all)")
            #expect(Set(statuses) == [200], "\(statuses)")
            #expect(try await HTTP.get(server.url + "api/ratings").body.contains("8.7"))
        }
    }

    @Test func signalsStopItAndTheNetworkGetsAWarning() async throws {
        let mustc = MustcBinary()
        #expect(try await mustc("add", "--no-lookup", "Ann", "Up").status == 0)
        for signal in [SIGINT, SIGTERM] {
            let server = try await ServeProcess.start(mustc, arguments: ["--listen", "0.0.0.0:0"])
            defer { server.ensureStopped() }
            #expect(server.url.hasPrefix("http://0.0.0.0:"))
            kill(server.running.process.processIdentifier, signal)
            let (outcome, exited) = await server.running.wait(orKillAfter: 10)
            #expect(exited, "still running after signal \(signal)")
            #expect(outcome.status == 0, "\(outcome.all)")
            #expect(outcome.stderr.contains("anyone on the network can read these pages"))
        }
        let quiet = try await ServeProcess.start(mustc)
        defer { quiet.ensureStopped() }
        let (outcome, _) = await quiet.stop()
        #expect(!outcome.stderr.contains("warning"))
    }

    @Test func aBadListenAddressIsAUsageOrConfigError() async throws {
        let mustc = MustcBinary()
        for bad in ["8080", "localhost:http", "127.0.0.1:70000", "a b:80", "::1:80"] {
            let outcome = try await mustc("serve", "--listen", bad)
            #expect(outcome.status == 64, "\(bad): \(outcome.all)")
            #expect(outcome.stderr.contains("HOST:PORT"))
        }
        let config = mustc.home.file("config.json")
        try #"{"serve": {"listen": "everywhere"}}"#.write(toFile: config, atomically: true, encoding: .utf8)
        let outcome = try await mustc("serve", "--config", config)
        #expect(outcome.status == 78, "\(outcome.all)")
        #expect(outcome.stderr.contains("serve.listen"))
    }
}

/// A TCP connection that sends nothing (or a partial head) until closed.
final class IdleConnection: Sendable {
    let descriptor: Int32
    let connected: Bool

    init(port: Int) {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.descriptor = descriptor
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }

    /// Nothing to read and not closed by the server: a peek that would block.
    var isOpen: Bool {
        var byte: UInt8 = 0
        let read = recv(descriptor, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT))
        return read < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)
    }

    func send(_ text: String) { _ = text.withCString { write(descriptor, $0, strlen($0)) } }
    func close() { _ = Glibc.close(descriptor) }
}
