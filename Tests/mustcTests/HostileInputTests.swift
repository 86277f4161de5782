import Foundation
import TMDBStub
import Testing

/// Answers and settings a hostile or buggy server or user could send, through mustc's commands: none may crash
/// mustc or switch fetching off.
@Suite struct HostileInputTests {
    /// `schedule.maximumInterval` in the config below.
    static let cap: TimeInterval = 7200

    enum RetryAfterForm: String, CaseIterable, Sendable {
        case seconds, httpDate, datePastTheCap, secondsPastTheCap, secondsNearIntMax

        /// The header value, and the soonest the next fetch may then be due (seconds from now).
        func header(now: Date) -> (value: String, atLeast: TimeInterval) {
            switch self {
            case .seconds: ("3000", 3000)
            case .httpDate: (Self.httpDate(now.addingTimeInterval(3000)), 2990)
            case .datePastTheCap: ("Wed, 21 Oct 2099 07:28:00 GMT", HostileInputTests.cap)
            case .secondsPastTheCap: ("999999999", HostileInputTests.cap)
            case .secondsNearIntMax: ("9223372036854775807", HostileInputTests.cap)
            }
        }

        static func httpDate(_ date: Date) -> String {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "GMT")
            formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
            return formatter.string(from: date)
        }
    }

    func binary(stub: TMDBStubServer, config: String) throws -> MustcBinary {
        var mustc = MustcBinary(stub: stub)
        let path = mustc.home.file("config.json")
        try config.write(toFile: path, atomically: true, encoding: .utf8)
        mustc.environment["MUSTC_CONFIG"] = path
        return mustc
    }

    @Test(arguments: RetryAfterForm.allCases)
    func aRetryAfterDelaysTheNextFetchButNeverPastTheCap(_ form: RetryAfterForm) async throws {
        let stub = TMDBStubServer(movies: StubMovie.classics)
        try stub.start()
        defer { stub.stop() }
        let mustc = try binary(
            stub: stub, config: #"{"schedule": {"minimumInterval": "15m", "maximumInterval": "2h"}}"#)
        #expect(try await mustc("add", "--no-lookup", "Ann", "Up", "Amélie").status == 0)
        let (value, atLeast) = form.header(now: Date())
        stub.inject(.rateLimited(retryAfter: value), times: nil)

        // The binary's own clock, which its nextFetchAt is read on.
        let started = Date()
        let fetch = try await mustc("fetch", "--force", "--json")
        let finished = Date()
        #expect(fetch.status == 75, "\(fetch.all)")
        #expect(try fetch.json()["result"] as? String == "failed")
        // A wait longer than the client's retry limit (30 s) is not waited out inside the run, even once.
        #expect(finished.timeIntervalSince(started) < 30)

        let status = try await mustc("status", "--json")
        #expect(status.status == 0, "\(status.all)")
        let next = try #require((try status.json()["nextFetchAt"] as? String).flatMap(parseISO8601))
        #expect(next.timeIntervalSince(started) >= atLeast - 1, "\(value) → \(next)")
        #expect(next.timeIntervalSince(finished) <= Self.cap + 1, "\(value) → \(next)")
    }

    @Test func aHugeDurationInTheConfigExits78NamingTheKey() async throws {
        let stub = TMDBStubServer(movies: StubMovie.classics)
        try stub.start()
        defer { stub.stop() }
        let mustc = try binary(stub: stub, config: #"{"fetch": {"runBudget": 1e300}}"#)
        #expect(try await mustc("add", "--no-lookup", "Ann", "Up").status == 78)
        let fetch = try await mustc("fetch", "--force")
        #expect(fetch.status == 78, "\(fetch.all)")
        #expect(fetch.stderr.contains("fetch.runBudget"))
        #expect(fetch.stderr.contains("at most 10 years"))
        #expect(stub.requestCount == 0)
    }

    func parseISO8601(_ text: String) -> Date? { ISO8601DateFormatter().date(from: text) }
}
