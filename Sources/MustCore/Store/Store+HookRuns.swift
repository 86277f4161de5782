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
                    record.runId, record.startedAt, record.elapsed, record.program, record.changes,
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
                runId: row[0], startedAt: row[1], elapsed: row[2], program: row[3], changes: row[4],
                outcome: HookRecord.Outcome(rawValue: row[5]) ?? .failed, exitStatus: row[6],
                stderrTail: row[7] ?? "")
        }
    }
}
