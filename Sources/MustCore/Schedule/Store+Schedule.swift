import Foundation
import GRDB

/// One row of the `fetchRun` table.
public struct FetchRunRecord: Sendable, Equatable {
    public var id: Int64
    public var startedAt: Date
    public var endedAt: Date?
    /// newData, noData, failed, interrupted; nil while running or if the process died mid-run.
    public var result: String?
    public var movies: Int
    public var changed: Int
    public var unchanged: Int
    public var failed: Int
    public var skipped: Int
    public var requests: Int
    public var interval: TimeInterval?
    public var nextFetchAt: Date?
    public var failure: String?
}

/// Where the library stands in the per-movie schedule.
public struct CheckCounts: Sendable, Equatable, Encodable {
    public var total: Int
    public var dueNow: Int
    public var dueWithinHour: Int
    public var dueWithinDay: Int
    /// When the earliest movie is due; nil for an empty library.
    @NullWhenAbsent public var nextCheckAt: Date?
}

/// A movie the last fetch could not refresh, and why.
public struct FailingMovie: Sendable, Equatable, Encodable {
    public var title: String
    @NullWhenAbsent public var year: Int?
    @NullWhenAbsent public var remoteId: Int?
    public var reason: String
    @NullWhenAbsent public var notFoundAt: Date?

    /// "Titanic (1997)": remakes share titles.
    public var shown: String { MovieName.shown(title, year) }
}

extension Store {
    public func scheduleState() throws(StoreError) -> ScheduleState? {
        try read { db in try Self.scheduleState(db) }
    }

    static func scheduleState(_ db: Database) throws -> ScheduleState? {
        try Row.fetchOne(
            db,
            sql: """
                SELECT interval, nextFetchAt, lastResult, consecutiveNoData, consecutiveFailures
                FROM schedule WHERE id = 1
                """
        ).map { row in
            ScheduleState(
                interval: row["interval"], nextFetchAt: row["nextFetchAt"],
                lastResult: FetchResult(rawValue: row["lastResult"]) ?? .failed,
                consecutiveNoData: row["consecutiveNoData"], consecutiveFailures: row["consecutiveFailures"])
        }
    }

    /// Records that a run started; a row left without an end shows a run that died.
    public func beginRun(at now: Date) throws(StoreError) -> Int64 {
        try write { db in
            try db.execute(sql: "INSERT INTO fetchRun (startedAt) VALUES (?)", arguments: [now.storedValue])
            return db.lastInsertedRowID
        }
    }

    /// Ends the run's record and, unless it was interrupted, moves the schedule on: both or neither.
    public func finishRun(
        id: Int64, at now: Date, result: String, summary: FetchSummary, requests: Int, schedule: ScheduleState?
    ) throws(StoreError) {
        try write { db in
            let delay = schedule.map { $0.nextFetchAt.timeIntervalSince(now) }
            try db.execute(
                sql: """
                    UPDATE fetchRun SET endedAt = ?, result = ?, movies = ?, changed = ?, unchanged = ?, failed = ?,
                        skipped = ?, requests = ?, interval = ?, nextFetchAt = ?, failure = ?
                    WHERE id = ?
                    """,
                arguments: [
                    now.storedValue, result, summary.movies, summary.changed, summary.unchanged, summary.failed,
                    summary.skipped, requests, delay, schedule?.nextFetchAt.storedValue,
                    summary.storeFailure ?? summary.firstFailure, id,
                ])
            guard let schedule else { return }
            try db.execute(
                sql: """
                    INSERT INTO schedule (id, interval, nextFetchAt, lastResult, consecutiveNoData, consecutiveFailures)
                    VALUES (1, ?, ?, ?, ?, ?)
                    ON CONFLICT (id) DO UPDATE SET interval = excluded.interval, nextFetchAt = excluded.nextFetchAt,
                        lastResult = excluded.lastResult, consecutiveNoData = excluded.consecutiveNoData,
                        consecutiveFailures = excluded.consecutiveFailures
                    """,
                arguments: [
                    schedule.interval, schedule.nextFetchAt.storedValue, schedule.lastResult.rawValue,
                    schedule.consecutiveNoData, schedule.consecutiveFailures,
                ])
        }
    }

    public func recentRuns(limit: Int = 10) throws(StoreError) -> [FetchRunRecord] {
        try read { db in try Self.recentRuns(db, limit: limit) }
    }

    static func recentRuns(_ db: Database, limit: Int) throws -> [FetchRunRecord] {
        try Row.fetchAll(
            db,
            sql: """
                SELECT id, startedAt, endedAt, result, movies, changed, unchanged, failed, skipped, requests,
                    interval, nextFetchAt, failure
                FROM fetchRun ORDER BY id DESC LIMIT ?
                """,
            arguments: [limit]
        ).map { row in
            FetchRunRecord(
                id: row["id"], startedAt: row["startedAt"], endedAt: row["endedAt"], result: row["result"],
                movies: row["movies"], changed: row["changed"], unchanged: row["unchanged"], failed: row["failed"],
                skipped: row["skipped"], requests: row["requests"], interval: row["interval"],
                nextFetchAt: row["nextFetchAt"], failure: row["failure"])
        }
    }

    public func failingMovies() throws(StoreError) -> [FailingMovie] {
        try read { db in try Self.failingMovies(db) }
    }

    static func failingMovies(_ db: Database) throws -> [FailingMovie] {
        try Row.fetchAll(
            db,
            sql: """
                SELECT title, year, remoteId, fetchError, notFoundAt FROM movie
                WHERE fetchError IS NOT NULL ORDER BY titleKey, year
                """
        ).map {
            FailingMovie(
                title: $0["title"], year: $0["year"], remoteId: $0["remoteId"], reason: $0["fetchError"],
                notFoundAt: $0["notFoundAt"])
        }
    }

    public func unresolvedMovies() throws(StoreError) -> [String] {
        try read { db in try Self.unresolvedMovies(db) }
    }

    /// Each shown with its year when known, "Titanic (1953)": remakes share titles.
    static func unresolvedMovies(_ db: Database) throws -> [String] {
        try Row.fetchAll(db, sql: "SELECT title, year FROM movie WHERE remoteId IS NULL ORDER BY titleKey, year")
            .map { MovieName.shown($0["title"], $0["year"]) }
    }

    /// How many movies are due now, within an hour and within a day, and when the earliest is due.
    public func checkCounts(now: Date) throws(StoreError) -> CheckCounts {
        try read { db in try Self.checkCounts(db, now: now) }
    }

    /// Counts index ranges (nextCheckAt <= t), so it reads the due part of the index, not the table.
    static func checkCounts(_ db: Database, now: Date) throws -> CheckCounts {
        let row = try Row.fetchOne(
            db,
            sql: """
                SELECT (SELECT count(*) FROM movieSchedule WHERE nextCheckAt <= ?1) AS dueNow,
                    (SELECT count(*) FROM movieSchedule WHERE nextCheckAt <= ?1 + 3600) AS dueWithinHour,
                    (SELECT count(*) FROM movieSchedule WHERE nextCheckAt <= ?1 + 86400) AS dueWithinDay,
                    (SELECT min(nextCheckAt) FROM movieSchedule) AS nextCheckAt,
                    (SELECT count(*) FROM movie) AS total
                """,
            arguments: [now.timeIntervalSince1970])
        return CheckCounts(
            total: row?["total"] ?? 0, dueNow: row?["dueNow"] ?? 0, dueWithinHour: row?["dueWithinHour"] ?? 0,
            dueWithinDay: row?["dueWithinDay"] ?? 0,
            nextCheckAt: (row?["nextCheckAt"] as Double?).map(Date.init(timeIntervalSince1970:)))
    }

    /// Everything `mustc status` shows, read in one transaction so the schedule and the runs agree.
    public func status(now: Date, runs: Int = 10) throws(StoreError) -> StatusReport {
        try read { db in
            var report = StatusReport(
                schedule: try Self.scheduleState(db), runs: try Self.recentRuns(db, limit: runs),
                failing: try Self.failingMovies(db), unresolved: try Self.unresolvedMovies(db),
                checks: try Self.checkCounts(db, now: now), now: now)
            report.needsChoice = try Self.moviesNeedingChoice(db)
            report.hook = try Self.lastHookRun(db)
            report.mediaServers = try Self.mediaEventStatus(db)
            report.notify = try Self.notifyStatus(db)
            return report
        }
    }
}
