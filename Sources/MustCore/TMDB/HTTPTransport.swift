import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

public struct HTTPRequest: Sendable {
    public var url: URL
    public var headers: [String: String]
    public var timeout: TimeInterval
    /// A longer body ends the transfer (curl transport): a poster may not exceed 5 MB. nil: the transport's own
    /// bound (8 MB).
    public var maxBodyBytes: Int?
    /// A POST's body (notifications); nil: a GET.
    public var body: Data?

    public init(
        url: URL, headers: [String: String] = [:], timeout: TimeInterval, maxBodyBytes: Int? = nil, body: Data? = nil
    ) {
        self.url = url
        self.headers = headers
        self.timeout = timeout
        self.maxBodyBytes = maxBodyBytes
        self.body = body
    }
}

public struct HTTPResponse: Sendable {
    public var status: Int
    /// Header names are lowercased.
    public var headers: [String: String]
    public var body: Data

    public init(status: Int, headers: [String: String] = [:], body: Data) {
        self.status = status
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { a, _ in a })
        self.body = body
    }

    init(status: Int, lowercasedHeaders: [String: String], body: Data) {
        self.status = status
        self.headers = lowercasedHeaders
        self.body = body
    }
}

/// Failures below HTTP: no response at all.
public enum TransportError: Error, Sendable, Equatable {
    case timedOut
    case unreachable(String)
}

/// The HTTP boundary of the TMDB client (and the notifications' senders): one request in, one response out.
public typealias HTTPTransport = @Sendable (HTTPRequest) async throws -> HTTPResponse

/// A transport and the executor its answers arrive on, if it has one: tasks that prefer that executor take an
/// answer without a hand-off between threads.
public struct HTTPStack: Sendable {
    public var transport: HTTPTransport
    public var executor: (any TaskExecutor)?

    public init(transport: @escaping HTTPTransport, executor: (any TaskExecutor)? = nil) {
        self.transport = transport
        self.executor = executor
    }
}

/// Which HTTP stack carries TMDB requests: libcurl's multi interface directly (the default, about a third of
/// the CPU per request), or URLSession, kept as a fallback.
public enum HTTPTransportKind: String, Sendable, Equatable, CaseIterable {
    case curl
    case urlsession

    public func stack(maxConnections: Int, time: TimeSource) -> HTTPStack {
        switch self {
        case .curl: CurlTransport.stack(maxConnections: maxConnections, time: time)
        case .urlsession: HTTPStack(transport: URLSessionTransport.make(maxConnections: maxConnections, time: time))
        }
    }
}

public enum URLSessionTransport {
    /// A transport on one shared URLSession (libcurl on Linux), so connections are reused across requests.
    public static func make(maxConnections: Int = 8, time: TimeSource) -> HTTPTransport {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = maxConnections
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        // TMDB sets no cookies mustc needs; parsing and storing them cost about 5% of a fetch's CPU.
        configuration.httpShouldSetCookies = false
        configuration.httpCookieAcceptPolicy = .never
        configuration.httpCookieStorage = nil
        let session = URLSession(configuration: configuration)
        let deadlines = RequestDeadlines(time: time)
        return { request in
            var urlRequest = URLRequest(url: request.url, timeoutInterval: request.timeout)
            for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
            if let body = request.body {
                urlRequest.httpMethod = "POST"
                urlRequest.httpBody = body
            }
            let data: Data
            let response: URLResponse
            do {
                let prepared = urlRequest
                (data, response) = try await deadlines.run(request.timeout) { try await session.data(for: prepared) }
            } catch let error as URLError {
                switch error.code {
                case .timedOut: throw TransportError.timedOut
                case .cancelled: throw CancellationError()
                // The URL is left out on purpose: it may carry the api key.
                default: throw TransportError.unreachable("network error \(error.code.rawValue)")
                }
            }
            guard let http = response as? HTTPURLResponse else {
                throw TransportError.unreachable("response was not HTTP")
            }
            var headers: [String: String] = [:]
            for case (let name as String, let value as String) in http.allHeaderFields { headers[name] = value }
            return HTTPResponse(status: http.statusCode, headers: headers, body: data)
        }
    }
}
