import Foundation
import Hummingbird
import HummingbirdCore
import Logging
import MustCore
import UnixSignals

/// The family's page: an HTTP server over one read-only `Store`. It never writes to the database.
public struct WebServer: Sendable {
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

    let pages: Pages
    let listen: ListenAddress
    let limits: Limits
    let logger: Logger
    /// Sign-in and the edit forms; nil keeps the page read-only.
    let edits: WebEdits?
    /// `serve.hosts`: names the page answers to besides its own (see `AllowedHosts`).
    let hosts: [String]

    /// `timeZone` is the zone the pages write times in (`serve.timeZone`); the API keeps UTC.
    public init(
        store: Store, listen: ListenAddress, hosts: [String] = [], limits: Limits = Limits(), edits: WebEdits? = nil,
        timeZone: TimeZone = .current, family: Config.Family = Config.Family(), logger: Logger
    ) throws {
        self.edits = edits
        self.hosts = hosts
        var pages = Pages(reader: StoreReader(store: store), site: try Site(), zone: timeZone)
        pages.family = family
        self.pages = pages
        self.listen = listen
        self.limits = limits
        self.logger = logger
    }

    /// Serves until SIGINT or SIGTERM; `onListening` gets the URL once the socket is bound (port 0 resolved).
    public func run(onListening: @escaping @Sendable (String) -> Void) async throws {
        // HEAD is answered as GET without the body (Hummingbird's own HEAD endpoints keep the GET's length).
        let router = Router(context: PageContext.self, options: .autoGenerateHeadEndpoints)
        try Routes.register(on: router, pages: pages, edits: edits, hosts: AllowedHosts(listen: listen, extra: hosts))
        let limits = limits
        let host = listen.host
        let app = Application(
            router: router,
            server: .http1(
                configuration: .init(
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
        try await app.runService(gracefulShutdownSignals: [UnixSignal.sigterm, UnixSignal.sigint])
    }
}
