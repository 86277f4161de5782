import Foundation
import MustCore
import Testing

/// The run-level scheduler: when to wake for the due movies, and the failure backoff, with a fixed clock and jitter.
@Suite struct BackoffPolicyTests {
    let policy = BackoffPolicy(minimumInterval: 900, maximumInterval: 14_400, failureRetryInterval: 600, jitter: 0.1)
    let start = Date(timeIntervalSince1970: 1_800_000_000)

    /// Runs `results` one after another, each ending when the last said the next fetch is due; after each, the
    /// earliest movie is due `earliestIn` seconds later (nil: an empty library). Returns every state.
    func play(
        _ results: [FetchResult], earliestIn: TimeInterval? = 3000, from initial: ScheduleState? = nil,
        random: Double = 0.5, retryAfter: TimeInterval? = nil
    ) -> [ScheduleState] {
        var clock = start
        var state = initial
        return results.map { result in
            let next = policy.next(
                after: result, from: state, at: clock, earliestCheck: earliestIn.map(clock.addingTimeInterval),
                retryAfter: retryAfter, random: random)
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

    @Test func aSuccessfulRunWakesWhenTheEarliestMovieIsDue() {
        #expect(delays(play([.noData, .newData, .noData], earliestIn: 3000)) == [3000, 3000, 3000])
        #expect(play([.newData], earliestIn: 3000)[0].interval == 3000)
    }

    @Test func neverSoonerThanTheMinimumNorLaterThanTheMaximum() {
        #expect(delays(play([.newData], earliestIn: 10)) == [900])
        #expect(delays(play([.noData], earliestIn: -500)) == [900])
        #expect(delays(play([.noData], earliestIn: 1_000_000)) == [14_400])
        #expect(delays(play([.noData], earliestIn: nil)) == [14_400])
    }

    @Test func resultsAreCountedInARow() {
        let states = play([.noData, .noData, .newData, .noData, .failed, .noData])
        #expect(states.map(\.consecutiveNoData) == [1, 2, 0, 1, 1, 2])
        #expect(states.map(\.consecutiveFailures) == [0, 0, 0, 0, 1, 0])
        #expect(states[2].lastResult == .newData)
    }

    @Test func failuresDoubleFromTheRetryIntervalAndNeverGiveUp() {
        let states = play(Array(repeating: .failed, count: 40), earliestIn: 0)
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
        let states = play([.noData, .failed, .noData], earliestIn: 3000)
        #expect(delays(states) == [3000, 600, 3000])
        #expect(states[1].interval == 3000)
    }

    @Test func retryAfterPushesTheNextFetchLaterUpToTheMaximum() {
        #expect(delays(play([.failed], retryAfter: 3600)) == [3600])
        #expect(delays(play([.failed], retryAfter: 60)) == [600])
        #expect(delays(play([.noData], earliestIn: 900, retryAfter: 7200)) == [7200])
        // `Retry-After: Wed, 21 Oct 2099 07:28:00 GMT` must not switch fetching off for decades.
        let decades = Date(timeIntervalSince1970: 4_096_250_880).timeIntervalSince(start)
        #expect(delays(play([.failed], retryAfter: decades)) == [14_400])
        #expect(delays(play([.noData], retryAfter: decades)) == [14_400])
    }

    @Test func dueOnlyOnceTheNextFetchTimeHasCome() {
        let state = play([.newData], earliestIn: 900)[0]
        #expect(!state.isDue(at: start.addingTimeInterval(899)))
        #expect(state.isDue(at: start.addingTimeInterval(900)))
    }

    @Test func aMovieDueSoonerBringsTheFetchForwardButNotBeforeTheMinimum() {
        let state = play([.noData], earliestIn: 5000)[0]
        let due = { (offset: TimeInterval?) in
            policy.dueDate(state: state, earliestCheck: offset.map(start.addingTimeInterval))?.timeIntervalSince(start)
        }
        #expect(due(100) == 900)
        #expect(due(2000) == 2000)
        #expect(due(9000) == 5000)
        #expect(due(nil) == 5000)
        #expect(policy.dueDate(state: nil, earliestCheck: start) == nil)
    }

    @Test func aFailureBackoffIsNotShortenedByDueMovies() {
        let failed = play([.failed], earliestIn: 0)[0]
        #expect(policy.dueDate(state: failed, earliestCheck: start) == failed.nextFetchAt)
    }

    @Test func aMaximumBelowTheMinimumIsRaisedToIt() {
        let odd = BackoffPolicy(minimumInterval: 600, maximumInterval: 60, failureRetryInterval: 600)
        let next = odd.next(after: .noData, from: nil, at: start, earliestCheck: start, random: 0.5)
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
