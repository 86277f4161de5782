import CCurl
import Foundation
import Synchronization

/// The default transport: libcurl's multi interface driven from one thread, so connections are reused and a
/// request costs a few easy-handle option calls and two callbacks. URLSession (libcurl underneath on Linux)
/// spent about three times the CPU per request on dispatch sources and per-request setup around the same calls.
public enum CurlTransport {
    public static func make(maxConnections: Int = 8, time: TimeSource) -> HTTPTransport {
        stack(maxConnections: maxConnections, time: time).transport
    }

    /// The transport with the loop thread as executor, for work that should run where the answers arrive.
    public static func stack(maxConnections: Int = 8, time: TimeSource) -> HTTPStack {
        let loop = CurlLoop(maxConnections: max(maxConnections, 1), time: time)
        let owner = LoopOwner(loop: loop)
        return HTTPStack(transport: { request in try await owner.loop.perform(request) }, executor: loop)
    }

    /// Held by the transport alone: when the last copy of it goes, so does the loop's idle wait (`abandon`).
    private final class LoopOwner: Sendable {
        let loop: CurlLoop

        init(loop: CurlLoop) { self.loop = loop }

        deinit { loop.abandon() }
    }
}

/// One request on its way through the loop thread, which alone touches it after submission.
final class CurlTransfer: @unchecked Sendable {
    /// A body beyond this is refused: TMDB's largest responses are a few hundred kilobytes.
    static let maxBodyBytes = 8 << 20

    let id: UInt64
    let request: HTTPRequest
    let continuation: CheckedContinuation<HTTPResponse, any Error>
    var headerList: UnsafeMutablePointer<curl_slist>?
    var body = Data()
    var headers: [String: String] = [:]
    var bodyTooLarge = false

    init(id: UInt64, request: HTTPRequest, continuation: CheckedContinuation<HTTPResponse, any Error>) {
        self.id = id
        self.request = request
        self.continuation = continuation
    }

    func receiveBody(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard body.count + bytes.count <= request.maxBodyBytes ?? Self.maxBodyBytes else {
            bodyTooLarge = true
            return false
        }
        body.append(contentsOf: bytes)
        return true
    }

    /// One header line as curl hands it over, CRLF included; a status line starts a new response.
    func receiveHeaderLine(_ line: UnsafeRawBufferPointer) {
        if line.starts(with: "HTTP/".utf8) {
            headers.removeAll()
            return
        }
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else { return }
        let name = String(decoding: UnsafeRawBufferPointer(rebasing: line[..<colon]), as: UTF8.self).lowercased()
        var value = line[(colon + 1)...]
        while let first = value.first, first == 0x20 || first == 0x09 { value = value.dropFirst() }
        while let last = value.last, last == 0x0D || last == 0x0A || last == 0x20 { value = value.dropLast() }
        headers[name] = String(decoding: UnsafeRawBufferPointer(rebasing: value), as: UTF8.self)
    }

    /// `status` is nil when libcurl could not say which HTTP status the answer had.
    func finish(code: CURLcode, status: Int?) {
        if code == CURLE_OK, let status {
            continuation.resume(returning: HTTPResponse(status: status, lowercasedHeaders: headers, body: body))
        } else if code == CURLE_OK {
            continuation.resume(throwing: TransportError.unreachable("libcurl gave no HTTP status"))
        } else if code == CURLE_OPERATION_TIMEDOUT {
            continuation.resume(throwing: TransportError.timedOut)
        } else if bodyTooLarge {
            let limit = (request.maxBodyBytes ?? Self.maxBodyBytes) >> 20
            continuation.resume(throwing: TransportError.unreachable("response larger than \(limit) MB"))
        } else {
            // curl's own words ("Couldn't connect to server"); they never include the URL.
            continuation.resume(throwing: TransportError.unreachable(CurlLoop.describe(code)))
        }
    }
}
