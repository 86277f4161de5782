import Foundation
import MustCore
import TMDBStub
import Testing

/// The password hash and the sessions as the database keeps them (migration 0009), and the upgrade to it.
@Suite struct WebSessionStoreTests {
    let scratch = TemporaryDirectory("web-sessions")
    var path: String { scratch.file("family.sqlite") }
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func sessionsSurviveReopeningAndANewPasswordEndsThemAll() throws {
        let store = try Store(path: path, logger: quietLogger)
        #expect(try store.passwordHash() == nil)
        let first = try store.replacePassword(hash: "$2b$10$first")
        #expect(first.endedSessions == 0 && !first.hadPassword)
        let (one, two) = (SessionToken.random(), SessionToken.random())
        try store.startSession(tokenHash: one.hash, now: now, expiredBefore: now - 86_400)
        try store.startSession(tokenHash: two.hash, now: now, expiredBefore: now - 86_400)
        // A second process (a restarted server) finds them; only hashes are in the file.
        let reopened = try Store(path: path, logger: quietLogger)
        #expect(try reopened.session(tokenHash: one.hash)?.lastUsedAt == now)
        #expect(try sqlite(path, "SELECT count(*) FROM webSession WHERE tokenHash = '\(one.value)'") == "0")
        try reopened.touchSession(tokenHash: one.hash, now: now + 7_200)
        #expect(try store.session(tokenHash: one.hash)?.lastUsedAt == now + 7_200)
        try reopened.endSession(tokenHash: two.hash)
        #expect(try store.session(tokenHash: two.hash) == nil)
        let changed = try reopened.replacePassword(hash: "$2b$10$second")
        #expect(changed.endedSessions == 1 && changed.hadPassword)
        #expect(try store.session(tokenHash: one.hash) == nil)
        #expect(try store.passwordHash() == "$2b$10$second")
        try store.startSession(tokenHash: one.hash, now: now, expiredBefore: now)
        let removed = try store.replacePassword(hash: nil)
        #expect(removed.endedSessions == 1 && removed.hadPassword)
        #expect(try store.passwordHash() == nil)
    }

    @Test func startingASessionDeletesExpiredOnes() throws {
        let store = try Store(path: path, logger: quietLogger)
        let old = SessionToken.random()
        try store.startSession(tokenHash: old.hash, now: now - 40 * 86_400, expiredBefore: now - 80 * 86_400)
        try store.startSession(tokenHash: "new", now: now, expiredBefore: now - 30 * 86_400)
        #expect(try store.session(tokenHash: old.hash) == nil)
        #expect(try sqlite(path, "SELECT count(*) FROM webSession") == "1")
    }

    /// A file written by every migration before 0009 (the repository's migration files, applied by plain SQLite, with
    /// the rows mustc wrote then) gains the sessions table, and keeps every member, movie, link and rating.
    @Test func aDatabaseFromBeforeSessionsKeepsEveryRow() throws {
        let files = try UpgradeTests.writeDatabase(at: path, keeping: { $0 < "0009" })
        #expect(files.last == "0008_watched.sql")

        let store = try Store(path: path, logger: quietLogger)
        #expect(try sqlite(path, "SELECT count(*) FROM schemaMigration WHERE identifier = '0009_web_sessions'") == "1")
        #expect(try sqlite(path, "PRAGMA foreign_key_check") == "")
        #expect(try sqlite(path, "PRAGMA integrity_check") == "ok")
        #expect(try store.members().map(\.name) == ["Ann", "Bob"])
        #expect(try sqlite(path, "SELECT count(*) FROM memberMovie") == "5")
        let ann = try #require(try store.ratings(member: "Ann").members.first?.movies)
        #expect(ann.map(\.remoteId) == [194, 438631])
        #expect(ann.map(\.voteCount) == [11_412, 12_000])
        #expect(try store.passwordHash() == nil)
        try store.replacePassword(hash: "$2b$10$x")
        try store.startSession(tokenHash: "t", now: now, expiredBefore: now)
        #expect(try store.session(tokenHash: "t") != nil)
    }
}
