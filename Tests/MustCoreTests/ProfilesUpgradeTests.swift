import Foundation
import MustCore
import TMDBStub
import Testing

/// A database of schema 0020 (every migration before 0021, applied by plain SQLite, with a family password and
/// two signed-in browsers of the release before) gains profiles in place, losing nothing: every member is a
/// grown-up without a PIN, every old session stays the family password's, and the page asks for no profile.
@Suite struct ProfilesUpgradeTests {
    let scratch = TemporaryDirectory("upgrade-profiles")
    var path: String { scratch.file("old.sqlite") }

    @Test func everyRowSurvivesAndOldSessionsKeepThePasswordsRights() throws {
        let applied = try UpgradeTests.writeDatabase(
            at: path, keeping: { $0 < "0021" },
            then: """
                INSERT INTO setting (name, value) VALUES ('web.passwordHash', '$2b$10$abcdefghijklmnopqrstuu');
                INSERT INTO webSession (tokenHash, createdAt, lastUsedAt)
                    VALUES ('one', '2026-11-20 10:00:00.000', '2026-11-28 10:00:00.000'),
                           ('two', '2026-11-21 10:00:00.000', '2026-11-21 11:00:00.000');
                UPDATE member SET ageLimit = 'PG' WHERE id = 2;

                """)
        #expect(applied.contains { $0.hasPrefix("0020") } && !applied.contains { $0.hasPrefix("0021") })
        let before = try UpgradeTests.rows(
            path, ["member", "movie", "memberMovie", "webSession"], orderedBy: "1, 2")
        let store = try Store(path: path, logger: quietLogger)
        #expect(try sqlite(path, "SELECT count(*) FROM schemaMigration WHERE identifier = '0021_profiles'") == "1")
        #expect(try sqlite(path, "PRAGMA foreign_key_check") == "")
        #expect(try sqlite(path, "PRAGMA integrity_check") == "ok")
        #expect(try UpgradeTests.rows(path, before) == before)
        #expect(try store.passwordHash() == "$2b$10$abcdefghijklmnopqrstuu")

        // Every old session is the password's, nobody's profile; every member a grown-up without a PIN.
        let old = try #require(try store.session(tokenHash: "one"))
        #expect(old.parent && old.memberId == nil)
        #expect(try sqlite(path, "SELECT count(*) FROM webSession WHERE parent = 1 AND memberId IS NULL") == "2")
        let profiles = try store.profiles()
        #expect(profiles.map(\.name) == ["Ann", "Bob"])
        #expect(profiles.allSatisfy { !$0.kid && !$0.hasPin })
        #expect(profiles.map(\.ageLimit) == [nil, "PG"])
        #expect(try store.profilesGuardThePage() == false)

        // A kid's profile and a PIN take effect on the upgraded file, and end only that member's sessions.
        let now = Date(timeIntervalSince1970: 1_795_000_000)
        try store.startSession(tokenHash: "bob", now: now, expiredBefore: now - 86_400 * 60, memberId: 2, parent: false)
        let changed = try #require(try store.setKid(member: "bob", true))
        #expect(changed.name == "Bob" && changed.ended == 1)
        #expect(try store.session(tokenHash: "bob") == nil)
        #expect(try store.session(tokenHash: "one") != nil)
        #expect(try store.profilesGuardThePage())
        #expect(try store.setPin(member: "nobody", hash: nil) == nil)
    }
}
