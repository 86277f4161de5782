import Foundation

/// Something the stub does instead of answering normally, as the real API would.
public enum StubFault: Sendable, Equatable {
    /// 401 with status_code 7, as for an invalid key.
    case unauthorized
    /// 404 with status_code 34.
    case notFound
    /// 429 with status_code 25 and the given Retry-After header value (seconds or an HTTP date).
    case rateLimited(retryAfter: String)
    /// 503 with status_code 9 (offline), 504 with 24 (backend timeout), …
    case serverError(status: Int)
    /// 200 with a body that is not JSON.
    case malformedJSON
    /// 422 with TMDB's other error shape, `{"errors": ["query must be provided"]}`.
    case unprocessable
    /// Waits this long before answering normally, to outlast the client's timeout.
    case hang(seconds: Double)
    /// 200 with a JSON body of about this many bytes: a misbehaving server or proxy, not TMDB.
    case oversizedBody(bytes: Int)
    /// The normal answer with one top-level field set to this raw JSON, as answers recorded by others carry
    /// (`"popularity": "93.49"`) or a broken one would (`"popularity": "oops"`).
    case field(String, json: String)
    /// 200 with an HTML page, as a captive portal or a misconfigured proxy answers.
    case htmlPage
    /// The normal answer's headers with its full Content-Length, then half its body, then the connection closes.
    case truncatedBody
    /// The answer another movie's details request would get, with the same blocks: a mixed-up cache or proxy.
    case answerFor(id: Int)
}

/// Which requests a fault applies to.
public enum StubRoute: Sendable, Equatable {
    case any
    case search
    case details(id: Int?)
    case find
    /// The image host's `/t/p/{size}/{file}`.
    case images
    /// `/movie/{id}/recommendations`; nil: any movie's.
    case recommendations(id: Int?)
    /// `/certification/movie/list`.
    case certifications

    func matches(path: String) -> Bool {
        switch self {
        // The API's requests: the image host's are faulted only by `.images`.
        case .any: !path.hasPrefix(StubPoster.prefix)
        case .images: path.hasPrefix(StubPoster.prefix)
        case .search: path.hasSuffix("/search/movie")
        case .find: path.contains("/find/")
        case .recommendations(nil): path.hasSuffix("/recommendations")
        case .recommendations(let id?): path.hasSuffix("/movie/\(id)/recommendations")
        case .details(nil): path.contains("/3/movie/")
        case .details(let id?): path.hasSuffix("/movie/\(id)")
        case .certifications: path.hasSuffix("/certification/movie/list")
        }
    }
}

struct FaultRule {
    var route: StubRoute
    var fault: StubFault
    /// nil: for every matching request until cleared.
    var remaining: Int?
}

/// One request as the stub received it, with the query decoded as a form would be ("+" is a space).
public struct RecordedRequest: Sendable {
    public var path: String
    public var query: [String: String]
    public var headers: [String: String]
}
