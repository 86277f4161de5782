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
    private var server: LoopbackListener?
    /// The socket `reserve()` holds, until `start` listens on it.
    private var reserved: Int32?
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

    /// Listens on 127.0.0.1 (`requested` 0 picks a free port; the same one again brings a stopped server back, and
    /// the port `reserve()` gave brings the server up there).
    public func start(port requested: UInt16 = 0) throws {
        let held = locked { () -> Int32? in
            guard let reserved, requested != 0, requested == port else { return nil }
            self.reserved = nil
            return reserved
        }
        let started =
            try held.map { try LoopbackListener(bound: $0, backlog: 64) { [self] in serve($0) } }
            ?? LoopbackListener(port: requested, backlog: 64) { [self] in serve($0) }
        locked {
            server = started
            port = started.port
        }
    }

    /// A port for a server that is down until `start(port:)` with it: held bound but not listening, so connections
    /// to it are refused and no other socket takes it meanwhile. A stopped server's port can be taken, by another
    /// test's server or any connection's local end, in the seconds a test takes on a loaded machine (seen once:
    /// "Address already in use" when it came back).
    public func reserve() throws -> UInt16 {
        let fd = try LoopbackListener.bound(port: 0)
        return locked {
            if let reserved { close(reserved) }
            reserved = fd
            port = LoopbackListener.port(of: fd)
            return port
        }
    }

    /// Stops listening and cuts every connection, a hanging one too.
    public func stop() { locked { server }?.stop() }

    deinit {
        stop()
        if let reserved { close(reserved) }
    }

    private var isStopped: Bool { locked { server }?.isStopped ?? false }

    private func serve(_ connection: Int32) {
        var wire = HTTPWire(socket: connection)
        while let head = wire.readHead(), let body = wire.readBody(of: head) {
            let request = Request(method: head.method, path: head.target, headers: head.headers, body: body)
            let (status, headers, answer, hang) = respond(to: request)
            if hang {
                hold(connection)
                return
            }
            wire.write(
                status: status, headers: headers + [("Content-Type", "application/json")], body: answer,
                keepAlive: head.keepAlive)
            if !head.keepAlive { return }
        }
    }

    /// A hanging answer: nothing until the server stops or the client gives up and closes.
    private func hold(_ connection: Int32) {
        locked {
            hanging += 1
            peakHanging = max(peakHanging, hanging)
        }
        var byte: UInt8 = 0
        while !isStopped {
            let peeked = recv(connection, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT))
            if peeked == 0 || (peeked < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) { break }
            usleep(20_000)
        }
        locked { hanging -= 1 }
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
