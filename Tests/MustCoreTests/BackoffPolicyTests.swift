import Foundation
import MustCore
import Testing

/// The scheduler's intervals for sequences of results, with a fixed clock and fixed jitter.
@Suite struct BackoffPolicyTests {
    let policy = BackoffPolicy(
        minimumInterval: 900, maximumInterval: 14_400, factor: 2, failureRetryInterval: 600, jitter: 0.1)
    let start = Date(timeIntervalSince1970: 1_800_000_000)

    /// Runs `results` one after another, each ending `step` seconds after the last, and returns every state.
    func play(
        _ results: [FetchResult], from initial: ScheduleState? = nil, random: Double = 0.5,
        retryAfter: TimeInterval? = nil
    ) -> [ScheduleState] {
        var clock = start
        var state = initial
        return results.map { result in
            let next = policy.next(after: result, from: state, at: clock, retryAfter: retryAfter, random: random)
            clock = next.nextFetchAt
            state = next
            return next
        }
    }

    func delays(_ states: [ScheduleState]) -> [TimeInterval] {
        var previousEnd = start
        return states.map { state in
            defer { previousEnd = state.nextFetchAt }
            return state.nextFetchAt.timeIntervalSince(previousEnd)
        }
    }

    @Test func noDataDoublesUpToTheMaximumAndStaysThere() {
        let states = play(Array(repeating: .noData, count: 7))
        #expect(delays(states) == [1800, 3600, 7200, 14_400, 14_400, 14_400, 14_400])
        #expect(states.map(\.consecutiveNoData) == [1, 2, 3, 4, 5, 6, 7])
    }

    @Test func newDataGoesBackToTheMinimum() {
        let states = play([.noData, .noData, .noData, .newData, .noData])
        #expect(delays(states) == [1800, 3600, 7200, 900, 1800])
        #expect(states[3].consecutiveNoData == 0)
        #expect(states[3].lastResult == .newData)
    }

    @Test func failuresDoubleFromTheRetryIntervalAndNeverGiveUp() {
        let states = play(Array(repeating: .failed, count: 40))
        #expect(Array(delays(states).prefix(6)) == [600, 1200, 2400, 4800, 9600, 14_400])
        #expect(delays(states).allSatisfy { $0 > 0 && $0 <= 14_400 })
        #expect(states.last?.consecutiveFailures == 40)
    }

    @Test func jitterStaysWithinTenPercentAndUnderTheMaximum() {
        #expect(delays(play([.failed], random: 0)) == [540])
        #expect(delays(play([.failed], random: 0.999_999)).first.map { abs($0 - 660) < 0.01 } == true)
        let capped = play(Array(repeating: .failed, count: 8), random: 0.999_999)
        #expect(delays(capped).allSatisfy { $0 <= 14_400 })
    }

    @Test func aFailureKeepsTheSuccessCadenceForAfterwards() {
        let states = play([.noData, .noData, .failed, .noData])
        #expect(delays(states) == [1800, 3600, 600, 7200])
        #expect(states[3].consecutiveFailures == 0)
    }

    @Test func retryAfterPushesTheNextFetchLater() {
        #expect(delays(play([.failed], retryAfter: 3600)) == [3600])
        #expect(delays(play([.failed], retryAfter: 60)) == [600])
        #expect(delays(play([.noData], retryAfter: 7200)) == [7200])
    }

    @Test func dueOnlyOnceTheNextFetchTimeHasCome() {
        let state = play([.newData])[0]
        #expect(!state.isDue(at: start.addingTimeInterval(899)))
        #expect(state.isDue(at: start.addingTimeInterval(900)))
    }

    @Test func aMaximumBelowTheMinimumIsRaisedToIt() {
        let odd = BackoffPolicy(minimumInterval: 600, maximumInterval: 60, factor: 2, failureRetryInterval: 600)
        let next = odd.next(after: .noData, from: nil, at: start, random: 0.5)
        #expect(next.nextFetchAt.timeIntervalSince(start) == 600)
    }
}

/// The completion operation's table: outcomes in, newData / noData / failed out.
@Suite struct FetchResultTests {
    static let down = FetchOutcome.failed(FetchFailure(kind: .unavailable, message: "cannot reach TMDB"))
    static let missing = FetchOutcome.failed(FetchFailure(kind: .notFound, message: "404"))
    static let rejected = FetchOutcome.failed(FetchFailure(kind: .unauthorized, message: "401"))
    static let budget = FetchOutcome.skipped(.budgetExhausted)

    @Test(
        arguments: [
            ([], FetchResult.noData),
            ([.unchanged, .unchanged], .noData),
            ([.changed], .newData),
            ([.changed, .unchanged, down], .newData),
            ([.unchanged, down], .noData),
            ([down, down], .failed),
            ([down, missing], .failed),
            ([missing, missing], .noData),
            ([.changed, rejected], .failed),
            ([rejected], .failed),
            ([.skipped(.recentlyNotFound)], .noData),
            ([.unchanged, budget], .noData),
            ([down, budget], .failed),
            ([.changed, budget], .newData),
        ] as [([FetchOutcome], FetchResult)])
    func resultFollowsTheTable(_ outcomes: [FetchOutcome], _ expected: FetchResult) {
        #expect(FetchSummary(outcomes).result == expected)
    }

    @Test func countsAndRetryAfterAreKept() {
        let limited = FetchOutcome.failed(FetchFailure(kind: .unavailable, message: "429", retryAfter: 30))
        let summary = FetchSummary([.changed, .unchanged, limited, Self.down, Self.budget])
        let counts: [Int] = [summary.movies, summary.changed, summary.unchanged, summary.failed, summary.skipped]
        #expect(counts == [5, 1, 1, 2, 1])
        #expect(summary.retryAfter == 30)
        #expect(summary.firstFailure == "429")
    }

    @Test func aStoreFailureFailsTheRun() {
        var summary = FetchSummary([.changed])
        summary.storeFailure = "disk I/O error"
        #expect(summary.result == .failed)
    }
}
