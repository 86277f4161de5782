import Clocks
import Foundation
import MustCore
import TMDBStub
import Testing

/// The persisted scheduler, the run lock and the whole background fetch, on a real file and a real stub.
@Suite final class SchedulerTests {
    let stub: TMDBStubServer
    let directory = TemporaryDirectory("mustc-schedule")
    let store: Store
    /// Turned by the tests, so the persisted scheduler is stepped through time.
    let clock = TestClock<Duration>()
    let time: TimeSource

    init() throws {
        time = .test(clock)
        stub = TMDBStubServer(movies: StubMovie.classics)
        try stub.start()
        store = try Store(path: directory.file("mustc.sqlite"), logger: quietLogger)
        for title in ["Amélie", "Up", "Spirited Away"] {
            _ = try store.link(member: "Alice", title: title, now: testStart)
        }
    }

    // The accept thread keeps a started stub alive; only stop() ends it and closes its sockets.
    deinit { stub.stop() }

    func fetch() -> BackgroundFetch {
        let stack = CurlTransport.stack(time: .system)
        let client = TMDBClient(
            baseURL: stub.baseURL, credentials: .apiKey(stub.apiKey), retry: .none, counter: RequestCounter(),
            transport: stack.transport, executor: stack.executor, time: .system, logger: quietLogger)
        let runner = FetchRunner(
            store: store, client: client, settings: FetchRunner.Settings(Config()), logger: quietLogger,
            time: time)
        let scheduler = Scheduler(store: store, policy: BackoffPolicy(maximumInterval: 7200), time: time)
        return BackgroundFetch(
            runner: runner, scheduler: scheduler, lockPath: BackgroundFetch.lockPath(forDatabase: store.path))
    }

    @Test func theScheduleSurvivesReopeningAndGatesTheNextFetch() async throws {
        guard case .ran(let first, let schedule) = try await fetch().perform(force: false) else {
            Issue.record("the first fetch should run")
            return
        }
        #expect(first.summary.result == .newData)
        #expect(schedule?.nextFetchAt == time.now().addingTimeInterval(900))

        let reopened = try Store(path: store.path, logger: quietLogger)
        #expect(try reopened.scheduleState()?.lastResult == .newData)
        await clock.advance(by: .seconds(899))
        guard case .notDue = try await fetch().perform(force: false) else {
            Issue.record("not due yet")
            return
        }
        await clock.advance(by: .seconds(1))
        guard case .ran(let second, let next) = try await fetch().perform(force: false) else {
            Issue.record("due now")
            return
        }
        #expect(second.summary.result == .noData)
        #expect(next?.nextFetchAt == time.now().addingTimeInterval(1800))
        let runs = try store.recentRuns()
        #expect(runs.map(\.result) == ["noData", "newData"])
        #expect(runs.first?.interval == 1800)
        #expect(runs.first?.requests == 3)
    }

    @Test func aHeldLockMeansAlreadyRunningAndNoRequests() async throws {
        let held = try #require(try RunLock.acquire(path: BackgroundFetch.lockPath(forDatabase: store.path)))
        #expect(try RunLock.acquire(path: held.path) == nil)
        guard case .alreadyRunning = try await fetch().perform(force: true) else {
            Issue.record("the lock is held")
            return
        }
        #expect(stub.requestCount == 0)
        _ = consume held
        guard case .ran = try await fetch().perform(force: true) else {
            Issue.record("the lock was released")
            return
        }
    }

    @Test func aFailedRunRecordsWhyAndRetriesSooner() async throws {
        stub.inject(.unauthorized, times: nil)
        guard case .ran(let report, let schedule) = try await fetch().perform(force: true) else {
            Issue.record("should run")
            return
        }
        #expect(report.summary.result == .failed)
        #expect(schedule?.consecutiveFailures == 1)
        #expect(schedule?.nextFetchAt == time.now().addingTimeInterval(600))
        #expect(try store.recentRuns().first?.failure?.contains("401") == true)
    }
}
