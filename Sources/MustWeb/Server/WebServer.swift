import Foundation
import Hummingbird
import HummingbirdCore
import Logging
import MustCore
import ServiceLifecycle
import UnixSignals

/// The family's page as one Hummingbird application, built from what `mustc serve` has: the read-only store (the
/// page never writes through it), the config (`serve.*` and `family.*`), and the one time source. Hummingbird's
/// own examples build theirs in such a function, so that tests open the same application in-process
/// (`app.test(.router)`) with a test clock. `onListening` gets the URL once the socket is bound (port 0 resolved).
public func buildApplication(
    store: Store, config: Config, time: TimeSource, logger: Logger, limits: WebServer.Limits = WebServer.Limits(),
    onListening: @escaping @Sendable (String) -> Void = { _ in }
) throws -> some ApplicationProtocol {
    let router = try buildRouter(store: store, config: config, time: time, logger: logger)
    let listen = config.serve.listen
    let host = listen.host
    return Application(
        router: router,
        server: .http1(
            configuration: .init(
                // The channel's own limits: a request's head must come in time, and its headers stay small.
                additionalChannelHandlers: [HeaderDeadlineHandler(limit: limits.headerTime)],
                idleTimeout: .seconds(300),
                httpDecoderConfiguration: .init(
                    maxHeaderFieldSize: limits.maxHeaderBytes, maxHeaderListSize: limits.maxHeaderBytes,
                    maxHeaderFieldCount: 100))),
        configuration: .init(
            address: .hostname(host, port: listen.port), serverName: nil,
            availableConnectionsDelegate: MaximumAvailableConnections(limits.maxConnections, logger: logger)),
        onServerRunning: { channel in
            let port = channel.localAddress?.port ?? 0
            onListening("http://\(host.contains(":") ? "[\(host)]" : host):\(port)/")
        },
        logger: logger)
}

/// Every route and middleware of the page over `store`, with sign-in and the edit forms (`WebEdits`, which opens
/// its own writable store at the first write, or says why it cannot).
func buildRouter(store: Store, config: Config, time: TimeSource, logger: Logger) throws -> Router<PageContext> {
    let zone = config.serve.timeZone.flatMap(TimeZone.init(identifier:)) ?? .current
    var pages = Pages(reader: StoreReader(store: store), site: try Site(), zone: zone, clock: time)
    pages.family = config.family
    let edits = WebEdits(path: store.path, reader: store, config: config, logger: logger, time: time)
    // HEAD is answered as GET without the body (Hummingbird's own HEAD endpoints keep the GET's length).
    let router = Router(context: PageContext.self, options: .autoGenerateHeadEndpoints)
    let hosts = AllowedHosts(listen: config.serve.listen, extra: config.serve.hosts, time: time)
    try Routes.register(on: router, pages: pages, edits: edits, hosts: hosts)
    return router
}

/// How `mustc serve` runs the page.
public enum WebServer {
    /// Limits for slow or hostile clients; the defaults are what `mustc serve` uses.
    public struct Limits: Sendable {
        /// Open connections beyond this wait in the listen backlog until one closes.
        public var maxConnections = 1024
        /// A request's head must arrive within this long of the connection opening, or of the last response; its
        /// body within this long of its head.
        public var headerTime: Duration = .seconds(10)
        /// Request headers, all of them together; a request has no body the pages read.
        public var maxHeaderBytes = 16 * 1024

        public init() {}
    }

    /// Serves `app` until SIGINT or SIGTERM.
    public static func run(_ app: some ApplicationProtocol) async throws {
        try await app.runService(gracefulShutdownSignals: [UnixSignal.sigterm, UnixSignal.sigint])
    }
}

/// The page served until `stop()`, for `serve --fetch`, where mustc hears the signals itself (mustc's
/// Signals.swift, a thread of its own) so that one signal stops the fetch at once and the page with it. Nothing
/// here touches the signals' handlers.
public struct StoppableWebServer: Sendable {
    private let group: ServiceGroup

    public init(_ app: some ApplicationProtocol) {
        group = ServiceGroup(configuration: .init(services: [app], logger: app.logger))
    }

    /// Serves until `stop()`, then finishes the requests it has.
    public func run() async throws { try await group.run() }

    /// Stops accepting and lets `run()` return once the requests in hand are answered; callable from any thread,
    /// before `run()` too.
    public func stop() {
        Task { [group] in await group.triggerGracefulShutdown() }
    }
}
