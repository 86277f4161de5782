import Foundation
import MustCore
import TestSupport
import Testing

@testable import MustWeb

/// Webhook events that come while another is being written wait, and are written together: one transaction, one
/// commit in the database's write-ahead log, and every event answered only once that commit is made.
@Suite struct HookWritesTests {
    @Test func eventsThatComeWhileOneIsWrittenShareOneCommit() async throws {
        let family = try WebFamily()
        _ = try family.store.link(member: "Ann", title: "Amélie", now: family.now)
        let edits = WebEdits(
            path: family.store.path, reader: family.store, config: family.config, logger: WebFamily.logger,
            time: family.time)
        _ = try edits.editor()
        let before = try Self.commits(inLogOf: family.store.path)
        let writes = edits.mediaServerWrites
        let day = try #require(WatchDay.parse("2026-11-24"))
        let now = family.now
        writes.hold()
        let answers = Task {
            try await withThrowingTaskGroup(of: String.self) { group in
                for id in 1...10 {
                    let event = MediaEvent(
                        server: .jellyfin, user: "ann", tmdbId: 1000 + id, title: "Film \(id)", kind: .watched)
                    group.addTask {
                        try await writes.record(MediaEventWrite(event, day: day, now: now)) { try edits.editor() }.1
                            .said
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
        }
        // Held until the ten wait. Their tasks run on the cooperative threads (two on this machine), which a busy
        // suite can hold for long: the deadline is generous, and missing it fails here, not as odd turn sizes below.
        let allWaiting = await Poll.until(within: .seconds(90), every: .milliseconds(5)) { writes.waitingCount >= 10 }
        if !allWaiting { writes.resume() }
        try #require(allWaiting, "the ten events were not all waiting within 90 s")
        #expect(try Self.commits(inLogOf: family.store.path) == before)
        writes.resume()
        let said = try await answers.value
        #expect(said.count == 10 && said.allSatisfy { $0.hasPrefix("marked Film ") && $0.contains("for Ann") })
        #expect(try Self.commits(inLogOf: family.store.path) == before + 1)
        #expect(writes.turnSizes == [10])
        let movies = try family.store.ratings(member: "Ann").members.first?.movies ?? []
        #expect(movies.filter(\.mark.watched).count == 10 && movies.count == 11)
    }

    /// The commits in a database's write-ahead log, read from the file as SQLite lays it out: a frame that ends a
    /// commit carries the database's size after it, and only frames with the log's current salt are the log's.
    static func commits(inLogOf path: String) throws -> Int {
        let log = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path + "-wal")))
        func word(_ at: Int) -> UInt32 { log[at..<at + 4].reduce(0) { $0 << 8 | UInt32($1) } }
        guard log.count >= 32 else { return 0 }
        let pageSize = Int(word(8)) == 1 ? 65_536 : Int(word(8))
        var (commits, offset) = (0, 32)
        while offset + 24 + pageSize <= log.count, word(offset + 8) == word(16), word(offset + 12) == word(20) {
            if word(offset + 4) != 0 { commits += 1 }
            offset += 24 + pageSize
        }
        return commits
    }
}
