import Foundation
import TMDBStub
import Testing

/// Notifications through mustc's commands: a fetch's news reaches ntfy, Gotify and a webhook (a loopback server in
/// their shapes) in the family's words; a vote-only change sends nothing; a destination that is down gets the
/// message once it is back; `notify --test` and `--tonight`; `status` per destination; no token in any output.
@Suite final class NotifyTests {
    let stub: TMDBStubServer
    let server = NotifyStubServer()
    var mustc: MustcBinary
    let config: String
    static let ntfyToken = "tk_\(UUID().uuidString.prefix(29).lowercased())"
    static let hookSecret = "hook-\(UUID().uuidString)"

    static let movies = [
        StubMovie(id: 920_001, title: "Gentle", voteAverage: 7.0, voteCount: 4_000, releaseDate: "2019-03-01"),
        StubMovie(id: 920_002, title: "Rough", voteAverage: 8.0, voteCount: 9_000, releaseDate: "2021-10-22"),
    ]

    init() throws {
        stub = TMDBStubServer(movies: Self.movies)
        stub.setExtras(
            id: 920_001,
            StubExtras(runtime: 95, genres: ["Family"], certification: "G", offers: ["flatrate": [.netflix]]))
        stub.setExtras(
            id: 920_002,
            StubExtras(runtime: 120, genres: ["Horror"], certification: "R", offers: ["flatrate": [.disneyPlus]]))
        try stub.start()
        try server.start()
        server.ntfyToken = Self.ntfyToken
        mustc = MustcBinary(stub: stub)
        config = mustc.home.file("config.json")
        mustc.environment["MUSTC_CONFIG"] = config
        try writeConfig()
    }

    deinit {
        stub.stop()
        server.stop()
    }

    func writeConfig(
        root: String? = nil, ntfyToken: String = ntfyToken, kinds: String = #"["availability", "rating"]"#,
        sendTimeout: String = "5s"
    ) throws {
        let base = root ?? server.root
        try """
        {"tmdb": {"maxRequestsPerSecond": 2000, "requestTimeout": "5s"},
         "family": {"region": "US", "services": ["Netflix", "Disney Plus"]},
         "serve": {"publicURL": "https://movies.example.org"},
         "notify": {"ntfy": {"url": "\(server.root)our-family-movies", "token": "\(ntfyToken)", "priority": 3},
                    "gotify": {"url": "\(server.root)", "token": "\(server.gotifyToken)"},
                    "webhook": {"url": "\(base)hooks/movies", "headers": {"Authorization": "Bearer \(Self.hookSecret)"}},
                    "kinds": \(kinds), "sendTimeout": "\(sendTimeout)"}}
        """.write(toFile: config, atomically: true, encoding: .utf8)
    }

    func expectNoSecret(_ outcome: Outcome, sourceLocation: SourceLocation = #_sourceLocation) {
        for secret in [Self.ntfyToken, Self.hookSecret, server.gotifyToken] {
            #expect(!outcome.all.contains(secret), "\(outcome.all)", sourceLocation: sourceLocation)
        }
    }

    /// Claire and Daniel keep Rough, Claire Gentle; one forced fetch reads the blocks.
    func family() async throws {
        #expect(try await mustc("add", "Claire", "tmdb:920002", "tmdb:920001").status == 0)
        #expect(try await mustc("add", "Daniel", "tmdb:920002").status == 0)
        let fetched = try await mustc("fetch", "--force", "--json")
        #expect(fetched.status == 0, "\(fetched.all)")
    }

    func fetch() async throws -> Outcome {
        let outcome = try await mustc("fetch", "--force", "--json", "--verbose")
        #expect(outcome.status == 0, "\(outcome.all)")
        expectNoSecret(outcome)
        return outcome
    }

    func messages(after count: Int) -> [NotifyStubServer.Request] { Array(server.requests.dropFirst(count)) }

    @Test func newsReachesEveryDestinationInTheFamilysWordsAndNoTokenShows() async throws {
        try await family()
        let before = server.requests.count
        // Netflix starts offering Rough.
        stub.update(id: 920_002) { _ in }
        stub.updateExtras(id: 920_002) { $0.offers["flatrate"] = [.disneyPlus, .netflix] }
        let fetched = try await fetch()
        #expect(try fetched.json()["result"] as? String == "newData")
        let sent = messages(after: before)
        #expect(Set(sent.map(\.path)) == ["/", "/message", "/hooks/movies"], "\(sent.map(\.path))")
        for request in sent {
            #expect(request.json?["title"] as? String == "Movie news: 1 item")
            #expect(request.json?["message"] as? String == "Now on Netflix: Rough (2021), kept by Claire and Daniel")
        }
        #expect(sent.first { $0.path == "/" }?.json?["click"] as? String == "https://movies.example.org/movies/920002")
        let status = try await mustc("status", "--json")
        let notify = try #require(try status.json()["notify"] as? [[String: Any]])
        #expect(notify.compactMap { $0["name"] as? String } == ["gotify", "ntfy", "webhook"])
        #expect(notify.allSatisfy { $0["lastSuccessAt"] is String && $0["waiting"] as? Int == 0 }, "\(notify)")
        expectNoSecret(status)
        let text = try await mustc("status")
        #expect(text.stdout.contains("Notifications to ntfy: last delivered"), "\(text.stdout)")
        expectNoSecret(text)

        // Votes alone, and a rating that stays 8.0 at one decimal: nothing is sent.
        let quiet = server.requests.count
        stub.update(id: 920_002) {
            $0.voteCount += 700
            $0.voteAverage = 8.04
        }
        let voted = try await fetch()
        #expect(try voted.json()["result"] as? String == "newData")
        #expect(server.requests.count == quiet)
        // A real move is news under kinds ["availability", "rating"].
        stub.update(id: 920_002) { $0.voteAverage = 8.16 }
        _ = try await fetch()
        #expect(
            messages(after: quiet).first?.json?["message"] as? String
                == "Rough (2021) rose to 8.2 (Claire and Daniel keep it)")
    }

    @Test func aDestinationThatIsDownGetsTheMessageOnceItIsBack() async throws {
        let later = NotifyStubServer()
        let port = try later.reserve()
        try writeConfig(root: "http://127.0.0.1:\(port)/")
        try await family()
        stub.update(id: 920_001) { _ in }
        stub.updateExtras(id: 920_001) { $0.offers = [:] }
        let fetched = try await fetch()
        #expect(try fetched.json()["result"] as? String == "newData", "the fetch's result is its own")
        let status = try await mustc("status", "--json")
        let webhook = try #require(
            (try status.json()["notify"] as? [[String: Any]])?.first { $0["name"] as? String == "webhook" })
        #expect(webhook["waiting"] as? Int == 1 && webhook["lastFailure"] as? String != nil, "\(webhook)")
        try later.start(port: port)
        defer { later.stop() }
        // Through the built binary: `notify`'s end-to-end run.
        let sent = try await mustc.binary("notify")
        #expect(sent.status == 0 && sent.stdout.contains("webhook: accepted (200)"), "\(sent.all)")
        let again = try await mustc("notify")
        #expect(again.stdout.contains("webhook: nothing waiting"), "\(again.all)")
        #expect(later.requests.count == 1)
        #expect(later.requests.first?.json?["message"] as? String == "Left Netflix: Gentle (2019)")
    }

    /// The JSON's `interval` is the delay the run recorded, as `status` shows it: the send after the run (here
    /// 3 s of hanging destinations) does not shorten it. Before, the JSON counted from after the send.
    @Test func aSlowSendDoesNotShortenTheIntervalTheFetchReports() async throws {
        try writeConfig(sendTimeout: "3s")
        try await family()
        server.inject(.hang)
        stub.updateExtras(id: 920_001) { $0.offers = [:] }
        let fetched = try await fetch()
        let json = try fetched.json()
        #expect(json["result"] as? String == "newData")
        #expect(server.peakHangingRequests >= 1, "the send waited on a hanging destination")
        let status = try await mustc("status", "--json").json()
        let interval = try #require(json["interval"] as? Int)
        #expect(status["interval"] as? Int == interval, "\(json) \(status)")
    }

    @Test func theTestMessageSaysWhatEachAnsweredWithoutTheToken() async throws {
        try writeConfig(ntfyToken: "tk_wrong\(Self.ntfyToken.dropFirst(8))")
        let tested = try await mustc("notify", "--test", "--verbose")
        #expect(tested.status == 75, "\(tested.all)")
        #expect(tested.stdout.contains("ntfy: 403 refused: check the token in the config: forbidden"), "\(tested.all)")
        #expect(tested.stdout.contains("gotify: accepted (200)") && tested.stdout.contains("webhook: accepted (200)"))
        #expect(!tested.all.contains("tk_wrong"))
        expectNoSecret(tested)
        let status = try await mustc("status")
        #expect(status.stdout.contains("check notify.ntfy in the config"), "\(status.stdout)")
        #expect(!status.all.contains("tk_wrong"))
        // The page's /status and /api/status say the same, without the token.
        let server = try await ServeProcess.start(mustc)
        defer { server.ensureStopped() }
        let page = try await HTTP.get(server.url + "status")
        let api = try await HTTP.get(server.url + "api/status")
        #expect(page.body.contains("Notifications to ntfy: nothing delivered yet; last failed"), "\(page.body)")
        #expect(page.body.contains("Notifications to gotify: last delivered"))
        let listed = try JSONSerialization.jsonObject(with: Data(api.body.utf8)) as? [String: Any]
        #expect((listed?["notify"] as? [[String: Any]])?.count == 3, "\(api.body)")
        for answer in [page, api] {
            #expect(!answer.body.contains("tk_wrong") && !answer.body.contains(Self.hookSecret))
        }
        try writeConfig()
        #expect(try await mustc("notify", "--test").status == 0)
    }

    @Test func theHooksEnvironmentHoldsNoNotifyToken() async throws {
        let script = mustc.home.file("hook.sh")
        try writeScript("#!/bin/sh\nenv > \"$HOME/env.txt\"\n", to: script)
        try writeConfig()
        var text = try String(contentsOfFile: config, encoding: .utf8)
        text = text.replacingOccurrences(of: #""tmdb": {"#, with: #""fetch": {"onNewData": ["\#(script)"]}, "tmdb": {"#)
        try text.write(toFile: config, atomically: true, encoding: .utf8)
        // A variable that happens to hold a token (a script that exported it) is dropped like TMDB's key.
        mustc.environment["FAMILY_NTFY"] = Self.ntfyToken
        mustc.environment["FAMILY_HOOK"] = "Bearer \(Self.hookSecret)"
        try await family()
        stub.update(id: 920_001) { $0.voteCount += 10 }
        #expect(try await fetch().json()["result"] as? String == "newData")
        let environment = try String(contentsOfFile: mustc.home.file("env.txt"), encoding: .utf8)
        #expect(environment.contains("MUSTC_CONFIG="))
        #expect(!environment.contains(Self.ntfyToken) && !environment.contains(Self.hookSecret))
        #expect(!environment.contains(server.gotifyToken))
    }

    @Test func tonightGoesNowWithTheMembersOwnLimits() async throws {
        try await family()
        #expect(try await mustc("member", "Daniel", "--age-limit", "PG").status == 0)
        let before = server.requests.count
        let sent = try await mustc("notify", "--tonight")
        #expect(sent.status == 0, "\(sent.all)")
        let message = try #require(messages(after: before).first?.json)
        #expect(message["title"] as? String == "Tonight for Claire and Daniel: 1 pick", "\(message)")
        #expect(message["message"] as? String == "1. Gentle (2019), 7.0: on Netflix")
    }

    @Test func badNotifyConfigIsRefusedWithExit78() async throws {
        let cases = [
            #"{"notify": {"gotify": {"url": "http://127.0.0.1:1/"}}}"#: "notify.gotify.token",
            #"{"notify": {"ntfy": {"url": "http://127.0.0.1:1/t", "priority": 9}}}"#: "notify.ntfy.priority",
            #"{"notify": {"ntfy": {"url": "http://127.0.0.1:1/"}}}"#: "notify.ntfy.url",
            #"{"notify": {"webhook": {"url": "ftp://x/"}}}"#: "notify.webhook.url",
            #"{"notify": {"webhook": {"url": "http://x/", "headers": {"X-A": "a\nB: c"}}}}"#:
                "notify.webhook.headers.X-A",
            #"{"notify": {"kinds": ["night"]}}"#: "notify.tonight",
            #"{"notify": {"tonight": "Fri 18:00"}}"#: "notify.kinds",
            #"{"notify": {"tonight": "Friday evening", "kinds": ["night"]}}"#: "notify.tonight",
            #"{"notify": {"kinds": ["weather"]}}"#: "notify.kinds",
            #"{"serve": {"publicURL": "movies.example.org"}}"#: "serve.publicURL",
        ]
        for (text, key) in cases {
            try text.write(toFile: config, atomically: true, encoding: .utf8)
            let outcome = try await mustc("notify", "--test")
            #expect(outcome.status == 78 && outcome.stderr.contains(key), "\(text): \(outcome.all)")
        }
        try "{}".write(toFile: config, atomically: true, encoding: .utf8)
        let none = try await mustc("notify")
        #expect(none.status == 78 && none.stderr.contains("add notify.ntfy"), "\(none.all)")
    }
}
