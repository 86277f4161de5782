import Foundation

/// Runs `work` but gives up after `seconds`, cancelling it.
///
/// URLSession on Linux does not reliably honour `timeoutInterval` for a server that accepts and then
/// stays silent, so the timeout is enforced here as well.
func withDeadline<T: Sendable>(
    _ seconds: TimeInterval, _ work: @escaping @Sendable () async throws -> T
) async throws -> T {
    try await withThrowingTaskGroup(of: T.self) { group in
        group.addTask { try await work() }
        group.addTask {
            try await Task.sleep(for: .seconds(seconds))
            throw TransportError.timedOut
        }
        defer { group.cancelAll() }
        guard let first = try await group.next() else { throw TransportError.timedOut }
        return first
    }
}
