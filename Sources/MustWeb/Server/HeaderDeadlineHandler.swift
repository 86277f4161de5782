import HTTPTypes
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import NIOHTTPTypesHTTP1

/// Closes a connection whose request does not arrive in time: a client that opens a connection and sends nothing,
/// or dribbles its headers or its body a byte at a time, holds it for at most `limit` for the head and `limit` again
/// for the body. The head's clock starts when the connection opens and again after each response, so an idle
/// keep-alive connection is closed the same way; the body's starts when the head is in. A body not in by then gets
/// 408 before the connection closes (unless an answer has already begun).
final class HeaderDeadlineHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private enum Waiting { case head, body, nothing }

    private let limit: TimeAmount
    private var deadline: Scheduled<Void>?
    private var waiting = Waiting.head
    /// An answer to the current request has begun, or ended.
    private var answering = false
    private var answered = false

    init(limit: Duration) {
        let (seconds, attoseconds) = limit.components
        self.limit = .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }

    func handlerAdded(context: ChannelHandlerContext) {
        CloseUnlessKeptAlive.install(before: context)
        if context.channel.isActive { arm(context, for: .head) }
    }

    func channelActive(context: ChannelHandlerContext) {
        arm(context, for: .head)
        context.fireChannelActive()
    }

    func handlerRemoved(context: ChannelHandlerContext) { disarm() }

    func channelInactive(context: ChannelHandlerContext) {
        disarm()
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head:
            (answering, answered) = (false, false)
            arm(context, for: .body)
        case .end where waiting == .body:
            if answered {
                arm(context, for: .head)
            } else {
                disarm()
                waiting = .nothing
            }
        default:
            break
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head:
            answering = true
        case .end:
            answered = true
            // The next request's head; while this request's body is still due (an early answer), its clock runs on.
            if waiting != .body { arm(context, for: .head) }
        default:
            break
        }
        context.write(data, promise: promise)
    }

    private func arm(_ context: ChannelHandlerContext, for part: Waiting) {
        disarm()
        waiting = part
        deadline = context.eventLoop.assumeIsolated().scheduleTask(in: limit) { [self] in
            if waiting == .body, !answering { requestTimeout(context) }
            context.close(promise: nil)
        }
    }

    /// 408 with a short text, then the connection closes: the body did not come in time.
    private func requestTimeout(_ context: ChannelHandlerContext) {
        let text = "The request's body did not arrive within \(limit.nanoseconds / 1_000_000_000) seconds.\n"
        var head = HTTPResponse(status: .requestTimeout)
        head.headerFields[.contentType] = "text/plain; charset=utf-8"
        head.headerFields[.contentLength] = String(text.utf8.count)
        head.headerFields[.connection] = "close"
        answering = true
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.write(wrapOutboundOut(.body(context.channel.allocator.buffer(string: text))), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
    }

    private func disarm() {
        deadline?.cancel()
        deadline = nil
    }
}

/// Marks an HTTP/1.0 request without `Connection: keep-alive` (or any request with `Connection: close`, in any
/// case) with the exact `Connection: close` Hummingbird looks for, so the connection closes after the answer. It
/// must sit before the codec that turns HTTP/1 into HTTPTypes, which drops the version.
final class CloseUnlessKeptAlive: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart

    /// Hummingbird adds extra handlers after its codec; this one is put in front of it.
    static func install(before context: ChannelHandlerContext) {
        let pipeline = context.pipeline.syncOperations
        guard let codec = try? pipeline.handler(type: HTTP1ToHTTPServerCodec.self),
            (try? pipeline.handler(type: CloseUnlessKeptAlive.self)) == nil
        else { return }
        try? pipeline.addHandler(CloseUnlessKeptAlive(), position: .before(codec))
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .head(var head) = unwrapInboundIn(data), !head.isKeepAlive {
            head.headers.replaceOrAdd(name: "Connection", value: "close")
            context.fireChannelRead(wrapInboundOut(.head(head)))
            return
        }
        context.fireChannelRead(data)
    }
}
