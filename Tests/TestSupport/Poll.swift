import Foundation

/// Waiting on something outside the test's control (a process, a server, a file, another thread) by looking at it
/// until it holds or a deadline of real time passes. The tests' one place that sleeps between looks, so every such
/// wait has a deadline and nothing else in the tests sleeps on the machine's clock for it.
public enum Poll {
    /// Checks `condition` every `interval` until it holds or `limit` has passed; whether it held. A cancelled task
    /// stops waiting (and gets false unless the condition holds on its last look).
    @discardableResult
    public static func until(
        within limit: Duration, every interval: Duration = .milliseconds(10),
        _ condition: () async throws -> Bool
    ) async rethrows -> Bool {
        let deadline = ContinuousClock.now + limit
        while true {
            if try await condition() { return true }
            if ContinuousClock.now >= deadline || Task.isCancelled { return false }
            try? await Task.sleep(for: interval)
        }
    }

    /// The same for a thread outside Swift concurrency (a plain `Thread`, or code that may not suspend): it blocks
    /// the calling thread between looks.
    @discardableResult
    public static func blockingUntil(
        within limit: Duration, every interval: Duration = .milliseconds(1), _ condition: () throws -> Bool
    ) rethrows -> Bool {
        let deadline = ContinuousClock.now + limit
        while true {
            if try condition() { return true }
            if ContinuousClock.now >= deadline { return false }
            Thread.sleep(forTimeInterval: interval / .seconds(1))
        }
    }

    /// Seconds as a `Duration`, for the callers that count their deadlines in seconds.
    public static func seconds(_ value: Double) -> Duration { .milliseconds(Int64((value * 1000).rounded())) }
}
