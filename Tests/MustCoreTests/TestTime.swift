import Clocks
import Foundation
import MustCore
import TestSupport

/// Where a test's time source starts: 2027-01-15 08:00 UTC, a date no test can confuse with today.
let testStart = Date(timeIntervalSince1970: 1_800_000_000)

extension TimeSource {
    /// A time source on `clock` starting at `testStart`, with jitter at the middle of its range.
    static func test(_ clock: TestClock<Duration>) -> TimeSource { .test(start: testStart, clock: clock) }
}

extension TestClock<Duration> {
    /// Waits, at most `limit` of real time, until something sleeps on this clock: the signal that the code under
    /// test reached its wait, so that advancing the clock now moves it on. False when nothing did in time.
    func waitForSleeper(within limit: Duration = .seconds(60)) async -> Bool {
        // `checkSuspension` throws when something is sleeping on the clock.
        await Poll.until(within: limit, every: .milliseconds(5)) {
            do { try await checkSuspension() } catch { return true }
            return false
        }
    }
}
