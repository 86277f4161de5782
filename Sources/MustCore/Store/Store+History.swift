import Foundation
import GRDB

/// TMDB's figures for a movie at one moment; any of them may be unknown.
public struct Figures: Sendable, Equatable {
    public var popularity: Double?
    public var voteAverage: Double?
    public var voteCount: Int?

    public init(popularity: Double? = nil, voteAverage: Double? = nil, voteCount: Int? = nil) {
        (self.popularity, self.voteAverage, self.voteCount) = (popularity, voteAverage, voteCount)
    }

    init(_ remote: RemoteMovie) {
        self.init(popularity: remote.popularity, voteAverage: remote.voteAverage, voteCount: remote.voteCount)
    }

    /// A movie never looked up has none.
    public var isEmpty: Bool { popularity == nil && voteAverage == nil && voteCount == nil }

    /// A row's `popularity`, `voteAverage` and `voteCount` columns, or with `before` the history's
    /// `popularityBefore`, `voteAverageBefore` and `voteCountBefore`.
    init(_ row: Row, before: Bool = false) {
        let suffix = before ? "Before" : ""
        self.init(
            popularity: row["popularity" + suffix], voteAverage: row["voteAverage" + suffix],
            voteCount: row["voteCount" + suffix])
    }
}

/// Writes and prunes `movieHistory`. Every write happens inside the caller's transaction (and savepoint), next to
/// the ratings write it describes, so a row SQLite refuses leaves no history behind.
enum RatingHistory {
    /// The fetch run in progress, if any: only one runs at a time (the fetch lock), and it records its row before
    /// its first write. One step down the primary key.
    static func runInProgress(_ db: Database) throws -> Int64? {
        let row = try Row.fetchOne(
            db.cachedStatement(sql: "SELECT id, endedAt IS NULL AS running FROM fetchRun ORDER BY id DESC LIMIT 1"))
        guard let row, row["running"] as Bool? == true else { return nil }
        return row["id"]
    }

    /// Before `from` (holding a TMDB id) is merged into `into` (taking that id): the history and figures of that
    /// TMDB movie move over, and whatever `into` had (none, or another TMDB movie's) goes.
    static func adopt(_ db: Database, from: Int64, into: Int64) throws {
        try db.execute(sql: "DELETE FROM movieHistory WHERE movieId = ?", arguments: [into])
        try db.execute(sql: "UPDATE movieHistory SET movieId = ? WHERE movieId = ?", arguments: [into, from])
        try db.execute(
            sql: """
                UPDATE movie SET (popularity, voteAverage, voteCount) =
                    (SELECT popularity, voteAverage, voteCount FROM movie WHERE id = ?)
                WHERE id = ?
                """,
            arguments: [from, into])
    }

    /// Records a write of TMDB's figures: the first figures a movie gets (or those of the TMDB movie it now is)
    /// as its baseline, later ones only when they differ from what was stored.
    static func record(
        _ db: Database, movieId: Int64, before: Figures?, after: Figures, firstFigures: Bool, at: Date,
        runId: Int64?
    ) throws {
        guard let before else { return }
        let baseline = firstFigures || before.isEmpty
        if baseline ? after.isEmpty : before == after { return }
        let prior = baseline ? Figures() : before
        try db.cachedStatement(
            sql: """
                INSERT INTO movieHistory (movieId, at, baseline, runId, popularityBefore, voteAverageBefore,
                    voteCountBefore, popularity, voteAverage, voteCount)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """
        ).execute(arguments: [
            movieId, at.timeIntervalSince1970, baseline, runId, prior.popularity, prior.voteAverage,
            prior.voteCount, after.popularity, after.voteAverage, after.voteCount,
        ])
    }
}

extension Store {
    /// Deletes history older than `cutoff`, `batchSize` rows per transaction, so that `mustc add` never waits
    /// behind a long delete. Returns how many rows went.
    @discardableResult
    public func pruneHistory(before cutoff: Date, batchSize: Int = 500) throws(StoreError) -> Int {
        var total = 0
        while true {
            let deleted = try write { db in
                try db.execute(
                    sql: """
                        DELETE FROM movieHistory WHERE id IN (
                            SELECT id FROM movieHistory WHERE at < ? ORDER BY at LIMIT ?)
                        """,
                    arguments: [cutoff.timeIntervalSince1970, batchSize])
                return db.changesCount
            }
            total += deleted
            if deleted < batchSize { return total }
        }
    }
}
