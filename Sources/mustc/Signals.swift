import Dispatch
import Foundation
import Synchronization

/// Turns SIGINT and SIGTERM into cancellation of the work task, so a fetch stops cleanly: in-flight writes finish or
/// roll back, and the process exits normally. The handlers go in before the work starts, and a signal that
/// arrives before the task exists cancels it as soon as it does.
final class Signals {
    private let sources: [any DispatchSourceSignal]
    private let target = Target()

    private final class Target: Sendable {
        let state = Mutex<(task: Task<Bool, any Error>?, signalled: Bool)>((nil, false))
    }

    init() {
        let target = target
        sources = [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                let task = target.state.withLock { state in
                    state.signalled = true
                    return state.task
                }
                task?.cancel()
            }
            source.resume()
            return source
        }
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

    deinit { sources.forEach { $0.cancel() } }
}
