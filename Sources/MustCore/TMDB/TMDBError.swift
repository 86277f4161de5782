import Foundation

/// What can go wrong talking to TMDB. Messages never carry the key or token; URLs are redacted.
public enum TMDBError: Error, Sendable, Equatable, CustomStringConvertible {
    /// 401: status_code 7 (invalid key) or 10 (suspended).
    case unauthorized(code: Int?, message: String)
    /// 404: status_code 34 (not found) or 6 (invalid id).
    case notFound(code: Int?, message: String)
    /// 429: Retry-After in seconds when the server gave one.
    case rateLimited(retryAfter: TimeInterval?)
    /// 5xx: 503 offline or maintenance, 504 backend timeout, …
    case server(status: Int, code: Int?, message: String)
    /// Any other 4xx.
    case rejected(status: Int, code: Int?, message: String)
    case timeout(url: String)
    case unreachable(url: String, reason: String)
    case malformed(url: String, reason: String)
    /// An answer TMDB's API would not give (a 404 without TMDB's error body, a web page instead of JSON): the
    /// configured address is not TMDB's API. Nothing is learned about the movie asked for.
    case wrongAddress(url: String, status: Int)

    public var description: String {
        switch self {
        case .unauthorized(_, let message):
            "TMDB rejected the credentials (401: \(message)); check TMDB_API_KEY or TMDB_ACCESS_TOKEN"
        case .notFound(_, let message): "TMDB has no such movie (404: \(message))"
        case .rateLimited(let retryAfter):
            "TMDB is rate limiting requests (429)"
                + (retryAfter.map { "; retry after \(Durations.wholeSeconds($0.rounded(.up)))s" } ?? "")
        case .server(let status, _, let message): "TMDB is having trouble (\(status): \(message))"
        case .rejected(let status, _, let message): "TMDB rejected the request (\(status): \(message))"
        case .timeout(let url): "TMDB did not answer in time (\(url))"
        case .unreachable(let url, let reason): "cannot reach TMDB at \(url) (\(reason))"
        case .malformed(let url, let reason): "TMDB sent a response mustc cannot read (\(url): \(reason))"
        case .wrongAddress(let url, let status):
            "\(Self.wrongAddressHeadline): \(url) answered \(status) with something that is not TMDB's API; "
                + "check tmdb.baseURL in the config or MUSTC_TMDB_BASE_URL (TMDB's is https://api.themoviedb.org/3)"
        }
    }

    /// How a wrong-address message begins, for callers that tell it once.
    public static let wrongAddressHeadline = "TMDB's address looks wrong"

    /// Worth another try after a pause: rate limits, server trouble and timeouts.
    public var isTransient: Bool {
        switch self {
        case .rateLimited, .server, .timeout: true
        default: false
        }
    }

    public var retryAfter: TimeInterval? {
        if case .rateLimited(let seconds) = self { return seconds }
        return nil
    }
}
