import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The listening half the test servers share (the TMDB stub and the notification stub): a TCP socket on
/// 127.0.0.1, one thread per accepted connection, and a stop that cuts every open connection.
final class LoopbackListener: @unchecked Sendable {
    let port: UInt16

    private let lock = NSLock()
    // Guarded by `lock`.
    private var listener: Int32
    private var connections: Set<Int32> = []
    private var stopped = false
    private var acceptedCount = 0

    /// Listens on 127.0.0.1 (`requested` 0 picks a free port) and hands each connection to `serve` on its own
    /// thread; the connection is closed when `serve` returns.
    convenience init(port requested: UInt16, backlog: Int32, serve: @escaping @Sendable (Int32) -> Void) throws {
        try self.init(bound: Self.bound(port: requested), backlog: backlog, serve: serve)
    }

    /// Listens on `fd`, a socket from `bound(port:)`, which it now owns.
    init(bound fd: Int32, backlog: Int32, serve: @escaping @Sendable (Int32) -> Void) throws {
        guard listen(fd, backlog) == 0 else {
            let error = errno
            close(fd)
            throw StubError.socket("listen", error)
        }
        port = Self.port(of: fd)
        listener = fd
        Thread { [self] in acceptLoop(fd, serve) }.start()
    }

    /// A TCP socket bound to 127.0.0.1 and not yet listening: a connection to its port is refused, as to a server
    /// that is down, and no other socket can take the port while it is held.
    static func bound(port requested: UInt16) throws -> Int32 {
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
        guard bound == 0 else {
            let error = errno
            close(fd)
            throw StubError.socket("bind", error)
        }
        return fd
    }

    static func port(of fd: Int32) -> UInt16 {
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return UInt16(bigEndian: address.sin_port)
    }

    var isStopped: Bool { locked { stopped } }

    /// TCP connections accepted since the start or the last reset: tells whether clients reuse connections.
    var accepted: Int { locked { acceptedCount } }
    func resetAccepted() { locked { acceptedCount = 0 } }

    /// Stops listening and cuts every open connection. The shutdowns happen under the lock, and a connection's
    /// descriptor is closed under it too, so a descriptor number the kernel has already handed to another socket
    /// in this process (a client's, in a test) is never shut down by mistake: seen as curl's "Failed sending data
    /// to the peer" once suites began stopping their stubs in parallel.
    func stop() {
        locked {
            stopped = true
            // Shut down, not closed: the accept thread closes it on its way out, so its number cannot be handed
            // to another server's socket while that thread may still call accept on it.
            if listener >= 0 { shutdown(listener, Int32(SHUT_RDWR)) }
            // Once only: a second stop() (an explicit one, then deinit) must not shut down the number again
            // after the accept thread closed it.
            listener = -1
            for connection in connections { shutdown(connection, Int32(SHUT_RDWR)) }
        }
    }

    deinit { stop() }

    private func acceptLoop(_ fd: Int32, _ serve: @escaping @Sendable (Int32) -> Void) {
        defer { close(fd) }
        while true {
            let connection = accept(fd, nil, nil)
            guard connection >= 0 else {
                // Only a shut-down listener ends the loop: a signal, a client that gave up before accept
                // (ECONNABORTED) or a moment without descriptors must not leave the server deaf for the rest of
                // a test.
                let error = errno
                if isStopped || error == EBADF || error == EINVAL { return }
                if error != EINTR && error != ECONNABORTED { usleep(10_000) }
                continue
            }
            var yes: Int32 = 1
            setsockopt(connection, Int32(IPPROTO_TCP), TCP_NODELAY, &yes, socklen_t(MemoryLayout<Int32>.size))
            let admitted = locked { () -> Bool in
                if stopped { return false }
                connections.insert(connection)
                acceptedCount += 1
                return true
            }
            guard admitted else { close(connection); return }
            let thread = Thread { [self] in
                serve(connection)
                locked {
                    _ = connections.remove(connection)
                    close(connection)
                }
            }
            thread.stackSize = 256 * 1024
            thread.start()
        }
    }

    private func locked<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }
}
