import Foundation
import Logging

/// Talks to TMDB v3: search and details, with auth, typed errors, retries and an optional shared rate limiter.
public struct TMDBClient: Sendable {
    public var baseURL: URL
    public var credentials: TMDBCredentials
    public var language: String?
    public var timeout: TimeInterval
    public var retry: RetryPolicy
    public var limiter: RateLimiter?
    public var counter: RequestCounter?
    let transport: HTTPTransport
    let logger: Logger

    public init(
        baseURL: URL, credentials: TMDBCredentials, language: String? = nil, timeout: TimeInterval = 10,
        retry: RetryPolicy = RetryPolicy(), limiter: RateLimiter? = nil, counter: RequestCounter? = nil,
        transport: @escaping HTTPTransport, logger: Logger
    ) {
        self.baseURL = baseURL
        self.credentials = credentials
        self.language = language
        self.timeout = timeout
        self.retry = retry
        self.limiter = limiter
        self.counter = counter
        self.transport = transport
        self.logger = logger
    }

    /// `GET /search/movie?query=…`: the first page of matches.
    public func search(_ title: String) async throws -> [RemoteMovie] {
        let page: SearchPage = try await get("search/movie", query: [("query", title), ("page", "1")])
        return page.results
    }

    /// `GET /movie/{id}`.
    public func details(id: Int) async throws -> RemoteMovie {
        try await get("movie/\(id)", query: [])
    }

    /// Searches and picks the best match, or nil when TMDB finds nothing.
    public func lookUp(title: String) async throws -> RemoteMovie? {
        RemoteMovie.bestMatch(for: title, in: try await search(title))
    }

    func url(_ path: String, query: [(String, String)]) -> URL {
        var items = query
        if let language { items.append(("language", language)) }
        if case .apiKey(let key) = credentials { items.append(("api_key", key)) }
        var components = URLComponents(url: baseURL.appendingPathComponent(path), resolvingAgainstBaseURL: false)!
        components.percentEncodedQuery = items.map { "\($0)=\(Self.percentEncode($1))" }.joined(separator: "&")
        return components.url!
    }

    /// Everything but RFC 3986's unreserved characters is encoded, so "&", "+", "%", "'" and "#" survive.
    static func percentEncode(_ value: String) -> String {
        value.addingPercentEncoding(withAllowedCharacters: unreserved) ?? ""
    }

    private static let unreserved = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    private func get<T: Decodable>(_ path: String, query: [(String, String)]) async throws -> T {
        let url = url(path, query: query)
        var headers = ["Accept": "application/json"]
        if case .accessToken(let token) = credentials { headers["Authorization"] = "Bearer \(token)" }
        let request = HTTPRequest(url: url, headers: headers, timeout: timeout)
        var attempt = 0
        while true {
            do {
                return try await send(request, as: T.self)
            } catch let error as TMDBError
                where error.isTransient && attempt < retry.maxRetries && (error.retryAfter ?? 0) <= retry.maxDelay
            {
                let pause = retry.delay(beforeRetry: attempt, retryAfter: error.retryAfter) { Double.random(in: 0..<1) }
                if let retryAfter = error.retryAfter { await limiter?.pause(for: retryAfter) }
                logger.debug(
                    "retrying TMDB request",
                    metadata: ["url": "\(Redaction.url(url))", "error": "\(error)", "pause": "\(pause)"])
                attempt += 1
                try await Task.sleep(for: .seconds(pause))
            }
        }
    }

    private func send<T: Decodable>(_ request: HTTPRequest, as type: T.Type) async throws -> T {
        await limiter?.acquire()
        try Task.checkCancellation()
        counter?.increment()
        let shown = Redaction.url(request.url)
        let started = ContinuousClock.now
        let response: HTTPResponse
        do {
            response = try await transport(request)
        } catch TransportError.timedOut {
            throw TMDBError.timeout(url: shown)
        } catch TransportError.unreachable(let reason) {
            throw TMDBError.unreachable(url: shown, reason: reason)
        }
        let elapsed = (ContinuousClock.now - started).components
        let milliseconds = Double(elapsed.seconds) * 1000 + Double(elapsed.attoseconds) / 1e15
        logger.debug("GET \(shown) -> \(response.status)", metadata: ["ms": "\(Int(milliseconds))"])
        guard response.status == 200 else { throw error(for: response, url: shown) }
        do {
            return try JSONDecoder().decode(T.self, from: response.body)
        } catch {
            throw TMDBError.malformed(url: shown, reason: "the JSON does not have the expected fields")
        }
    }

    private func error(for response: HTTPResponse, url: String) -> TMDBError {
        let body = try? JSONDecoder().decode(ErrorBody.self, from: response.body)
        let code = body?.statusCode
        let message = Redaction.text(body?.statusMessage ?? "no message", hiding: credentials.secret)
        switch response.status {
        case 401: return .unauthorized(code: code, message: message)
        case 404: return .notFound(code: code, message: message)
        case 429: return .rateLimited(retryAfter: RetryAfter.seconds(response.headers["retry-after"]))
        case 500...599: return .server(status: response.status, code: code, message: message)
        case 400...499: return .rejected(status: response.status, code: code, message: message)
        default: return .malformed(url: url, reason: "unexpected HTTP status \(response.status)")
        }
    }
}
