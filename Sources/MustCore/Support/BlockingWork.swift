import Foundation

/// The one way mustc runs blocking work (SQLite, files, bcrypt) from async code: on a Dispatch thread, so a busy
/// database or a slow disk waits there, never on one of Swift's few cooperative threads nor on the page's event loop.
public enum BlockingWork {
    public static func run<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: work()) }
        }
    }

    /// `run` for work that may fail; the error is rethrown to the caller as it was thrown.
    public static func runThrowing<T: Sendable, E: Error>(
        _ work: @escaping @Sendable () throws(E) -> T
    ) async throws(E) -> T {
        try await run { Result(catching: work) }.get()
    }
}
