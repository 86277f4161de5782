import Foundation
import GRDB

/// Keeps the stored keys in step with `TitleKey`: a file whose keys an older fold made is re-keyed in Swift (the
/// fold cannot run in SQL without breaking the sqlite3 CLI), and rows that now collide become one under the
/// identity rules, their links and spellings kept.
extension Store {
    static let foldSetting = "titleKeyFold"

    /// Re-keys everything in one write transaction when the fold changed; a no-op read otherwise.
    static func rekeyIfFoldChanged(_ writer: any DatabaseWriter) throws {
        let current = String(TitleKey.version)
        let stored = try writer.read { db in
            try String.fetchOne(db, sql: "SELECT value FROM setting WHERE name = ?", arguments: [foldSetting])
        }
        guard stored != current else { return }
        try writer.write { db in
            // Another process may have re-keyed between the read above and this write lock.
            let now = try String.fetchOne(
                db, sql: "SELECT value FROM setting WHERE name = ?", arguments: [foldSetting])
            guard now != current else { return }
            try rekeyMembers(db)
            try rekeyMovies(db)
            try rekeyAliases(db)
            try db.execute(
                sql: "INSERT INTO setting (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = ?",
                arguments: [foldSetting, current, current])
        }
    }

    /// Two-phase, so a row's new key never collides with another row's old one: every key first becomes a
    /// placeholder no fold produces, then each row in id order takes its new key or merges into the row holding it.
    private static func rekeyMembers(_ db: Database) throws {
        try db.execute(sql: "UPDATE member SET nameKey = char(1) || id")
        for row in try Row.fetchAll(db, sql: "SELECT id, name FROM member ORDER BY id") {
            let (id, key): (Int64, String) = (row["id"], TitleKey.make(row["name"]))
            if let holder = try Int64.fetchOne(db, sql: "SELECT id FROM member WHERE nameKey = ?", arguments: [key]) {
                try db.execute(
                    sql: """
                        INSERT INTO memberMovie (memberId, movieId, addedAt, watched, watchedOn, ownRating)
                        SELECT ?, movieId, addedAt, watched, watchedOn, ownRating FROM memberMovie WHERE memberId = ?
                        ON CONFLICT (memberId, movieId) DO UPDATE SET \(mergedMarks)
                        """,
                    arguments: [holder, id])
                try db.execute(sql: "DELETE FROM member WHERE id = ?", arguments: [id])
            } else {
                try db.execute(sql: "UPDATE member SET nameKey = ? WHERE id = ?", arguments: [key, id])
            }
        }
    }

    /// Title keys are plain columns; identity keys are unique, and only the title-based ones ("title:…") change.
    private static func rekeyMovies(_ db: Database) throws {
        for row in try Row.fetchAll(db, sql: "SELECT id, title FROM movie") {
            try db.execute(
                sql: "UPDATE movie SET titleKey = ? WHERE id = ?",
                arguments: [TitleKey.make(row["title"]), row["id"] as Int64])
        }
        try db.execute(sql: "UPDATE movie SET identityKey = char(1) || id WHERE identityKey LIKE 'title:%'")
        let rows = try Row.fetchAll(
            db, sql: "SELECT id, titleKey, year FROM movie WHERE identityKey GLOB char(1) || '*' ORDER BY id")
        for row in rows {
            let (id, key): (Int64, String) = (row["id"], identityKey(titleKey: row["titleKey"], year: row["year"]))
            if let holder = try Int64.fetchOne(
                db, sql: "SELECT id FROM movie WHERE identityKey = ?", arguments: [key])
            {
                _ = try merge(db, id, into: holder)
            } else {
                try db.execute(sql: "UPDATE movie SET identityKey = ? WHERE id = ?", arguments: [key, id])
            }
        }
    }

    /// Aliases are (key, year) → movie; when two spellings now fold alike, the older alias stays.
    private static func rekeyAliases(_ db: Database) throws {
        let aliases = try Row.fetchAll(
            db, sql: "SELECT key, year, movieId, title FROM movieAlias ORDER BY movieId, year, key")
        try db.execute(sql: "DELETE FROM movieAlias")
        for alias in aliases {
            try db.execute(
                sql: """
                    INSERT INTO movieAlias (key, year, movieId, title) VALUES (?, ?, ?, ?)
                    ON CONFLICT (key, year) DO NOTHING
                    """,
                arguments: [
                    TitleKey.make(alias["title"]), alias["year"] as Int, alias["movieId"] as Int64,
                    alias["title"] as String,
                ])
        }
    }
}
