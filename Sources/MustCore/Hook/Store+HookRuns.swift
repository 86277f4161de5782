import Foundation
import GRDB

extension Store {
    /// Keeps what the newData hook did, for `status`.
    public func recordHook(_ record: HookRecord) throws(StoreError) {
        try write { db in
            try db.execute(
                sql: """
                    INSERT INTO hookRun (runId, startedAt, elapsed, program, changes, outcome, exitStatus, stderrTail)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    record.runId, record.startedAt.storedValue, record.elapsed, record.program, record.changes,
                    record.outcome.rawValue, record.exitStatus, record.stderrTail,
                ])
        }
    }

    /// The hook's last run; nil when it never ran.
    static func lastHookRun(_ db: Database) throws -> HookRecord? {
        try Row.fetchOne(
            db,
            sql: """
                SELECT runId, startedAt, elapsed, program, changes, outcome, exitStatus, stderrTail
                FROM hookRun ORDER BY id DESC LIMIT 1
                """
        ).map { row in
            HookRecord(
                runId: row["runId"], startedAt: row["startedAt"], elapsed: row["elapsed"], program: row["program"],
                changes: row["changes"], outcome: HookRecord.Outcome(rawValue: row["outcome"]) ?? .failed,
                exitStatus: row["exitStatus"], stderrTail: row["stderrTail"] ?? "")
        }
    }
}
