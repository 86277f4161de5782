import Foundation
import MustCore
import Testing

/// Each movie's own schedule: sequences of checks with an injected clock and jitter.
@Suite struct MovieSchedulePolicyTests {
    let policy = MovieSchedulePolicy(
        minimumInterval: 900, maximumInterval: 14_400, factor: 2, failureRetryInterval: 600,
        notFoundRetryInterval: 604_800, jitter: 0.1)
    let start = Date(timeIntervalSince1970: 1_800_000_000)

    /// Plays `results` one after another, each check happening when the previous one said the movie is due.
    func play(_ results: [CheckResult], from initial: MovieCheck? = nil, random: Double = 0.5) -> [MovieCheck] {
        var clock = start
        var check = initial
        return results.map { result in
            let next = policy.next(after: result, from: check, at: clock, random: random)
            clock = next.nextCheckAt
            check = next
            return next
        }
    }

    func delays(_ checks: [MovieCheck]) -> [TimeInterval] {
        var previous = start
        return checks.map { check in
            defer { previous = check.nextCheckAt }
            return check.nextCheckAt.timeIntervalSince(previous)
        }
    }

    @Test func unchangedChecksDoubleTheIntervalUpToTheCap() {
        let checks = play(Array(repeating: .unchanged, count: 7))
        #expect(delays(checks) == [1800, 3600, 7200, 14_400, 14_400, 14_400, 14_400])
        #expect(checks.map(\.interval) == [1800, 3600, 7200, 14_400, 14_400, 14_400, 14_400])
    }

    @Test func aChangeGoesBackToTheMinimum() {
        let checks = play([.unchanged, .unchanged, .unchanged, .changed, .unchanged])
        #expect(delays(checks) == [1800, 3600, 7200, 900, 1800])
    }

    @Test func aNeverCheckedMovieThatChangedWaitsTheMinimum() {
        let first = policy.next(after: .changed, from: nil, at: start, random: 0.5)
        #expect(first == MovieCheck(checkedAt: start, interval: 900, nextCheckAt: start + 900))
    }

    @Test func notFoundWaitsItsOwnRetryIntervalAndKeepsTheInterval() {
        let checks = play([.unchanged, .notFound])
        #expect(delays(checks) == [1800, 604_800])
        #expect(checks[1].interval == 1800)
    }

    @Test func aFailureRetriesSoonAndKeepsWhatTheMovieEarned() {
        let checks = play([.unchanged, .unchanged, .failed, .unchanged])
        #expect(delays(checks) == [1800, 3600, 600, 7200])
        // No answer is not a check: the last answer's time stays.
        #expect(checks[2].checkedAt == checks[1].checkedAt)
        #expect(checks[2].interval == 3600)
    }

    @Test func aRetryIntervalAboveTheCapIsCapped() {
        let slow = MovieSchedulePolicy(minimumInterval: 60, maximumInterval: 120, failureRetryInterval: 3600)
        let check = slow.next(after: .failed, from: nil, at: start, random: 0.5)
        #expect(check.nextCheckAt == start + 120)
    }

    @Test(arguments: [0.0, 0.25, 0.5, 0.75, 0.999_999])
    func jitterStaysInItsBandAndNeverPassesTheCap(random: Double) {
        for (result, expected) in [(CheckResult.changed, 900.0), (.failed, 600)] {
            let delay = policy.next(after: result, from: nil, at: start, random: random).nextCheckAt
                .timeIntervalSince(start)
            #expect(delay >= expected * 0.9 && delay <= expected * 1.1)
        }
        for check in play(Array(repeating: .unchanged, count: 8), random: random) {
            let interval = check.interval ?? 0
            let delay = check.nextCheckAt.timeIntervalSince(check.checkedAt ?? start)
            #expect(delay >= interval * 0.9 - 1e-6)
            #expect(delay <= min(interval * 1.1, 14_400) + 1e-6)
        }
    }

    @Test func jitterSpreadsMoviesCheckedTogether() {
        let due = [0.0, 0.3, 0.6, 0.9].map {
            policy.next(after: .changed, from: nil, at: start, random: $0).nextCheckAt
        }
        #expect(Set(due).count == 4)
        #expect(due.max()!.timeIntervalSince(due.min()!) > 100)
    }

    @Test func theConfigSectionSetsThePolicy() {
        var config = Config()
        config.schedule.minimumInterval = 60
        config.schedule.maximumInterval = 600
        config.schedule.backoffFactor = 3
        let policy = MovieSchedulePolicy(config.schedule)
        let check = policy.next(
            after: .unchanged, from: MovieCheck(interval: 60, nextCheckAt: start), at: start, random: 0.5)
        #expect(check.interval == 180)
    }
}
