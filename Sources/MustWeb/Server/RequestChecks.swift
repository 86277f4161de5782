import Clocks
import Foundation
import HTTPTypes
import Hummingbird
import MustCore
import Synchronization

/// Refuses, before any page is read, a request that does not name this server (421) or whose path holds a control
/// character (400).
///
/// The `Host` check stops DNS rebinding: a website the family visits can point its own name at this machine, and
/// the browser would then let that site's script read the lists; the browser still sends the site's name as `Host`.
struct RequestChecks<Context: RequestContext>: RouterMiddleware {
    let hosts: AllowedHosts

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        // A proxy's X-Forwarded-Host names what the browser asked for; it must be one of ours too.
        let forwarded = request.headers[.xForwardedHost].map { $0.split(separator: ",").map(String.init) } ?? []
        for value in [request.head.authority].compactMap({ $0 }) + forwarded {
            let value = value.trimmingCharacters(in: .whitespaces)
            guard hosts.allows(value) else { throw Self.misdirected(value) }
        }
        // `/members/Ben%00` would name Ben to SQLite, which stops at the NUL.
        let path = request.uri.path
        let decoded = path.removingPercentEncoding ?? path
        if (path + decoded).unicodeScalars.contains(where: Self.isControl) {
            throw PageError.badRequest("The address holds a control character; no page has one in its address.")
        }
        return try await next(request, context)
    }

    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    static func misdirected(_ host: String) -> PageError {
        let shown = String(host.unicodeScalars.filter { !isControl($0) }.prefix(100))
        return PageError(
            status: .misdirectedRequest, heading: "Not this server's name",
            message: "This server does not answer to the name \"\(shown)\". If that is how you reach it (a proxy's "
                + "name, a name in /etc/hosts), add the name to serve.hosts in mustc's config, for example "
                + "\"serve\": {\"hosts\": [\"movies.example.org\"]}, and restart mustc serve.")
    }
}

/// The names the page answers to: its listen address, localhost, 127.0.0.1 and [::1], this machine's names and
/// addresses, and `serve.hosts`. The machine's addresses are read again when an unknown name comes, so a new one
/// counts without a restart; at most once a minute, so unknown names cannot make every request read them. An
/// address once the machine's stays allowed until the server restarts.
final class AllowedHosts: Sendable {
    private let fixed: Set<String>
    private let machine: Mutex<(names: Set<String>, readAt: AnyClock<Duration>.Instant)>
    private let time: TimeSource

    init(listen: ListenAddress, extra: [String], time: TimeSource) {
        var fixed: Set<String> = ["localhost", "127.0.0.1", "::1"]
        if let host = HostName.normalized(listen.host) { fixed.insert(host) }
        fixed.formUnion(extra.compactMap(HostName.normalized))
        self.fixed = fixed
        self.time = time
        machine = Mutex((HostName.thisMachine(), time.instant))
    }

    func allows(_ value: String) -> Bool {
        guard let name = HostName.normalized(value) else { return false }
        if fixed.contains(name) || HostName.isLoopback(name) { return true }
        return machine.withLock { machine in
            if machine.names.contains(name) { return true }
            guard machine.readAt.duration(to: time.instant) > .seconds(60) else { return false }
            // Without DNS (the fully qualified name read at start stays): no request waits on a resolver.
            machine = (machine.names.union(HostName.thisMachine(resolving: false)), time.instant)
            return machine.names.contains(name)
        }
    }
}

/// The methods each known path answers, from the router's own list: a request for a known path with another
/// method is a 405 with `Allow`, not a 404. Filled once every route is registered.
final class KnownRoutes: Sendable {
    private let routes = Mutex<[(segments: [Substring], methods: Set<HTTPRequest.Method>)]>([])

    func record(_ list: [(path: String, method: HTTPRequest.Method)]) {
        var grouped: [String: Set<HTTPRequest.Method>] = [:]
        for route in list {
            grouped[route.path, default: []].insert(route.method)
            if route.method == .get { grouped[route.path, default: []].insert(.head) }
        }
        routes.withLock { routes in
            routes = grouped.map { (segments: $0.key.split(separator: "/"), methods: $0.value) }
        }
    }

    /// "GET, HEAD" for a known path, nil for an unknown one.
    func allowed(for path: String) -> String? {
        let segments = path.split(separator: "/")
        let methods = routes.withLock { routes in
            routes.filter { route in
                route.segments.count == segments.count
                    && zip(route.segments, segments).allSatisfy { $0.contains("{") || $0.contains("*") || $0 == $1 }
            }.reduce(into: Set<HTTPRequest.Method>()) { $0.formUnion($1.methods) }
        }
        guard !methods.isEmpty else { return nil }
        return methods.map(\.rawValue).sorted().joined(separator: ", ")
    }
}
