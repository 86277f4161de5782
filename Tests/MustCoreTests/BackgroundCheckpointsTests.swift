import Foundation
import TMDBStub
import Testing

@testable import MustCore

/// `serve`'s store copies the write-ahead log into the database on a queue of its own, never in the commit that
/// fills it (a checkpoint in a webhook's commit held every event queued behind it). Read from SQLite's
/// own record, the `-shm` file's header: the log's last frame (`mxFrame`) and how far it was copied (`nBackfill`).
@Suite struct BackgroundCheckpointsTests {
    let scratch = TemporaryDirectory("checkpoints")
    let now = Date(timeIntervalSince1970: 1_790_000_000)

    /// `mxFrame` (the first of the two copies of the WAL index header) and `nBackfill` (after both), native order.
    func walIndex(_ path: String) throws -> (frames: UInt32, copied: UInt32) {
        let header = try #require(FileManager.default.contents(atPath: path + "-shm"))
        func word(_ offset: Int) -> UInt32 {
            header[offset..<offset + 4].withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) }
        }
        return (word(16), word(96))
    }

    /// Events about movies new to the library (about nine log pages each) until the log reaches 1,000 pages: the
    /// commit that reaches them is the one SQLite's own checkpoint runs in.
    @discardableResult
    func fillLog(_ store: Store, path: String, pages: UInt32 = 1_000) throws -> Int {
        let day = try #require(WatchDay.parse("2026-11-27"))
        var id = 100_000
        while try walIndex(path).frames < pages {
            id += 1
            let event = MediaEvent(
                server: .jellyfin, user: "Ann", tmdbId: id, title: "Movie", year: 2001, kind: .watched)
            _ = try store.recordMediaEvent(event, day: day, now: now)
            #expect(id < 110_000, "the log never passed 1,000 pages")
            if id >= 110_000 { break }
        }
        return id - 100_000
    }

    @Test func theCommitThatFillsTheLogLeavesTheCopyToTheQueue() throws {
        let path = scratch.file("serve.sqlite")
        let store = try Store(path: path, logger: quietLogger, backgroundCheckpoints: true)
        _ = try store.link(member: "Ann", movie: .tmdb(129), now: now)
        let checkpoints = try #require(store.checkpoints)
        checkpoints.hold()
        let events = try fillLog(store, path: path)
        #expect(try walIndex(path).copied == 0, "a commit past 1,000 pages copied the log itself")
        checkpoints.resume()
        checkpoints.drain()
        let after = try walIndex(path)
        #expect(after.copied >= 1_000 && after.copied == after.frames)
        // The next write starts the log over: it stays bounded.
        _ = try store.link(member: "Ann", movie: .tmdb(194), now: now)
        #expect(try walIndex(path).frames < 100)
        let ratings = try Store(path: path, logger: quietLogger).ratings(member: "Ann")
        #expect(ratings.members.first?.movies.count == events + 2)
    }

    /// The log starting over keeps its file's size: SQLite cut it to `journal_size_limit` (4 MB) in the commit
    /// that started it over, the webhook's, and the file then grew again. It is still cut to nothing on close.
    @Test func theLogStartsOverWithoutCuttingItsFile() throws {
        let path = scratch.file("kept.sqlite")
        var store: Store? = try Store(path: path, logger: quietLogger, backgroundCheckpoints: true)
        _ = try store?.link(member: "Ann", movie: .tmdb(129), now: now)
        store?.checkpoints?.hold()
        try fillLog(try #require(store), path: path, pages: 1_500)
        store?.checkpoints?.resume()
        store?.checkpoints?.drain()
        let grown = try #require(try FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int)
        #expect(grown > 6_000_000)
        _ = try store?.link(member: "Ann", movie: .tmdb(194), now: now)
        #expect(try walIndex(path).frames < 100, "the log did not start over")
        let kept = try #require(try FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int)
        #expect(kept == grown)
        store = nil
        let closed = try #require(try FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int)
        #expect(closed == 0)
    }

    /// The control: without the option, SQLite's own checkpoint copies the log in the commit that passes 1,000
    /// pages, which is what the test above finds not done.
    @Test func otherStoresCheckpointInTheCommitAsSQLiteDoes() throws {
        let path = scratch.file("command.sqlite")
        let store = try Store(path: path, logger: quietLogger)
        _ = try store.link(member: "Ann", movie: .tmdb(129), now: now)
        #expect(store.checkpoints == nil)
        try fillLog(store, path: path)
        #expect(try walIndex(path).copied >= 1_000)
    }
}
