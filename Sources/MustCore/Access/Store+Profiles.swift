import Foundation
import GRDB

extension Store {
    /// Every member as a profile, in the members' order. Reads only.
    public func profiles() throws(StoreError) -> [Profile] {
        try read { db in
            try Row.fetchAll(
                db, sql: "SELECT id, name, kid, pinHash IS NOT NULL AS hasPin, ageLimit FROM member ORDER BY nameKey"
            )
            .map(Self.profile)
        }
    }

    /// One member's profile, by id; nil when there is no such member (any more).
    public func profile(memberId: Int64) throws(StoreError) -> Profile? {
        try read { db in
            try Row.fetchOne(
                db, sql: "SELECT id, name, kid, pinHash IS NOT NULL AS hasPin, ageLimit FROM member WHERE id = ?",
                arguments: [memberId]
            ).map(Self.profile)
        }
    }

    /// One member's profile, by name (folded as names are matched).
    public func profile(named name: String) throws(StoreError) -> Profile? {
        try read { db in
            try Row.fetchOne(
                db, sql: "SELECT id, name, kid, pinHash IS NOT NULL AS hasPin, ageLimit FROM member WHERE nameKey = ?",
                arguments: [TitleKey.make(name)]
            ).map(Self.profile)
        }
    }

    private static func profile(_ row: Row) -> Profile {
        Profile(
            memberId: row["id"], name: row["name"], kid: row["kid"], hasPin: row["hasPin"], ageLimit: row["ageLimit"])
    }

    /// Whether the page asks "Who's watching?" before it shows anything: some member has a PIN or is a kid.
    public func profilesGuardThePage() throws(StoreError) -> Bool {
        try read { db in
            try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM member WHERE pinHash IS NOT NULL OR kid = 1)")
                ?? false
        }
    }

    /// The member's PIN hash, or nil when they have no PIN.
    public func pinHash(memberId: Int64) throws(StoreError) -> String? {
        try read { db in
            try String.fetchOne(db, sql: "SELECT pinHash FROM member WHERE id = ?", arguments: [memberId])
        }
    }

    /// Sets (or with nil removes) a member's PIN hash, and ends their sessions: whoever chose the profile with the
    /// old PIN (or none) chooses again. The member's name as kept, and how many sessions ended; nil: no such member.
    public func setPin(member name: String, hash: String?) throws(StoreError) -> (name: String, ended: Int)? {
        try changeProfile(member: name) { db, id in
            try db.execute(sql: "UPDATE member SET pinHash = ? WHERE id = ?", arguments: [hash, id])
        }
    }

    /// Makes a member a kid profile or a grown-up one, and ends their sessions, as `setPin` does.
    public func setKid(member name: String, _ kid: Bool) throws(StoreError) -> (name: String, ended: Int)? {
        try changeProfile(member: name) { db, id in
            try db.execute(sql: "UPDATE member SET kid = ? WHERE id = ?", arguments: [kid, id])
        }
    }

    private func changeProfile(member name: String, _ change: @escaping (Database, Int64) throws -> Void)
        throws(StoreError) -> (name: String, ended: Int)?
    {
        try write { db in
            let row = try Row.fetchOne(
                db, sql: "SELECT id, name FROM member WHERE nameKey = ?", arguments: [TitleKey.make(name)])
            guard let row else { return nil }
            let id: Int64 = row["id"]
            try change(db, id)
            try db.execute(sql: "DELETE FROM webSession WHERE memberId = ?", arguments: [id])
            return (row["name"], db.changesCount)
        }
    }
}
