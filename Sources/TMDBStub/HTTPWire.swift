import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Minimal HTTP/1.1 framing for the test servers: read one request's head (and its `Content-Length` body),
/// write one whole response.
struct HTTPWire {
    let socket: Int32
    private var buffer = [UInt8]()

    init(socket: Int32) { self.socket = socket }

    struct Head {
        var method: String
        var target: String
        var headers: [String: String]
        var keepAlive: Bool
    }

    /// The next request head, or nil when the peer closed the connection.
    mutating func readHead() -> Head? {
        let terminator: [UInt8] = [13, 10, 13, 10]
        while true {
            if let end = buffer.firstRange(of: terminator) {
                let text = String(decoding: buffer[..<end.lowerBound], as: UTF8.self)
                buffer.removeSubrange(..<end.upperBound)
                return Self.parse(text)
            }
            guard fill(), buffer.count <= 64 * 1024 else { return nil }
        }
    }

    /// The body the head announced (`Content-Length`, at most 1 MB), or nil when the peer closed first.
    mutating func readBody(of head: Head) -> Data? {
        let length = Int(head.headers["content-length"] ?? "0") ?? 0
        guard (0...(1 << 20)).contains(length) else { return nil }
        while buffer.count < length { guard fill() else { return nil } }
        defer { buffer.removeFirst(length) }
        return Data(buffer.prefix(length))
    }

    /// Reads what the peer sent next into `buffer`; false when it closed.
    private mutating func fill() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            // A signal (SIGCHLD, from the many processes a test suite starts) interrupts recv: not a close.
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return false }
            buffer.append(contentsOf: chunk[..<count])
            return true
        }
    }

    private static func parse(_ text: String) -> Head? {
        let lines = text.components(separatedBy: "\r\n")
        let parts = lines.first?.split(separator: " ") ?? []
        guard parts.count == 3 else { return nil }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
                in: .whitespaces)
        }
        let closing = headers["connection"]?.lowercased() == "close" || parts[2] == "HTTP/1.0"
        return Head(method: String(parts[0]), target: String(parts[1]), headers: headers, keepAlive: !closing)
    }

    /// Writes status line, headers and body in one buffer, so Nagle never delays the tail.
    /// With `cutAt`, only that much of the body follows the head (which still names its whole length).
    func write(status: Int, headers: [(String, String)], body: Data, keepAlive: Bool, cutAt: Int? = nil) {
        var head = "HTTP/1.1 \(status) \(Self.reason(status))\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        head += "Content-Length: \(body.count)\r\nConnection: \(keepAlive ? "keep-alive" : "close")\r\n\r\n"
        var bytes = Data(head.utf8)
        bytes.append(cutAt.map { body.prefix($0) } ?? body)
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let sent = send(socket, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                if sent < 0, errno == EINTR { continue }
                if sent <= 0 { return }
                offset += sent
            }
        }
    }

    private static func reason(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 429: "Too Many Requests"
        case 500: "Internal Server Error"
        case 503: "Service Unavailable"
        case 504: "Gateway Timeout"
        default: "Status"
        }
    }
}
