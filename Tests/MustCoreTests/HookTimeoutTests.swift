import Clocks
import Foundation
import MustCore
import Testing

/// The newData hook's timeout on a test clock: the hook is stopped when the clock passes its timeout, not after a
/// real wait. (NewDataHookTests drives a 1 s timeout through the binary, end to end.)
@Suite struct HookTimeoutTests {
    func hook(_ script: String, timeout: TimeInterval) throws -> NewDataHook {
        try NewDataHook(
            arguments: ["/bin/sh", "-c", script], timeout: timeout, environment: ["PATH": "/usr/bin:/bin"],
            secrets: [])
    }

    @Test func aHangingHookIsStoppedWhenItsTimeoutHasPassedOnTheClock() async throws {
        let clock = TestClock<Duration>()
        let time = TimeSource.test(clock)
        let hook = try hook("sleep 600", timeout: 30)
        let run = Task { await hook.run(input: Array("{}\n".utf8), changes: 1, runId: 7, time: time) }
        #expect(await clock.waitForSleeper(), "the hook's timeout never started")
        // 29 s on: the hook still runs, its timeout still ahead.
        await clock.advance(by: .seconds(29))
        #expect(await clock.waitForSleeper(within: .zero))
        await clock.advance(by: .seconds(1))
        let record = await run.value
        #expect(record.outcome == .timedOut)
        #expect(record.elapsed == 30)
        #expect(record.startedAt == testStart)
        #expect(record.runId == 7)
    }

    @Test func aHookThatEndsInTimeIsNotStoppedAndTakesNoClockTime() async throws {
        let clock = TestClock<Duration>()
        let record = try await hook("cat > /dev/null; exit 3", timeout: 30)
            .run(input: Array("{}\n".utf8), changes: 1, runId: nil, time: .test(clock))
        #expect(record.outcome == .failed)
        #expect(record.exitStatus == 3)
        #expect(record.elapsed == 0)
    }
}
