import Foundation
import Testing

@testable import MustCore

/// Timeouts and cancellation return even when the work underneath ignores cancellation.
@Suite struct DeadlineTests {
    /// Work that never finishes and ignores cancellation, like a stuck transfer.
    static let stuck: @Sendable () async throws -> Int = {
        await withCheckedContinuation { (_: CheckedContinuation<Void, Never>) in }
        return 0
    }

    @Test func aStuckRequestTimesOut() async throws {
        let deadlines = RequestDeadlines(tick: .milliseconds(10), time: .system)
        await #expect(throws: TransportError.timedOut) { try await deadlines.run(0.05, Self.stuck) }
    }

    @Test func cancellingTheCallerReturnsAtOnce() async throws {
        let deadlines = RequestDeadlines(time: .system)
        let call = Task { try await deadlines.run(3600, Self.stuck) }
        try await Task.sleep(for: .milliseconds(20))
        call.cancel()
        await #expect(throws: CancellationError.self) { try await call.value }
    }

    @Test func aQuickResultWins() async throws {
        let deadlines = RequestDeadlines(time: .system)
        #expect(try await deadlines.run(10) { 42 } == 42)
        await #expect(throws: TransportError.unreachable("x")) {
            try await deadlines.run(10) { () async throws -> Int in throw TransportError.unreachable("x") }
        }
    }
}
