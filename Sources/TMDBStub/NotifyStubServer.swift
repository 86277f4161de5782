import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A loopback server for the notification tests and benchmarks that answers as ntfy, Gotify and a plain webhook
/// do: ntfy's JSON publishing at `/` (200 `{id, time, expires, event: "message", topic, message}`, 403
/// `{"code":40301,…}` for a wrong token, 429 with `Retry-After`), Gotify's `POST /message` with `X-Gotify-Key`
/// (`{id, appid, message, title, priority, date}`, 401 for a wrong key), and any other path as a webhook (200).
/// Faults: 429, 500, 403 and a hang.
public final class NotifyStubServer: @unchecked Sendable {
    public struct Request: Sendable {
        public var method: String
        public var path: String
        /// Names lowercased.
        public var headers: [String: String]
        public var body: Data

        public var json: [String: Any]? { (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] }
    }

    public enum Fault: Sendable, Equatable {
        case tooManyRequests(retryAfter: Int)
        case serverError
        case forbidden
        /// No answer until the server stops.
        case hang
    }

    /// The token ntfy's topic wants (Bearer) and Gotify's application token; nil: ntfy's topic is open.
    public var ntfyToken: String?
    public var gotifyToken = "AbCdEf.gotify-app-token"

    private let lock = NSLock()
    private var recorded: [Request] = []
    private var faults: [(fault: Fault, times: Int?)] = []
    private var listener: Int32 = -1
    private var connections: Set<Int32> = []
    private var stopped = false
    private var nextId = 1
    private var hanging = 0
    private var peakHanging = 0
    public private(set) var port: UInt16 = 0

    public init() {}

    /// The server's root: ntfy's topic URL is `root + topic`, Gotify's server the root itself.
    public var root: String { "http://127.0.0.1:\(port)/" }

    public var requests: [Request] { locked { recorded } }
    public func inject(_ fault: Fault, times: Int? = nil) { locked { faults.append((fault, times)) } }
    public func clearFaults() { locked { faults.removeAll() } }
    /// The most hanging requests held at one moment: 2 or more means a client sent them at once, not one after
    /// the other's timeout (a client that gives up closes, which ends its hold).
    public var peakHangingRequests: Int { locked { peakHanging } }

    /// Listens on 127.0.0.1 (`requested` 0 picks a free port; the same one again brings a stopped server back).
    public func start(port requested: UInt16 = 0) throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw StubError.socket("socket", errno) }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = requested.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(fd, 64) == 0 else {
            close(fd)
            throw StubError.socket("bind/listen", errno)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        locked {
            port = UInt16(bigEndian: address.sin_port)
            listener = fd
            stopped = false
        }
        Thread { [self] in acceptLoop(fd) }.start()
    }

    /// Stops listening and cuts every connection, a hanging one too.
    public func stop() {
        locked {
            stopped = true
            if listener >= 0 { shutdown(listener, Int32(SHUT_RDWR)) }
            listener = -1
            for connection in connections { shutdown(connection, Int32(SHUT_RDWR)) }
        }
    }

    deinit { stop() }

    private func acceptLoop(_ fd: Int32) {
        defer { close(fd) }
        while true {
            let connection = accept(fd, nil, nil)
            guard connection >= 0 else {
                if locked({ stopped }) || errno == EBADF || errno == EINVAL { return }
                continue
            }
            let admitted = locked { () -> Bool in
                if stopped { return false }
                connections.insert(connection)
                return true
            }
            guard admitted else {
                close(connection)
                return
            }
            Thread { [self] in serve(connection) }.start()
        }
    }

    private func serve(_ connection: Int32) {
        var buffer: [UInt8] = []
        while let request = Self.read(connection, &buffer) {
            let (status, headers, body, hang) = respond(to: request)
            if hang {
                hold(connection)
                break
            }
            var head = "HTTP/1.1 \(status) \(status == 200 ? "OK" : "Error")\r\n"
            for (name, value) in headers { head += "\(name): \(value)\r\n" }
            head += "Content-Type: application/json\r\nContent-Length: \(body.count)\r\n\r\n"
            let bytes = Data(head.utf8) + body
            let sent = bytes.withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if sent < bytes.count { break }
        }
        locked {
            _ = connections.remove(connection)
            close(connection)
        }
    }

    /// A hanging answer: nothing until the server stops or the client gives up and closes.
    private func hold(_ connection: Int32) {
        locked {
            hanging += 1
            peakHanging = max(peakHanging, hanging)
        }
        var byte: UInt8 = 0
        while !locked({ stopped }) {
            let peeked = recv(connection, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT))
            if peeked == 0 || (peeked < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) { break }
            usleep(20_000)
        }
        locked { hanging -= 1 }
    }

    /// One request: its head, then `Content-Length` bytes of body; nil when the peer closed.
    private static func read(_ connection: Int32, _ buffer: inout [UInt8]) -> Request? {
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        func fill() -> Bool {
            let count = chunk.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
            if count < 0, errno == EINTR { return true }
            guard count > 0, buffer.count < 1 << 20 else { return false }
            buffer.append(contentsOf: chunk[..<count])
            return true
        }
        let terminator: [UInt8] = [13, 10, 13, 10]
        var end = buffer.firstRange(of: terminator)
        while end == nil {
            guard fill() else { return nil }
            end = buffer.firstRange(of: terminator)
        }
        guard let end else { return nil }
        let lines = String(decoding: buffer[..<end.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
        buffer.removeSubrange(..<end.upperBound)
        let parts = lines.first?.split(separator: " ") ?? []
        guard parts.count == 3 else { return nil }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
                in: .whitespaces)
        }
        let length = Int(headers["content-length"] ?? "0") ?? 0
        while buffer.count < length { guard fill() else { return nil } }
        let body = Data(buffer.prefix(length))
        buffer.removeFirst(length)
        return Request(method: String(parts[0]), path: String(parts[1]), headers: headers, body: body)
    }

    private func respond(to request: Request) -> (Int, [(String, String)], Data, Bool) {
        locked {
            recorded.append(request)
            if let index = faults.indices.first {
                let fault = faults[index].fault
                if let times = faults[index].times {
                    if times <= 1 { faults.remove(at: index) } else { faults[index].times = times - 1 }
                }
                switch fault {
                case .hang: return (0, [], Data(), true)
                case .serverError:
                    return (500, [], Self.ntfyError(50001, 500, "internal server error"), false)
                case .forbidden: return (403, [], Self.ntfyError(40301, 403, "forbidden"), false)
                case .tooManyRequests(let wait):
                    return (
                        429, [("Retry-After", String(wait))],
                        Self.ntfyError(42901, 429, "limit reached: too many requests, please be nice"), false
                    )
                }
            }
            defer { nextId += 1 }
            let sent = request.json ?? [:]
            if request.path == "/message" { return gotify(request, sent) }
            guard request.path == "/" else { return (200, [], Data(#"{"ok":true}"#.utf8), false) }
            if let ntfyToken, request.headers["authorization"] != "Bearer \(ntfyToken)" {
                return (403, [], Self.ntfyError(40301, 403, "forbidden"), false)
            }
            let answer: [String: Any] = [
                "id": "stub\(nextId)", "time": 1_700_000_000 + nextId, "expires": 1_700_043_200 + nextId,
                "event": "message", "topic": sent["topic"] ?? "", "message": sent["message"] ?? "",
            ]
            return (200, [], (try? JSONSerialization.data(withJSONObject: answer)) ?? Data(), false)
        }
    }

    private func gotify(_ request: Request, _ sent: [String: Any]) -> (Int, [(String, String)], Data, Bool) {
        guard request.headers["x-gotify-key"] == gotifyToken else {
            let body =
                #"{"error":"Unauthorized","errorCode":401,"errorDescription":"you need to provide a valid access token or user credentials to access this api"}"#
            return (401, [], Data(body.utf8), false)
        }
        let answer: [String: Any] = [
            "id": nextId, "appid": 1, "message": sent["message"] ?? "", "title": sent["title"] ?? "",
            "priority": sent["priority"] ?? 0, "date": "2026-11-27T10:00:00.000000000Z",
        ]
        return (200, [], (try? JSONSerialization.data(withJSONObject: answer)) ?? Data(), false)
    }

    static func ntfyError(_ code: Int, _ http: Int, _ error: String) -> Data {
        Data(#"{"code":\#(code),"http":\#(http),"error":"\#(error)","link":"https://ntfy.sh/docs/publish/"}"#.utf8)
    }

    private func locked<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }
}
