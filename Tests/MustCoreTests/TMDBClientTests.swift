import Clocks
import Foundation
import MustCore
import TMDBStub
import Testing

/// The client against the stub over real loopback HTTP.
@Suite final class TMDBClientTests {
    let stub: TMDBStubServer

    init() throws {
        stub = TMDBStubServer(
            movies: StubMovie.classics + [
                StubMovie(id: 1, title: "Fast & Furious"), StubMovie(id: 2, title: "C'est la vie"),
                StubMovie(id: 3, title: "50% Off"), StubMovie(id: 4, title: "a+b"), StubMovie(id: 5, title: "#1 Fan"),
            ])
        try stub.start()
    }

    // The accept thread keeps a started stub alive; only stop() ends it and closes its sockets.
    deinit { stub.stop() }

    /// The timeout is long by default: these tests are about answers, not time, and the full suite can hold the
    /// cooperative threads an answer resumes on for seconds (measured: up to 4 s on this 2-core machine).
    func client(
        _ credentials: TMDBCredentials? = nil, timeout: TimeInterval = 30, retry: RetryPolicy = .none,
        baseURL: URL? = nil, over transport: HTTPTransportKind = .curl, time: TimeSource = .system
    ) -> TMDBClient {
        TMDBClient(
            baseURL: baseURL ?? stub.baseURL, credentials: credentials ?? .apiKey(stub.apiKey), timeout: timeout,
            retry: retry, transport: transport.stack(maxConnections: 4, time: time).transport, time: time,
            logger: quietLogger)
    }

    @Test(
        arguments: ["Fast & Furious", "C'est la vie", "50% Off", "a+b", "#1 Fan", "Amélie"], HTTPTransportKind.allCases)
    func searchQueriesArriveIntact(_ title: String, over transport: HTTPTransportKind) async throws {
        let found = try await client(over: transport).match(title: title).taken
        #expect(stub.requests.last?.query["query"] == title)
        #expect(found.map { TitleKey.make($0.title ?? "") } == TitleKey.make(title))
    }

    @Test(arguments: HTTPTransportKind.allCases)
    func bearerTokenAuthenticatesWithoutAKeyInTheURL(over transport: HTTPTransportKind) async throws {
        let movie = try await client(.accessToken(stub.accessToken), over: transport).details(id: 194)
        #expect(
            movie
                == RemoteMovie(
                    id: 194, title: "Amélie", originalTitle: "Le Fabuleux Destin d'Amélie Poulain", popularity: 7.248,
                    voteAverage: 7.9, voteCount: 11_412, releaseDate: "2001-04-25", posterPath: "/poster194.png"))
        let request = try #require(stub.requests.last)
        #expect(request.query["api_key"] == nil)
        #expect(request.headers["authorization"] == "Bearer \(stub.accessToken)")
    }

    @Test func picksAnExactOriginalTitleMatchOverTheTopResult() async throws {
        let found = try await client().match(title: "le fabuleux destin d'amelie poulain")
        guard case .exact(let movie) = found else {
            Issue.record("expected one exact match, got \(found)")
            return
        }
        #expect(movie.id == 194)
    }

    @Test func searchSendsTheYearAndFindsRemakesApart() async throws {
        stub.upsert(contentsOf: StubMovie.identity)
        let dune = try await client().match(title: "Dune", year: 1984)
        #expect(stub.requests.last?.query["year"] == "1984")
        #expect(dune.taken?.id == 841)
        guard case .mostPopular(let taken, let others) = try await client().match(title: "dune") else {
            Issue.record("two movies called Dune should be remakes")
            return
        }
        #expect(taken.id == 438631 && others.map(\.id) == [841])
        #expect(stub.requests.last?.query["year"] == nil)
    }

    @Test(arguments: HTTPTransportKind.allCases)
    func findByIMDbIdAnswersTMDBsShape(over transport: HTTPTransportKind) async throws {
        stub.upsert(contentsOf: StubMovie.identity)
        let found = try await client(over: transport).find(imdbId: "tt0087182")
        #expect(found?.id == 841 && found?.title == "Dune" && found?.year == 1984)
        let request = try #require(stub.requests.last)
        #expect(request.path == "/3/find/tt0087182" && request.query["external_source"] == "imdb_id")
        #expect(try await client(over: transport).find(imdbId: "tt0000001") == nil)
        #expect(try await client(over: transport).details(id: 438631).imdbId == "tt1160419")
        #expect(try await client(over: transport).details(id: 194).imdbId == nil)
    }

    @Test(arguments: HTTPTransportKind.allCases)
    func badKeyIsUnauthorizedAndTheKeyNeverShows(over transport: HTTPTransportKind) async throws {
        let secret = "sekrit-\(UUID().uuidString)"
        await #expect {
            try await client(.apiKey(secret), over: transport).search("Up")
        } throws: { error in
            guard case .unauthorized(let code, _) = error as? TMDBError else { return false }
            return code == 7 && !"\(error)".contains(secret) && !String(reflecting: error).contains(secret)
        }
    }

    @Test(arguments: HTTPTransportKind.allCases)
    func unknownIdIsNotFound(over transport: HTTPTransportKind) async throws {
        await #expect(throws: TMDBError.notFound(code: 34, message: "The resource you requested could not be found.")) {
            try await client(over: transport).details(id: 999_999)
        }
    }

    @Test(arguments: ["7", "Wed, 21 Oct 2099 07:28:00 GMT"], HTTPTransportKind.allCases)
    func rateLimitCarriesRetryAfter(_ header: String, over transport: HTTPTransportKind) async throws {
        stub.inject(.rateLimited(retryAfter: header))
        await #expect {
            try await client(over: transport).search("Up")
        } throws: { error in
            guard case .rateLimited(let seconds?) = error as? TMDBError else { return false }
            return header == "7" ? seconds == 7 : seconds > 86_400
        }
    }

    /// A Retry-After within `RetryPolicy.maxDelay` is waited out, on the client's clock, and the retry is asked
    /// once it has passed; a longer one goes back to the caller at once (the scheduler then caps it at
    /// `schedule.maximumInterval`), so no answer stalls a run. A test clock: no wall time is waited.
    @Test func theClientWaitsOutAShortRetryAfterOnItsClock() async throws {
        stub.inject(.rateLimited(retryAfter: "1"))
        let clock = TestClock<Duration>()
        let time = TimeSource.test(clock)
        var client = client(retry: RetryPolicy(maxRetries: 3, baseDelay: 0.01, maxDelay: 30), time: time)
        client.limiter = RateLimiter(requestsPerSecond: 1000, time: time)
        let lookup = Task { [client] in try await client.details(id: 194) }
        #expect(await clock.waitForSleeper(), "the client never waited for the Retry-After")
        #expect(stub.requestCount == 1)
        // Not yet: 0.9 s of the asked 1 s have passed, and the client still waits.
        await clock.advance(by: .milliseconds(900))
        #expect(await clock.waitForSleeper(within: .zero))
        #expect(stub.requestCount == 1)
        await clock.advance(by: .milliseconds(100))
        #expect(try await lookup.value.id == 194)
        #expect(stub.requestCount == 2)
        #expect(time.now() == testStart.addingTimeInterval(1))
    }

    @Test(arguments: ["31", "Wed, 21 Oct 2099 07:28:00 GMT"])
    func aLongRetryAfterGoesBackToTheCallerAtOnce(_ header: String) async throws {
        stub.inject(.rateLimited(retryAfter: header))
        let clock = TestClock<Duration>()
        let time = TimeSource.test(clock)
        var client = client(retry: RetryPolicy(maxRetries: 3, baseDelay: 0.01, maxDelay: 30), time: time)
        client.limiter = RateLimiter(requestsPerSecond: 1000, time: time)
        // The clock is never turned: a client that waited would wait until the test's deadline cancels it.
        let lookup = Task { [client] in try await client.details(id: 194) }
        let deadline = Task {
            try await Task.sleep(for: .seconds(120))
            lookup.cancel()
        }
        defer { deadline.cancel() }
        await #expect {
            try await lookup.value
        } throws: { error in
            guard case .rateLimited(let seconds?) = error as? TMDBError else { return false }
            return seconds > 30
        }
        #expect(stub.requestCount == 1)
        #expect(time.now() == testStart)
    }

    @Test(arguments: HTTPTransportKind.allCases)
    func serverErrorsAreTypedAndRetried(over transport: HTTPTransportKind) async throws {
        stub.inject(.serverError(status: 503), times: 2)
        await #expect(throws: TMDBError.self) { try await client(over: transport).details(id: 194) }
        let movie = try await client(retry: RetryPolicy(maxRetries: 2, baseDelay: 0.01), over: transport).details(
            id: 194)
        #expect(movie.id == 194)
        #expect(stub.requestCount == 3)
    }

    @Test(arguments: HTTPTransportKind.allCases)
    func gatewayTimeoutIsAServerError(over transport: HTTPTransportKind) async throws {
        stub.inject(.serverError(status: 504))
        await #expect {
            try await client(over: transport).details(id: 194)
        } throws: { error in
            guard case .server(504, 24, _) = error as? TMDBError else { return false }
            return true
        }
    }

    @Test(arguments: HTTPTransportKind.allCases)
    func malformedBodyIsTypedAndRedacted(over transport: HTTPTransportKind) async throws {
        stub.inject(.malformedJSON)
        await #expect {
            try await client(over: transport).search("Up")
        } throws: { error in
            guard case .malformed(let url, _) = error as? TMDBError else { return false }
            return url.contains("api_key=REDACTED") && !url.contains(stub.apiKey)
        }
    }

    @Test(arguments: HTTPTransportKind.allCases)
    func slowResponseTimesOut(over transport: HTTPTransportKind) async throws {
        // Far longer than the timeout: without it the request would succeed, so no timing needs asserting.
        stub.inject(.hang(seconds: 60), on: .details(id: 194))
        await #expect {
            try await client(timeout: 0.5, over: transport).details(id: 194)
        } throws: { error in
            guard case .timeout(let url) = error as? TMDBError else { return false }
            return !url.contains(stub.apiKey)
        }
    }

    @Test(arguments: HTTPTransportKind.allCases)
    func unreachableServerIsTyped(over transport: HTTPTransportKind) async throws {
        await #expect {
            try await client(baseURL: TMDBStubServer.unreachableBaseURL, over: transport).search("Up")
        } throws: { error in
            guard case .unreachable = error as? TMDBError else { return false }
            return true
        }
    }

    @Test func toleratesNullAndMissingOptionalFields() throws {
        let json = #"{"id": 7, "title": null, "release_date": "", "vote_count": 3}"#
        let movie = try JSONDecoder().decode(RemoteMovie.self, from: Data(json.utf8))
        #expect(movie == RemoteMovie(id: 7, title: nil, voteCount: 3))
    }
}

@Suite struct RetryTests {
    @Test(arguments: [
        ("120", 120.0), ("0", 0), ("-5", 0), ("Sun, 06 Nov 1994 08:49:37 GMT", 0),
    ])
    func parsesRetryAfter(_ header: String, _ seconds: Double) {
        let now = Date(timeIntervalSince1970: 784_111_777)  // 08:49:37 on that Sunday
        #expect(RetryAfter.seconds(header, now: now) == seconds)
    }

    @Test func parsesHTTPDatesInTheFuture() {
        let now = Date(timeIntervalSince1970: 784_111_777 - 30)
        #expect(RetryAfter.seconds("Sun, 06 Nov 1994 08:49:37 GMT", now: now) == 30)
        #expect(RetryAfter.seconds("soon", now: now) == nil)
    }

    @Test func farRetryAfterIsCappedAtTenYears() {
        let now = Date(timeIntervalSince1970: 1_795_000_000)
        #expect(RetryAfter.seconds("9223372036854775807", now: now) == Durations.longest)
        #expect(RetryAfter.seconds("Wed, 21 Oct 2099 07:28:00 GMT", now: now) == Durations.longest)
        #expect(RetryAfter.seconds("99999999999999999999999", now: now) == nil)
        // The message rounds the wait to whole seconds; a value near Int.max trapped there.
        let message = TMDBError.rateLimited(retryAfter: 9.3e18).description
        #expect(message.hasSuffix("retry after 1000000000000000s"))
    }

    @Test func backoffIsExponentialWithFullJitterAndHonoursRetryAfter() {
        let policy = RetryPolicy(maxRetries: 5, baseDelay: 1, maxDelay: 10)
        #expect(policy.delay(beforeRetry: 0, retryAfter: nil) { 0.999 } < 1)
        #expect(policy.delay(beforeRetry: 3, retryAfter: nil) { 0.5 } == 4)
        #expect(policy.delay(beforeRetry: 9, retryAfter: nil) { 0.5 } == 5)
        #expect(policy.delay(beforeRetry: 0, retryAfter: 7) { 0.1 } == 7)
        #expect(policy.delay(beforeRetry: 0, retryAfter: nil) { 0 } == 0)
    }

    @Test func redactsCredentialsInURLs() {
        let url = URL(string: "https://user:pw@api.themoviedb.org/3/movie/1?api_key=abc123&language=en")!
        let shown = Redaction.url(url)
        #expect(!shown.contains("abc123") && !shown.contains("pw"))
        #expect(shown.contains("api_key=REDACTED") && shown.contains("language=en"))
    }
}
