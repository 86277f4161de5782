import Foundation
import GRDB

/// The family's settings kept beside the lists, in the `setting` table: when the region's
/// certification list was last read, and the services chosen on the page or with `mustc providers --ours`. No
/// migration: each is one named row, absent until first written.
extension Store {
    static func certificationsCheckedSetting(region: String) -> String { "certifications.checkedAt." + region }
    static let servicesSetting = "family.services"
    static let servicesChosenSetting = "family.services.chosenAt"

    /// When TMDB last answered the region's certification list; nil when never (or before this was recorded).
    public func certificationsCheckedAt(region: String) throws(StoreError) -> Date? {
        try read { db in
            try String.fetchOne(
                db, sql: "SELECT value FROM setting WHERE name = ?",
                arguments: [Self.certificationsCheckedSetting(region: region)]
            ).flatMap(Double.init).map(Date.init(timeIntervalSince1970:))
        }
    }

    /// Keeps TMDB's list for the region, replacing what was kept, and when it was read: an empty list (a region
    /// without certifications) is kept as asked, so it is asked again only when due.
    public func keepCertificationOrder(_ list: [RegionCertification], region: String, now: Date)
        throws(StoreError)
    {
        try write { db in
            try db.execute(sql: "DELETE FROM certificationOrder WHERE region = ?", arguments: [region])
            for entry in list {
                try db.execute(
                    sql: "INSERT OR REPLACE INTO certificationOrder (region, certification, rank) VALUES (?, ?, ?)",
                    arguments: [region, entry.certification, entry.order])
            }
            try Self.setSetting(
                Self.certificationsCheckedSetting(region: region), to: String(now.timeIntervalSince1970), db)
        }
    }

    /// The services as everything reads them: the config's when it lists any, else the kept choice.
    public func familyServices(configured: [String]) throws(StoreError) -> FamilyServices {
        let rows = try read { db in
            try Row.fetchAll(
                db, sql: "SELECT name, value FROM setting WHERE name IN (?, ?)",
                arguments: [Self.servicesSetting, Self.servicesChosenSetting])
        }
        var values: [String: String] = [:]
        for row in rows { values[row["name"]] = row["value"] }
        // Written only by chooseServices: ids separated by commas; "" is the choice of none.
        let chosen = values[Self.servicesSetting].map { $0.split(separator: ",").compactMap { Int($0) } }
        let at = values[Self.servicesChosenSetting].flatMap(Double.init).map(Date.init(timeIntervalSince1970:))
        return FamilyServices(configured: configured, chosen: chosen, chosenAt: at)
    }

    /// Keeps the family's choice of services (TMDB provider ids, in the order given, each once), replacing the
    /// last; the empty list is the choice of none. `now` is kept beside it, for the settings page.
    public func chooseServices(_ ids: [Int], now: Date) throws(StoreError) {
        var seen = Set<Int>()
        let unique = ids.filter { seen.insert($0).inserted }
        try write { db in
            try Self.setSetting(Self.servicesSetting, to: unique.map(String.init).joined(separator: ","), db)
            try Self.setSetting(Self.servicesChosenSetting, to: String(now.timeIntervalSince1970), db)
        }
    }

    private static func setSetting(_ name: String, to value: String, _ db: Database) throws {
        try db.execute(
            sql:
                "INSERT INTO setting (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value",
            arguments: [name, value])
    }
}

/// A member and the highest certification they may see (nil: no limit), for the settings page.
public struct MemberAgeLimit: Sendable, Equatable {
    public var name: String
    public var limit: String?
}

extension Store {
    /// Every member with their age limit, in the members' order. Reads only.
    public func ageLimits() throws(StoreError) -> [MemberAgeLimit] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT name, ageLimit FROM member ORDER BY nameKey").map {
                MemberAgeLimit(name: $0["name"], limit: $0["ageLimit"])
            }
        }
    }

    /// Sets or clears a member's age limit; false when there is no such member.
    public func setAgeLimit(member name: String, to limit: String?) throws(StoreError) -> String? {
        try write { db in
            let row = try Row.fetchOne(
                db, sql: "SELECT id, name FROM member WHERE nameKey = ?", arguments: [TitleKey.make(name)])
            guard let row else { return nil }
            try db.execute(sql: "UPDATE member SET ageLimit = ? WHERE id = ?", arguments: [limit, row["id"] as Int64])
            return row["name"]
        }
    }
}
