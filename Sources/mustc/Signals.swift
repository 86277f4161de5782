import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Turns SIGINT and SIGTERM into cancellation of the work task, so a fetch stops cleanly: in-flight writes finish or
/// roll back, and the process exits normally. The handlers are in place when `init` returns, and a signal that
/// arrives before the task exists cancels it as soon as it does.
///
/// Why not a DispatchSource: with the signals ignored first, as a signal source needs, a SIGTERM sent the moment an
/// import opened its zip was lost or came too late in 8 of 20 runs on a loaded 2-core machine (load average 15): the
/// import read its whole 200 MB line and exited 0 about 50 s later (CI stop 41 failed so). The source's registration
/// and its handler both wait for libdispatch's threads. Here a sigaction(2) handler, installed at once, writes the
/// signal's number to a pipe (write(2) is async-signal-safe) and a thread of our own, blocked in read(2), cancels
/// the task: 0 of 20 runs lost it under the same load.
final class Signals {
    private let target = Target()
    /// Nil for a command a test runs inside its own process: the test process keeps its own signal handling.
    private let relay: SignalRelay? = Console.captured == nil ? SignalRelay.shared : nil

    private final class Target: Sendable {
        let state = Mutex<(task: Task<Bool, any Error>?, signalled: Bool)>((nil, false))

        func fire() {
            let task = state.withLock { state in
                state.signalled = true
                return state.task
            }
            task?.cancel()
        }
    }

    init() {
        relay?.listen(target.fire)
    }

    /// Calls `fire` on the relay's thread at each SIGINT or SIGTERM instead, for work that is more than one task
    /// (`serve --fetch`: the fetch's task is cancelled there and then, and the page told to stop).
    init(calling fire: @escaping @Sendable () -> Void) {
        relay?.listen(fire)
    }

    /// Starts `work` as the task a signal cancels.
    func run(_ work: @escaping @Sendable () async throws -> Bool) async throws -> Bool {
        let task = Task { try await work() }
        let signalled = target.state.withLock { state in
            state.task = task
            return state.signalled
        }
        if signalled { task.cancel() }
        return try await task.value
    }

    deinit { relay?.listen(nil) }
}

/// The write end of the relay's pipe, set once before the handlers go in and only read by them. A signal handler
/// cannot capture context, hence a global.
nonisolated(unsafe) private var relayWriteEnd: Int32 = -1

private func relaySignal(_ number: Int32) {
    let saved = errno
    var byte = UInt8(truncatingIfNeeded: number)
    _ = write(relayWriteEnd, &byte, 1)
    errno = saved
}

/// The process's one SIGINT and SIGTERM handler and the thread that hears it.
private final class SignalRelay: Sendable {
    static let shared = SignalRelay()

    private let listener = Mutex<(@Sendable () -> Void)?>(nil)

    private init() {
        var ends: [Int32] = [-1, -1]
        // Without a pipe (no descriptor left) the signals keep their default action: they end the process.
        guard pipe(&ends) == 0 else { return }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        // A non-blocking write end: a handler never waits, and a full pipe already holds a signal to act on.
        _ = fcntl(ends[1], F_SETFL, fcntl(ends[1], F_GETFL) | O_NONBLOCK)
        relayWriteEnd = ends[1]
        let reading = ends[0]
        Thread { [self] in
            var byte: UInt8 = 0
            while true {
                let count = read(reading, &byte, 1)
                if count < 0, errno == EINTR { continue }
                guard count == 1 else { return }
                listener.withLock { $0 }?()
            }
        }.start()
        var action = sigaction()
        action.__sigaction_handler.sa_handler = relaySignal
        action.sa_flags = SA_RESTART
        sigemptyset(&action.sa_mask)
        for number in [SIGINT, SIGTERM] { sigaction(number, &action, nil) }
    }

    /// What a signal calls from now on; nil: a signal is heard and does nothing (the work is over).
    func listen(_ fire: (@Sendable () -> Void)?) {
        listener.withLock { $0 = fire }
    }
}
