import Foundation
import TMDBStub
import Testing

/// What strangers can send the page's server, through the built binary over
/// raw HTTP: the bytes of each request as written here, the answers as they came. What needs no real channel (405
/// with Allow, 400 for a control character, 421 for a forwarded name) is tested in-process in WebRouteTests.
@Suite struct ServeHardeningTests {
    /// Ann keeps Up (no lookup), served with `arguments` and the config `config` (JSON) when given.
    static func serving(
        config: String? = nil, arguments: [String] = ["--listen", "127.0.0.1:0"], password: Bool = false,
        _ body: (MustcBinary, ServeProcess, Int) async throws -> Void
    ) async throws {
        var mustc = MustcBinary()
        if let config {
            let path = mustc.home.file("config.json")
            try config.write(toFile: path, atomically: true, encoding: .utf8)
            mustc.environment["MUSTC_CONFIG"] = path
        }
        #expect(try await mustc("add", "--no-lookup", "Ann", "Up").status == 0)
        if password {
            let outcome = try await mustc.run(["password"], input: "popcorn on sunday\n")
            #expect(outcome.status == 0, "\(outcome.all)")
        }
        let server = try await ServeProcess.start(mustc, arguments: arguments)
        defer { server.ensureStopped() }
        let port = try #require(Int(server.url.split(separator: ":").last?.filter(\.isNumber) ?? ""))
        try await body(mustc, server, port)
    }

    static func get(_ path: String, host: String, port: Int, method: String = "GET", extra: String = "")
        async throws -> RawAnswer
    {
        try await RawConnection.exchange(
            port: port, "\(method) \(path) HTTP/1.1\r\nHost: \(host)\r\n\(extra)\r\n", method: method)
    }

    // MARK: the hook on the page

    @Test func thePageAndTheAPIShowWhetherTheHookRanButNeverItsCommandOrOutput() async throws {
        let stub = TMDBStubServer(movies: StubMovie.classics)
        try stub.start()
        defer { stub.stop() }
        var mustc = MustcBinary(stub: stub)
        let script = mustc.home.file("notify-family.sh")
        try writeScript("#!/bin/sh\ncat > /dev/null\necho 'smtp login hunter2 refused' >&2\nexit 3\n", to: script)
        let config = mustc.home.file("config.json")
        try #"{"fetch": {"onNewData": ["\#(script)"]}}"#.write(toFile: config, atomically: true, encoding: .utf8)
        mustc.environment["MUSTC_CONFIG"] = config
        #expect(try await mustc("add", "Ann", "Up").status == 0)
        stub.update(id: 14160) { $0.voteCount += 1 }
        #expect(try await mustc("fetch", "--force").status == 0)

        let terminal = try await mustc("status", "--json")
        let kept = try #require(try terminal.json()["hook"] as? [String: Any])
        #expect(kept["program"] as? String == script)
        #expect(kept["stderrTail"] as? String == "smtp login hunter2 refused")

        let server = try await ServeProcess.start(mustc)
        defer { server.ensureStopped() }
        let page = try await HTTP.get(server.url + "status")
        let api = try await HTTP.get(server.url + "api/status")
        for answer in [page, api] {
            #expect(answer.status == 200)
            #expect(!answer.body.contains("notify-family") && !answer.body.contains("hunter2"), "\(answer.body)")
        }
        #expect(page.body.contains("failed (exit status 3)"), "\(page.body)")
        // The API is the command's JSON without the hook's program and stderrTail, and nothing else missing.
        let served = try #require(try JSONSerialization.jsonObject(with: Data(api.body.utf8)) as? NSDictionary)
        var expected = try terminal.json()
        var hook = kept
        hook["program"] = nil
        hook["stderrTail"] = nil
        expected["hook"] = hook
        #expect(served == expected as NSDictionary, "\(api.body)")
        #expect((served["hook"] as? [String: Any])?["outcome"] as? String == "failed")
    }

    // MARK: Host names

    @Test func onlyANameOfThisServerIsAnsweredAndAnyOtherGets421NamingTheKey() async throws {
        let config = #"{"serve": {"hosts": ["movies.example.org", "[fd00::20]"]}}"#
        try await Self.serving(config: config) { _, _, port in
            var machine = [CChar](repeating: 0, count: 256)
            gethostname(&machine, 255)
            let hostname = String(decoding: machine.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            for host in [
                "127.0.0.1:\(port)", "127.0.0.1", "localhost:\(port)", "LocalHost.:\(port)", "[::1]:\(port)",
                "[0:0::1]", "movies.example.org", "Movies.Example.ORG.:443", "[FD00::20]:8080", hostname,
                "\(hostname.uppercased()):\(port)", "\(hostname.split(separator: ".")[0]).local:\(port)",
            ] {
                let answer = try await Self.get("/members/Ann", host: host, port: port)
                #expect(answer.status == 200, "Host: \(host)")
            }
            for host in [
                "evil.example", "evil.example:\(port)", "127.0.0.1.evil.example", "localhost.evil.example",
                "movies.example.org.evil", "[::2]:\(port)", "[fd00::21]", "127.0.0.1:notaport",
            ] {
                let answer = try await Self.get("/members/Ann", host: host, port: port)
                #expect(answer.status == 421, "Host: \(host)")
                #expect(answer.text.contains("serve.hosts"), "Host: \(host): \(answer.text)")
                #expect(!answer.text.contains("Up"), "Host: \(host)")
                #expect(answer.header("Content-Security-Policy") != nil)
            }
            // Behind a proxy, the name the browser used counts too.
            let forwarded = try await Self.get(
                "/api/ratings", host: "127.0.0.1:\(port)", port: port, extra: "X-Forwarded-Host: evil.example\r\n")
            #expect(forwarded.status == 421)
        }
    }

    // MARK: HEAD and HTTP/1.0

    @Test func headIsGetWithoutABodyOnTheWireAndHTTP10IsClosed() async throws {
        try await Self.serving { _, _, port in
            let host = "127.0.0.1:\(port)"
            for path in ["/", "/members/Ann", "/static/site.css", "/api/status", "/status"] {
                let get = try await Self.get(path, host: host, port: port)
                let connection = try RawConnection(port: port)
                connection.send("HEAD \(path) HTTP/1.1\r\nHost: \(host)\r\n\r\n")
                let head = try #require(try await connection.answer(to: "HEAD"), "HEAD \(path)")
                #expect(head.status == 200, "HEAD \(path)")
                #expect(head.header("Content-Type") == get.header("Content-Type"), "HEAD \(path)")
                #expect(head.header("Content-Length") == String(get.body.count), "HEAD \(path)")
                // Nothing follows the head: the next request on the connection is answered as itself.
                connection.send("GET /api/status HTTP/1.1\r\nHost: \(host)\r\n\r\n")
                let next = try #require(try await connection.answer(), "after HEAD \(path)")
                #expect(next.status == 200 && next.text.hasPrefix("{"), "after HEAD \(path): \(next.text.prefix(80))")
            }
            // HTTP/1.0 without keep-alive: answered, then closed; HTTP/1.1 stays open for the next request.
            let old = try RawConnection(port: port)
            old.send("GET /members/Ann HTTP/1.0\r\nHost: \(host)\r\n\r\n")
            #expect(try await old.answer()?.status == 200)
            #expect(try await old.closes(within: 5), "an HTTP/1.0 connection was left open")
            let current = try RawConnection(port: port)
            current.send("GET /members/Ann HTTP/1.1\r\nHost: \(host)\r\n\r\n")
            #expect(try await current.answer()?.status == 200)
            #expect(try await !current.closes(within: 0.5))
        }
    }

    // MARK: slow bodies

    @Test func aBodyDribbledAByteAtATimeGets408AfterTenSeconds() async throws {
        try await Self.serving(password: true) { _, _, port in
            let host = "127.0.0.1:\(port)"
            let started = ContinuousClock.now
            let slow = try RawConnection(port: port)
            let body = "password=" + String(repeating: "x", count: 91)
            slow.send(
                "POST /signin HTTP/1.1\r\nHost: \(host)\r\nContent-Type: application/x-www-form-urlencoded\r\n"
                    + "Content-Length: \(body.utf8.count)\r\n\r\n")
            var answer: RawAnswer?
            // A byte every 0.4 s would take 40 s; the server must answer after about 10.
            for byte in body where started.duration(to: .now) < .seconds(20) {
                slow.send(String(byte))
                if let early = try await slow.answer(within: 0.4) {
                    answer = early
                    break
                }
            }
            let elapsed = started.duration(to: .now)
            #expect(answer?.status == 408, "after \(elapsed): \(String(describing: answer))")
            #expect(elapsed < .seconds(20))
            #expect(try await slow.closes(within: 5))

            // A body sent at once is read as ever: a wrong password is a 403.
            let form = "password=wrong+password"
            let quick = try await Self.get(
                "/signin", host: host, port: port, method: "POST",
                extra: "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: \(form.utf8.count)\r\n"
                    + "\r\n\(form)")
            #expect(quick.status == 403)
        }
    }

    // MARK: sign-in limits behind a proxy

    @Test func behindAProxyOnIPv6AnyEachForwardedAddressHasItsOwnSignInLimit() async throws {
        try await Self.serving(arguments: ["--listen", "[::]:0"], password: true) { _, server, port in
            #expect(server.url.hasPrefix("http://[::]:"))
            // Connected over IPv4 to a server on [::]: the peer is ::ffff:127.0.0.1, a proxy on this machine.
            func attempt(from client: String) async throws -> Int {
                let form = "password=wrong+password"
                return try await Self.get(
                    "/signin", host: "127.0.0.1:\(port)", port: port, method: "POST",
                    extra: "X-Forwarded-For: \(client)\r\nContent-Type: application/x-www-form-urlencoded\r\n"
                        + "Content-Length: \(form.utf8.count)\r\n\r\n\(form)"
                ).status
            }
            var statuses: [Int] = []
            for visitor in 1...6 { statuses.append(try await attempt(from: "203.0.113.\(visitor)")) }
            #expect(statuses == Array(repeating: 403, count: 6), "six visitors, one wrong password each")
            for _ in 1...4 { statuses.append(try await attempt(from: "203.0.113.1")) }
            #expect(try await attempt(from: "203.0.113.1") == 429, "the sixth wrong password from one visitor")
        }
    }

    /// A member named `.` or `..` opens from the family page in headless Chromium: a browser folds the dot
    /// segments `/members/..` and `/members/%2E%2E` alike (WHATWG URL), so the links must avoid both.
    @Test func membersNamedDotAndDotDotOpenFromTheFamilyPageInABrowser() async throws {
        let mustc = MustcBinary()
        for name in [".", "..", "...", "~.."] {
            let outcome = try await mustc("add", "--no-lookup", name, "Up")
            #expect(outcome.status == 0, "\(name): \(outcome.all)")
        }
        let server = try await ServeProcess.start(mustc)
        defer { server.ensureStopped() }
        let found = try await ServeBrowserTests.browse(server.url, [".", "..", "...", "~.."], script: "links.py")
        for name in [".", "..", "...", "~.."] {
            let page = found[name] as? [String: Any]
            #expect(page?["h1"] as? String == name, "\(name): \(String(describing: page))")
        }
    }
}
