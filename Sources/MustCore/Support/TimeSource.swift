import Clocks
import Foundation

/// The one source of time: the wall-clock date, a clock for sleeps, deadlines and elapsed time, and randomness.
/// Commands make `TimeSource.system` once and pass it into everything that reads time; tests pass
/// `TimeSource.test(...)` and turn its `TestClock` instead of sleeping. Nothing else in `MustCore` or `MustWeb`
/// calls `Date()`, `Task.sleep` or a clock's `now`.
public struct TimeSource: Sendable {
    /// A reading of `clock`, to measure from or set a deadline at.
    public typealias Instant = AnyClock<Duration>.Instant

    /// Today's date and time, for what is stored and shown.
    public let now: @Sendable () -> Date
    /// Sleeps, deadlines and elapsed time. Under test, a `TestClock` that `now` follows.
    public let clock: AnyClock<Duration>
    /// A number in 0..<1, for jitter.
    public let random: @Sendable () -> Double

    public init(
        now: @escaping @Sendable () -> Date, clock: AnyClock<Duration>, random: @escaping @Sendable () -> Double
    ) {
        (self.now, self.clock, self.random) = (now, clock, random)
    }

    /// Waits for `duration` on this source's clock; throws `CancellationError` when the task is cancelled.
    /// A wait of zero or less returns at once: a `TestClock` would otherwise hold it until the test advanced it.
    public func sleep(for duration: Duration) async throws {
        try Task.checkCancellation()
        guard duration > .zero else { return }
        try await clock.sleep(for: duration)
    }

    /// Waits for `seconds` on this source's clock.
    public func sleep(seconds: Double) async throws {
        try await sleep(for: .seconds(max(0, seconds)))
    }

    /// The clock's reading now, to measure elapsed time or set a deadline against.
    public var instant: Instant { clock.now }

    /// Seconds elapsed since `start` on this source's clock.
    public func seconds(since start: Instant) -> Double {
        start.duration(to: clock.now).seconds
    }

    /// Blocks the calling thread for `duration`, for a thread outside Swift concurrency (libcurl's loop thread)
    /// that has nothing to wait on but time. Always the system's time: no test clock can wake a blocked thread.
    public static func pauseThread(for duration: Duration) {
        Thread.sleep(forTimeInterval: max(duration.seconds, 0))
    }
}

extension TimeSource {
    /// The machine's clocks: the only place `MustCore` and `MustWeb` read the system's time.
    public static let system = TimeSource(
        now: { Date() }, clock: AnyClock(ContinuousClock()), random: { Double.random(in: 0..<1) })

    /// A source whose date starts at `start` and moves only when `clock` is advanced, so a test turns time
    /// instead of waiting for it. `random` defaults to the middle of its range, so jitter is repeatable.
    public static func test(
        start: Date, clock: TestClock<Duration>, random: @escaping @Sendable () -> Double = { 0.5 }
    ) -> TimeSource {
        let origin = clock.now
        return TimeSource(
            now: {
                start.addingTimeInterval(origin.duration(to: clock.now).seconds)
            },
            clock: AnyClock(clock), random: random)
    }
}
