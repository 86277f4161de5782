import Clocks
import Foundation
import MustCore
import TMDBStub
import Testing

/// The per-movie schedule on a test clock: a movie comes due when the clock is turned past its next check, not
/// after a real wait. (PerMovieScheduleTests drives the same through the binary, without waiting.)
@Suite final class MovieComesDueTests {
    let stub: TMDBStubServer
    let directory = TemporaryDirectory("mustc-due")
    let store: Store
    let clock = TestClock<Duration>()
    let time: TimeSource

    init() throws {
        time = .test(clock)
        stub = TMDBStubServer(movies: StubMovie.classics + StubMovie.synthetic(30))
        try stub.start()
        store = try Store(path: directory.file("mustc.sqlite"), logger: quietLogger)
    }

    deinit { stub.stop() }

    /// The fetch `mustc fetch` performs, on the test clock; the default schedule (15 minutes, backoff 2).
    func fetch() -> BackgroundFetch {
        let stack = CurlTransport.stack(time: .system)
        let client = TMDBClient(
            baseURL: stub.baseURL, credentials: .apiKey(stub.apiKey), timeout: 60, retry: .none,
            counter: RequestCounter(), transport: stack.transport, executor: stack.executor, time: .system,
            logger: quietLogger)
        let runner = FetchRunner(
            store: store, client: client, settings: FetchRunner.Settings(Config()), logger: quietLogger, time: time)
        let scheduler = Scheduler(store: store, policy: BackoffPolicy(Config().schedule), time: time)
        return BackgroundFetch(
            runner: runner, scheduler: scheduler, lockPath: BackgroundFetch.lockPath(forDatabase: store.path))
    }

    func ran(force: Bool) async throws -> FetchReport? {
        guard case .ran(let report, _) = try await fetch().perform(force: force) else { return nil }
        return report
    }

    var requestedIds: Set<Int> {
        Set(stub.requests.compactMap { $0.path.hasPrefix("/3/movie/") ? Int($0.path.dropFirst(9)) : nil })
    }

    @Test func onlyTheMoviesThatChangedComeDueAtTheMinimumAndAPlainFetchChecksOnlyThem() async throws {
        for index in 1...20 { _ = try store.link(member: "Bob", title: "Movie \(index)", now: time.now()) }
        #expect(try await ran(force: true)?.summary.changed == 20)
        stub.update(id: 100_002) { $0.voteCount += 1 }
        stub.update(id: 100_006) { $0.popularity += 0.5 }
        let forced = try #require(try await ran(force: true))
        #expect(forced.summary.changed == 2)
        #expect(forced.summary.unchanged == 18)
        // Changed: due again after the minimum, 900 s. Unchanged: backed off to 1,800 s.
        let next = try #require(try store.checkCounts(now: time.now()).nextCheckAt)
        #expect(abs(next.timeIntervalSince(time.now()) - 900) < 0.001)

        await clock.advance(by: .seconds(899))
        guard case .notDue = try await fetch().perform(force: false) else {
            Issue.record("nothing is due 899 s after the forced run")
            return
        }
        await clock.advance(by: .seconds(2))
        stub.resetCounters()
        let plain = try #require(try await ran(force: false))
        #expect(plain.summary.result == .noData)
        #expect(plain.due == 2)
        #expect(plain.summary.movies == 2)
        #expect(plain.total == 20)
        #expect(plain.requests == 2)
        #expect(requestedIds == [100_002, 100_006])

        // Nothing is due straight after; the others come due at 1,800 s.
        guard case .notDue = try await fetch().perform(force: false) else {
            Issue.record("nothing is due straight after")
            return
        }
        await clock.advance(by: .seconds(900))
        stub.resetCounters()
        let rest = try #require(try await ran(force: false))
        #expect(rest.due == 18)
        #expect(stub.requestCount == 18)
    }
}
