import Foundation
import TMDBStub
import TestSupport
import Testing

@testable import MustCore

/// A fetch's writes: one refused row never sinks its batch, pending writes commit on time, and a database held
/// by another writer never stops the requests.
@Suite final class IsolatedWritesTests {
    let stub: TMDBStubServer
    let directory = TemporaryDirectory("mustc-writes")
    let store: Store

    init() throws {
        // TMDB never sends id 0, but nothing stops a broken proxy from doing it: the schema refuses it.
        stub = TMDBStubServer(movies: StubMovie.synthetic(20) + [StubMovie(id: 0, title: "Zero")])
        try stub.start()
        store = try Store(path: directory.file("mustc.sqlite"), logger: quietLogger)
    }

    deinit { stub.stop() }

    func runner(batch: Int = 50, flush: TimeInterval = 1, concurrency: Int = 4, timeout: TimeInterval = 10)
        -> FetchRunner
    {
        var config = Config()
        config.fetch.maxConcurrentOperations = concurrency
        config.fetch.writeBatchSize = batch
        let stack = CurlTransport.stack(time: .system)
        let client = TMDBClient(
            baseURL: stub.baseURL, credentials: .apiKey(stub.apiKey), timeout: timeout, retry: .none,
            counter: RequestCounter(), transport: stack.transport, executor: stack.executor, time: .system,
            logger: quietLogger)
        var settings = FetchRunner.Settings(config)
        settings.flushInterval = flush
        return FetchRunner(store: store, client: client, settings: settings, logger: quietLogger, time: .system)
    }

    func link(_ count: Int) throws {
        for index in 1...count { _ = try store.link(member: "Bob", title: "Movie \(index)", now: testStart) }
    }

    func storedVoteCounts() throws -> String {
        try sqlite(
            store.path,
            "SELECT group_concat(coalesce(voteCount, '-'), ',') FROM (SELECT voteCount FROM movie ORDER BY id)")
    }

    @Test func aRefusedRowIsReportedAloneAndTheRestOfItsBatchCommits() throws {
        try link(3)
        let ids = try store.moviesToRefresh().map(\.id)
        let refused = try store.apply(
            [
                .resolved(movieId: ids[0], RemoteMovie(id: 100_000, title: "Movie 1", voteCount: 11)),
                .resolved(movieId: ids[1], RemoteMovie(id: 0, title: "Movie 2", voteCount: 22)),
                .resolved(movieId: ids[2], RemoteMovie(id: 100_002, title: "Movie 3", voteCount: 33)),
            ], now: testStart)
        #expect(refused.map(\.write.movieId) == [ids[1]])
        #expect(refused.first?.reason.contains("CHECK constraint failed") == true)
        #expect(try storedVoteCounts() == "11,-,33")
        #expect(try store.failingMovies().map(\.title) == ["Movie 2"])
    }

    @Test func aBatchHoldsWriteBatchSizeMoviesWithAllTheirWrites() async throws {
        try link(5)
        let ids = try store.moviesToRefresh().map(\.id)
        let t0 = Date(timeIntervalSince1970: 1_795_000_000)
        var buffer = WriteBuffer(writer: StoreWriter(store: store), batchSize: 2, interval: 3600)
        for (index, id) in ids.enumerated() {
            // A changed movie: its figures and its schedule, two writes that count as one movie.
            buffer.append(.ratings(movieId: id, RemoteMovie(id: 100_000 + index, title: nil, voteCount: 7)))
            buffer.append(.checked(movieId: id, MovieCheck(checkedAt: t0, interval: 900, nextCheckAt: t0 + 900)))
            buffer.endMovie(now: t0)
        }
        _ = await buffer.writer.drain()
        // Two full batches of two movies went; the fifth movie waits for the next flush, both its writes together.
        #expect(try storedVoteCounts() == "7,7,7,7,-")
        #expect(try sqlite(store.path, "SELECT count(*) FROM movieSchedule WHERE interval = 900") == "4")
        buffer.flush(now: t0)
        _ = await buffer.writer.drain()
        #expect(try storedVoteCounts() == "7,7,7,7,7")
    }

    @Test func aChangeSQLiteRefusedIsCountedAsAFailureNotAChange() async throws {
        try link(5)
        _ = try store.link(member: "Bob", title: "Zero", now: testStart)
        let report = await runner().run()
        #expect(report.summary.storeFailure == nil)
        #expect(report.summary.changed == 5)
        #expect(report.summary.failed == 1)
        #expect(report.summary.result == .newData)
        #expect(try store.unresolvedMovies() == ["Zero"])
        #expect(try store.failingMovies().first?.reason.contains("could not store") == true)
    }

    // Timing here is judged by order, not by a stopwatch: the suite's other tests can hold Swift's two cooperative
    // threads for seconds (measured: stalls of 1.4–4.1 s in a full run), so the runs start on the curl loop's own
    // executor, and what happens "while" is made to last until the test has seen it.

    @Test func pendingWritesCommitWithinTheFlushIntervalWhileAnAnswerHangs() async throws {
        try link(6)
        // The sixth answer hangs far longer than a full suite has been seen to stall this test's polling (over
        // 10 s with every core busy), so the run is still waiting on it when the test has seen the five.
        stub.inject(.hang(seconds: 120), on: .search, times: 1)
        let fetch = runner(batch: 1000, flush: 0.3, concurrency: 6, timeout: 100)
        let run = Task(executorPreference: fetch.client.executor) { await fetch.run() }
        // Five answers arrive at once and the sixth hangs: the five must be committed while it hangs.
        var committed = 0
        try await Poll.until(within: .seconds(90), every: .milliseconds(50)) {
            committed = try store.moviesToRefresh().filter { $0.remoteId != nil }.count
            return committed >= 5
        }
        run.cancel()
        let report = await run.value
        #expect(committed == 5, "the five answers were not committed while the sixth hung")
        #expect(report.interrupted)
        #expect(report.summary.changed == 5)
    }

    @Test func aDatabaseHeldByAnotherWriterDoesNotStopTheRequests() async throws {
        try link(20)
        _ = await runner().run()
        for id in 100_000..<100_020 { stub.update(id: id) { $0.voteCount += 1 } }
        stub.latency = 0.03
        stub.resetCounters()

        // The stock sqlite3 CLI takes the write lock and holds it until the test sends COMMIT.
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        holder.arguments = [store.path]
        let input = Pipe()
        let output = Pipe()
        (holder.standardInput, holder.standardOutput) = (input, output)
        try ChildLaunch.run(holder)
        defer { if holder.isRunning { holder.terminate() } }
        input.fileHandleForWriting.write(Data("BEGIN IMMEDIATE;\nSELECT 'locked';\n".utf8))
        let locked = output.fileHandleForReading.availableData
        #expect(String(decoding: locked, as: UTF8.self).contains("locked"))

        let fetch = runner(batch: 1, concurrency: 2)
        let run = Task(executorPreference: fetch.client.executor) { await fetch.run() }
        // 20 answers at 30 ms, two at a time, take about 0.3 s. A writer on the HTTP thread would wait out the
        // 10 s busy timeout at its first write, and the requests with it.
        let answeredWhileLocked = await Self.commitAfterTwentyRequests(stub: stub, holder: input.fileHandleForWriting)
        let report = await run.value
        #expect(answeredWhileLocked == 20, "requests stalled behind the write lock")
        #expect(report.summary.changed == 20, "\(report.summary.firstFailure ?? "")")
        #expect(report.summary.storeFailure == nil)
        #expect(try sqlite(store.path, "SELECT count(*) FROM movie WHERE voteCount = 1 + (id - 1)") == "20")
    }

    /// Watches the stub from a thread of its own and ends the holder's transaction once the 20 requests are in,
    /// or after 5 s. Not from a task: a CI run failed when the suite's other tests held both cooperative threads
    /// long enough for the writer's 10 s busy timeout to run out before a polling task sent the COMMIT.
    static func commitAfterTwentyRequests(stub: TMDBStubServer, holder: FileHandle) async -> Int {
        await withCheckedContinuation { continuation in
            Thread {
                Poll.blockingUntil(within: .seconds(5), every: .milliseconds(20)) { stub.requestCount >= 20 }
                let answered = stub.requestCount
                holder.write(Data("COMMIT;\n".utf8))
                try? holder.close()
                continuation.resume(returning: answered)
            }.start()
        }
    }
}
