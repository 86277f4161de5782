import Foundation
import Logging

/// Talks to TMDB v3: search, details and find, with auth, typed errors, retries and an optional shared rate limiter.
public struct TMDBClient: Sendable {
    public var baseURL: URL
    public var credentials: TMDBCredentials
    public var language: String?
    public var timeout: TimeInterval
    public var retry: RetryPolicy
    public var limiter: RateLimiter?
    public var counter: RequestCounter?
    /// The waits between retries, the jitter in them, a Retry-After date's distance, and the timing logs.
    public var time: TimeSource
    /// Where the transport's answers arrive; a fetch runs its operations there (see `HTTPStack`).
    public var executor: (any TaskExecutor)?
    let transport: HTTPTransport
    let logger: Logger

    public init(
        baseURL: URL, credentials: TMDBCredentials, language: String? = nil, timeout: TimeInterval = 10,
        retry: RetryPolicy = RetryPolicy(), limiter: RateLimiter? = nil, counter: RequestCounter? = nil,
        transport: @escaping HTTPTransport, executor: (any TaskExecutor)? = nil, time: TimeSource, logger: Logger
    ) {
        self.baseURL = baseURL
        self.credentials = credentials
        self.language = language
        self.timeout = timeout
        self.retry = retry
        self.limiter = limiter
        self.counter = counter
        self.time = time
        self.transport = transport
        self.executor = executor
        self.logger = logger
    }

    /// `GET /search/movie?query=…`: the first page of matches; with a year, only movies released that year.
    public func search(_ title: String, year: Int? = nil) async throws -> [RemoteMovie] {
        var query = [("query", title), ("page", "1")]
        if let year { query.append(("year", String(year))) }
        let page: SearchPage = try await get("search/movie", query: query)
        return page.results
    }

    /// `GET /find/{imdb id}?external_source=imdb_id`: the TMDB movie with this IMDb id, or nil when TMDB
    /// knows none (it answers empty lists, not 404).
    public func find(imdbId: String) async throws -> RemoteMovie? {
        let page: FindPage = try await get("find/\(imdbId)", query: [("external_source", "imdb_id")])
        return page.movieResults.first
    }

    /// `GET /movie/{id}`. An answer about another movie than the one asked for is malformed: linking what it names
    /// would put another movie on the family's lists.
    public func details(id: Int) async throws -> RemoteMovie {
        let movie: RemoteMovie = try await get("movie/\(id)", query: [])
        try check(movie, asked: id, query: [])
        return movie
    }

    /// `GET /movie/{id}`, with `append_to_response=release_dates,watch/providers` when `extrasRegion` is given:
    /// still one request. Only that region's part of the blocks is read; the extras are nil without it.
    public func details(id: Int, extrasRegion: String?) async throws -> (RemoteMovie, MovieExtras?) {
        guard let extrasRegion else { return (try await details(id: id), nil) }
        let query = [("append_to_response", "release_dates,watch/providers")]
        let answer: DetailsAnswer = try await DecodingRegion.$current.withValue(extrasRegion) {
            try await get("movie/\(id)", query: query) { body in RegionCut.cut(body, region: extrasRegion) ?? body }
        }
        try check(answer.movie, asked: id, query: query)
        return (answer.movie, answer.extras)
    }

    /// Every details request, with the blocks or without: an answer naming another id is refused, its figures and
    /// blocks unread.
    private func check(_ movie: RemoteMovie, asked id: Int, query: [(String, String)]) throws {
        guard movie.id != id else { return }
        throw TMDBError.malformed(
            url: Redaction.url(url("movie/\(id)", query: query)),
            reason: "it describes movie \(movie.id), not \(id) as asked")
    }

    /// `GET /certification/movie/list`: the region's movie certifications in TMDB's order (empty when it has none).
    public func certifications(region: String) async throws -> [RegionCertification] {
        let list: CertificationList = try await DecodingRegion.$current.withValue(region) {
            try await get("certification/movie/list", query: [])
        }
        return list.certifications
    }

    /// `GET /movie/{id}/recommendations`, page 1: the movies TMDB recommends to those who liked this one. Results
    /// that cannot be read are left out (`unreadable`); an answer that is no page at all is malformed.
    public func recommendations(id: Int) async throws -> (movies: [RecommendedMovie], unreadable: Int) {
        let page: RecommendationsPage = try await get("movie/\(id)/recommendations", query: [("page", "1")])
        return (page.results, page.unreadable)
    }

    /// Searches and decides which result the title names, if any (see `MovieMatch`).
    public func match(title: String, year: Int? = nil) async throws -> MovieMatch<RemoteMovie> {
        MovieMatch.decide(title: title, year: year, results: try await search(title, year: year))
    }

    /// Built as text: URLComponents took a tenth of a fetch's CPU.
    func url(_ path: String, query: [(String, String)]) -> URL {
        var items = query
        if let language { items.append(("language", language)) }
        if case .apiKey(let key) = credentials { items.append(("api_key", key)) }
        var text = baseURL.absoluteString
        if text.hasSuffix("/") { text.removeLast() }
        text += "/" + path
        for (index, (name, value)) in items.enumerated() {
            text += index == 0 ? "?" : "&"
            text += name + "=" + Self.percentEncode(value)
        }
        return URL(string: text)!
    }

    /// Everything but RFC 3986's unreserved characters is encoded, so "&", "+", "%", "'" and "#" survive.
    static func percentEncode(_ value: String) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(value.utf8.count)
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                bytes.append(byte)
            default:
                bytes.append(UInt8(ascii: "%"))
                bytes.append(hexDigits[Int(byte >> 4)])
                bytes.append(hexDigits[Int(byte & 0x0F)])
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static let hexDigits = Array("0123456789ABCDEF".utf8)

    /// `cut` shortens a body before it is decoded (`RegionCut`); the body as received is what errors look at.
    private func get<T: Decodable>(
        _ path: String, query: [(String, String)], cut: (@Sendable (Data) -> Data)? = nil
    ) async throws -> T {
        let url = url(path, query: query)
        var headers = ["Accept": "application/json"]
        if case .accessToken(let token) = credentials { headers["Authorization"] = "Bearer \(token)" }
        let request = HTTPRequest(url: url, headers: headers, timeout: timeout)
        var attempt = 0
        while true {
            do {
                return try await send(request, as: T.self, cut: cut)
            } catch let error as TMDBError
                where error.isTransient && attempt < retry.maxRetries && (error.retryAfter ?? 0) <= retry.maxDelay
            {
                let pause = retry.delay(beforeRetry: attempt, retryAfter: error.retryAfter, random: time.random)
                if let retryAfter = error.retryAfter { await limiter?.pause(for: retryAfter) }
                logger.debug(
                    "retrying TMDB request",
                    metadata: ["url": "\(Redaction.url(url))", "error": "\(error)", "pause": "\(pause)"])
                attempt += 1
                try await time.sleep(seconds: pause)
            }
        }
    }

    private func send<T: Decodable>(
        _ request: HTTPRequest, as type: T.Type, cut: (@Sendable (Data) -> Data)?
    ) async throws -> T {
        await limiter?.acquire()
        try Task.checkCancellation()
        counter?.increment()
        // Redacted only when shown: redaction parses the URL again, which most requests never need.
        var shown: String { Redaction.url(request.url) }
        let started = time.instant
        let response: HTTPResponse
        do {
            response = try await transport(request)
        } catch TransportError.timedOut {
            throw TMDBError.timeout(url: shown)
        } catch TransportError.unreachable(let reason) {
            throw TMDBError.unreachable(url: shown, reason: reason)
        }
        logger.debug(
            "GET \(shown) -> \(response.status)",
            metadata: ["ms": "\(Int(time.seconds(since: started) * 1000))"])
        guard response.status == 200 else { throw error(for: response, url: shown) }
        // TMDB's answers nest a few levels; a deeper one is broken, and refused before decoding costs more.
        guard JSONReader.nestsWithin(response.body) else {
            throw TMDBError.malformed(url: shown, reason: "the answer nests deeper than \(JSONReader.maxDepth) levels")
        }
        do {
            return try Self.decoder.decode(T.self, from: cut?(response.body) ?? response.body)
        } catch {
            // Not JSON at all: a web page, a proxy's or captive portal's, not TMDB's API. A cut-off JSON body is
            // TMDB's answer gone wrong, about this movie only.
            guard Self.looksLikeJSON(response.body) else {
                throw TMDBError.wrongAddress(url: shown, status: response.status)
            }
            // The reason quotes what TMDB sent, which could echo the key: redacted like everything else shown.
            let reason = (error as? DecodingError)?.fieldAndProblem ?? "\(error)"
            throw TMDBError.malformed(url: shown, reason: Redaction.text(reason, hiding: credentials.secret))
        }
    }

    /// Whether the body starts as a JSON object or array does; only asked after a decoding failure.
    private static func looksLikeJSON(_ body: Data) -> Bool {
        let first = body.first { !(" \t\r\n".utf8.contains($0)) }
        return first == UInt8(ascii: "{") || first == UInt8(ascii: "[")
    }

    private static let decoder = JSONDecoder()

    private func error(for response: HTTPResponse, url: String) -> TMDBError {
        let body = try? Self.decoder.decode(ErrorBody.self, from: response.body)
        let code = body?.statusCode
        let message = Redaction.text(body?.message ?? "no message", hiding: credentials.secret)
        // A 404 (or any 4xx but 401 and 429) that TMDB did not write means the request went somewhere else:
        // telling the user "no such movie" would mark a good movie unknown.
        let tmdbs = body?.isTMDBs ?? false
        switch response.status {
        case 401: return .unauthorized(code: code, message: message)
        case 404 where !tmdbs, 400...499 where response.status != 429 && !Self.looksLikeJSON(response.body):
            return .wrongAddress(url: url, status: response.status)
        case 404: return .notFound(code: code, message: message)
        case 429: return .rateLimited(retryAfter: RetryAfter.seconds(response.headers["retry-after"], now: time.now()))
        case 500...599: return .server(status: response.status, code: code, message: message)
        case 400...499: return .rejected(status: response.status, code: code, message: message)
        default: return .malformed(url: url, reason: "unexpected HTTP status \(response.status)")
        }
    }
}
