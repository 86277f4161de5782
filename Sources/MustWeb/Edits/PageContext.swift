import Hummingbird
import NIOCore

/// The request context of every route: Hummingbird's basic one plus the client's address, which the sign-in
/// attempt limiter counts by.
public struct PageContext: RequestContext, RemoteAddressRequestContext {
    public var coreContext: CoreRequestContextStorage
    public let remoteAddress: SocketAddress?

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
    }
}
