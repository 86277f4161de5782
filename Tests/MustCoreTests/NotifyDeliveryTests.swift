import Clocks
import Foundation
import TMDBStub
import Testing

@testable import MustCore

/// The notifications' outbox and senders, in-process against a loopback server speaking ntfy's, Gotify's and a webhook's
/// shapes, with a real SQLite file and the libcurl transport; time turns on a `TestClock`, never by sleeping.
@Suite final class NotifyDeliveryTests {
    let scratch = TemporaryDirectory("notify")
    let server = NotifyStubServer()
    let clock = Clocks.TestClock<Duration>()
    let start = Date(timeIntervalSince1970: 1_795_694_400)  // Thu 2026-11-26 12:00 UTC
    let store: Store
    /// Made once: its date follows `clock` from the moment it was made.
    let time: TimeSource
    let transport = CurlTransport.make(maxConnections: 4, time: .system)
    static let ntfyToken = "tk_notify0secret0token0abcdefghij"

    init() throws {
        try server.start()
        server.ntfyToken = Self.ntfyToken
        store = try Store(path: scratch.file("mustc.sqlite"), logger: quietLogger)
        time = .test(start: start, clock: clock)
    }

    deinit { server.stop() }

    func destinations(root: String? = nil) -> [NotifyDestination] {
        let base = root ?? server.root
        return [
            NotifyDestination(
                service: .ntfy, url: URL(string: base + "our-family-movies")!, token: Self.ntfyToken, priority: 4),
            NotifyDestination(service: .gotify, url: URL(string: base)!, token: server.gotifyToken),
            NotifyDestination(
                service: .webhook, url: URL(string: base + "hooks/movies")!,
                headers: ["Authorization": "Bearer hook-secret-1"]),
        ]
    }

    func notifier(_ destinations: [NotifyDestination], timeout: TimeInterval = 10) -> Notifier {
        var settings = Config.Notify()
        settings.destinations = destinations
        settings.sendTimeout = timeout
        return Notifier(settings: settings, store: store, transport: transport, time: time, logger: quietLogger)
    }

    let message = NotifyMessage(
        title: "Movie news: 1 item", body: "Now on Netflix: Dune (2021), kept by Claire and Daniel",
        click: "https://movies.example.org/movies/438631", items: 1)

    @Test func eachServiceGetsItsOwnShapeAndTheOutboxEmpties() async throws {
        let answers = try await notifier(destinations()).send(message)
        #expect(answers.mapValues(\.accepted) == ["ntfy": true, "gotify": true, "webhook": true], "\(answers)")
        let requests = server.requests
        #expect(requests.count == 3 && requests.allSatisfy { $0.method == "POST" })
        let ntfy = try #require(requests.first { $0.path == "/" })
        #expect(ntfy.headers["authorization"] == "Bearer \(Self.ntfyToken)")
        #expect(ntfy.json?["topic"] as? String == "our-family-movies" && ntfy.json?["priority"] as? Int == 4)
        #expect(ntfy.json?["title"] as? String == "Movie news: 1 item")
        #expect(ntfy.json?["message"] as? String == message.body)
        #expect(ntfy.json?["click"] as? String == message.click)
        let gotify = try #require(requests.first { $0.path == "/message" })
        #expect(gotify.headers["x-gotify-key"] == server.gotifyToken && gotify.headers["authorization"] == nil)
        #expect(gotify.json?["message"] as? String == message.body)
        let extras = gotify.json?["extras"] as? [String: [String: [String: String]]]
        #expect(extras?["client::notification"]?["click"]?["url"] == message.click)
        let hook = try #require(requests.first { $0.path == "/hooks/movies" })
        #expect(hook.headers["authorization"] == "Bearer hook-secret-1")
        #expect(hook.json?["title"] as? String == message.title && hook.json?["items"] as? Int == 1)
        #expect(try sqlite(store.path, "SELECT count(*) FROM notifyOutbox") == "0")
        let status = try store.notifyStatus()
        #expect(status.map(\.name) == ["gotify", "ntfy", "webhook"])
        #expect(status.allSatisfy { $0.lastSuccessAt == start && $0.waiting == 0 && $0.lastFailure == nil })
    }

    /// Without a link, ntfy and Gotify get no click at all and the webhook an explicit null, as the guide shows.
    @Test func aMessageWithoutALinkLeavesTheClickOutOrNull() async throws {
        let plain = NotifyMessage(
            title: "Movie news: 2 items", body: "Left Netflix: Up (2009)\nLeft Netflix: Dune", items: 2)
        _ = try await notifier(destinations()).send(plain)
        let requests = server.requests
        let ntfy = try #require(requests.first { $0.path == "/" }?.json)
        #expect(ntfy["click"] == nil && ntfy["message"] as? String == plain.body, "\(ntfy)")
        let gotify = try #require(requests.first { $0.path == "/message" }?.json)
        #expect(gotify["extras"] == nil && gotify["title"] as? String == plain.title, "\(gotify)")
        let hook = try #require(requests.first { $0.path == "/hooks/movies" }?.json)
        #expect(hook["click"] is NSNull && hook["items"] as? Int == 2, "\(hook)")
    }

    @Test func aServerThatIsDownKeepsTheMessageWhichArrivesOnceWhenItIsBack() async throws {
        let down = NotifyStubServer()
        let port = try down.reserve()
        let root = "http://127.0.0.1:\(port)/"
        let ntfy = notifier([destinations(root: root)[1]])
        let first = try await ntfy.send(message)
        #expect(
            first["gotify"].map { !$0.accepted && $0.description.hasPrefix("could not connect") } == true, "\(first)")
        // Due again at the next run; a second failure waits 5 minutes.
        #expect(try store.dueMessages(destination: "gotify", now: time.now(), limit: 5).count == 1)
        _ = await ntfy.deliver()
        await clock.advance(by: .seconds(299))
        #expect(try store.dueMessages(destination: "gotify", now: time.now(), limit: 5).isEmpty)
        #expect(await ntfy.deliver().isEmpty, "nothing is due, nothing is tried")
        let status = try #require(try store.notifyStatus().first)
        #expect(
            status.waiting == 1 && status.lastFailureAt != nil && status.lastSuccessAt == nil && !status.configProblem)
        await clock.advance(by: .seconds(1))
        try down.start(port: port)
        defer { down.stop() }
        #expect(await ntfy.deliver()["gotify"]?.accepted == true)
        #expect(await ntfy.deliver().isEmpty)
        #expect(down.requests.filter { $0.path == "/message" }.count == 1, "arrives once")
        #expect(down.requests.first?.json?["message"] as? String == message.body)
        #expect(try store.notifyStatus().first?.waiting == 0)
    }

    @Test func aRefusalIsAConfigProblemInTheServersWordsWithoutTheToken() async throws {
        let wrong = NotifyDestination(
            service: .ntfy, url: URL(string: server.root + "our-family-movies")!, token: "tk_wrong0token")
        let answer = await notifier([wrong]).test(wrong)
        #expect(answer == .refused(status: 403, reason: "403 refused: check the token in the config: forbidden"))
        let gotify = NotifyDestination(service: .gotify, url: URL(string: server.root)!, token: "not-the-key")
        let refused = await notifier([gotify]).test(gotify)
        #expect(refused.description.hasPrefix("401 refused: check the token in the config: Unauthorized: you need"))
        let status = try store.notifyStatus()
        #expect(status.allSatisfy { $0.configProblem && $0.waiting == 0 })
        var report = try store.status(now: time.now())
        report.notify = status
        let shown = report.text(now: time.now()) + ReportRenderer.json(report)
        #expect(shown.contains("check notify.ntfy in the config") && shown.contains("forbidden"))
        #expect(!shown.contains("tk_wrong0token") && !shown.contains("not-the-key"))
        // A server that echoes the token back in its error has it cut out.
        #expect(
            SendOutcome.classify(
                .success(HTTPResponse(status: 403, body: Data(#"{"error":"bad token tk_wrong0token"}"#.utf8))),
                timeout: 10, secrets: ["tk_wrong0token"], now: start
            ).description.hasSuffix("bad token REDACTED"))
    }

    @Test func tooManyRequestsWaitsForRetryAfter() async throws {
        server.inject(.tooManyRequests(retryAfter: 120), times: 1)
        let ntfy = notifier([destinations()[0]])
        let answer = try await ntfy.send(message)
        #expect(answer["ntfy"]?.description.hasPrefix("429 too many requests: limit reached") == true, "\(answer)")
        await clock.advance(by: .seconds(119))
        #expect(await ntfy.deliver().isEmpty)
        await clock.advance(by: .seconds(1))
        #expect(await ntfy.deliver()["ntfy"]?.accepted == true)
        #expect(server.requests.count == 2)
    }

    @Test func hangingDestinationsHoldTheRunOneDeadlineAndTheOthersArrive() async throws {
        let hanging = NotifyStubServer()
        try hanging.start()
        hanging.inject(.hang)
        defer { hanging.stop() }
        let all = [destinations()[0], destinations(root: hanging.root)[1], destinations(root: hanging.root)[2]]
        let answers = try await notifier(all, timeout: 3).send(message)
        // Both hanging requests were held at once: sent together under one deadline, not one after the other's.
        #expect(hanging.peakHangingRequests == 2)
        #expect(answers["ntfy"]?.accepted == true, "\(answers)")
        #expect(answers["gotify"]?.description == "no answer within 3s", "\(answers)")
        #expect(answers["webhook"]?.description == "no answer within 3s", "\(answers)")
        #expect(try store.dueMessages(destination: "gotify", now: time.now(), limit: 5).count == 1)
        #expect(try store.dueMessages(destination: "ntfy", now: time.now(), limit: 5).isEmpty)
    }

    @Test func aMessageUnsentFor7DaysIsDroppedAndStatusSaysSo() async throws {
        let nowhere = NotifyDestination(service: .webhook, url: URL(string: "http://127.0.0.1:1/hook")!)
        let ntfy = notifier([nowhere])
        _ = try await ntfy.send(message)
        await clock.advance(by: .seconds(7 * 86400 + 1))
        _ = await ntfy.deliver()
        let status = try #require(try store.notifyStatus().first)
        #expect(status.waiting == 0 && status.dropped == 1)
        #expect(status.lastDroppedAt == time.now(), "\(String(describing: status.lastDroppedAt)) \(time.now())")
        var report = try store.status(now: time.now())
        report.notify = [status]
        #expect(report.text(now: time.now()).contains("1 dropped after 7 days unsent"))
    }

    @Test func theWeeklyTonightMessageGoesOnceAWeek() async throws {
        for (member, title) in [("Ann", "Up"), ("Bob", "Amélie")] {
            _ = try store.link(member: member, title: title, now: start)
        }
        var weekly = notifier([destinations()[0]])
        weekly.settings.kinds = [.night]
        weekly.settings.tonight = WeeklyTime.parse("Fri 18:00")
        weekly.timeZone = TimeZone(identifier: "UTC")!
        func tonights() -> Int {
            server.requests.filter { ($0.json?["title"] as? String)?.hasPrefix("Tonight") == true }.count
        }
        // Thursday noon, then Friday 17:55: not yet.
        await weekly.afterFetch(runId: 1, startedAt: time.now())
        await clock.advance(by: .seconds(29 * 3600 + 55 * 60))
        await weekly.afterFetch(runId: 2, startedAt: time.now())
        #expect(tonights() == 0)
        // The first run after 18:00 sends it, once.
        for _ in 0..<3 {
            await clock.advance(by: .seconds(5 * 60))
            await weekly.afterFetch(runId: 3, startedAt: time.now())
        }
        #expect(tonights() == 1)
        let sent = try #require(server.requests.last?.json)
        #expect(sent["title"] as? String == "Tonight for Ann and Bob: 2 picks")
        #expect((sent["message"] as? String)?.contains("Amélie: where it streams is not known yet") == true)
        // A week later, once more.
        await clock.advance(by: .seconds(7 * 86400))
        await weekly.afterFetch(runId: 4, startedAt: time.now())
        await weekly.afterFetch(runId: 5, startedAt: time.now())
        #expect(tonights() == 2)
    }
}
