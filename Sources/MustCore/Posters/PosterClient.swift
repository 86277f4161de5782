import Foundation

/// Why one poster was not downloaded.
public struct PosterFailure: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String
    /// The host itself failed (no answer, a timeout, a 5xx), not this one poster: enough of these in a row and
    /// the run stops asking.
    public var hostDown: Bool
}

/// TMDB's image host: `{imageBaseURL}{size}{poster_path}`. Not the API: no key or token is ever sent, and no
/// request counts against the API's budget (its own transport, no rate limiter, no request counter).
public struct PosterClient: Sendable {
    public var imageBaseURL: URL
    public var timeout: TimeInterval
    let transport: HTTPTransport

    public init(imageBaseURL: URL, timeout: TimeInterval, transport: @escaping HTTPTransport) {
        self.imageBaseURL = imageBaseURL
        self.timeout = timeout
        self.transport = transport
    }

    /// The poster's address; `path` must be valid (`PosterPath.isValid`), so it adds no "..", query or host.
    public func url(_ path: String, size: PosterSize) -> URL? {
        var text = imageBaseURL.absoluteString
        if !text.hasSuffix("/") { text += "/" }
        return URL(string: text + size.rawValue + path)
    }

    /// The poster's bytes, checked: HTTP 200, at most 5 MB, a JPEG, PNG or WebP signature, and a whole file.
    public func download(_ path: String, size: PosterSize) async -> Result<[UInt8], PosterFailure> {
        guard PosterPath.isValid(path), let url = url(path, size: size) else {
            return .failure(PosterFailure(description: "not a poster path", hostDown: false))
        }
        // Headers of its own: never the API's Authorization, and the URL carries no api_key.
        let request = HTTPRequest(
            url: url, headers: ["Accept": "image/webp,image/png,image/jpeg"], timeout: timeout,
            maxBodyBytes: PosterImage.maxBytes)
        let response: HTTPResponse
        do {
            response = try await transport(request)
        } catch TransportError.timedOut {
            return .failure(PosterFailure(description: "no answer within \(Int(timeout))s", hostDown: true))
        } catch TransportError.unreachable(let reason) {
            return .failure(PosterFailure(description: reason, hostDown: true))
        } catch {
            return .failure(PosterFailure(description: "cancelled", hostDown: false))
        }
        guard response.status == 200 else {
            let down = response.status >= 500 || response.status == 429
            return .failure(
                PosterFailure(description: "the image host answered HTTP \(response.status)", hostDown: down))
        }
        let bytes = [UInt8](response.body)
        guard let kind = PosterImage(signature: bytes) else {
            return .failure(PosterFailure(description: "the answer is not a JPEG, PNG or WebP image", hostDown: false))
        }
        guard kind.isComplete(bytes) else {
            return .failure(PosterFailure(description: "the \(kind.rawValue) image was cut short", hostDown: false))
        }
        return .success(bytes)
    }
}
