import Dispatch
import Foundation

/// What follows a run while the fetch lock is still held: pruning old history, the region's certification list
/// when it is due, then the newData hook and the notifications. None can change the run's result or its exit code; their failures are logged.
extension BackgroundFetch {
    func afterRun(id: Int64, startedAt: Date, report: FetchReport, schedule: ScheduleState?) async {
        // An interrupted run (SIGINT, SIGTERM) was asked to stop: nothing more.
        guard schedule != nil else { return }
        let store = runner.store
        let logger = runner.logger
        let cutoff = scheduler.now().addingTimeInterval(-historyKeep)
        // SQLite waits out a busy database by blocking its thread: a Dispatch thread, never a cooperative one.
        await BlockingWork.run {
            do {
                let pruned = try store.pruneHistory(before: cutoff)
                if pruned > 0 { logger.debug("pruned history", metadata: ["entries": "\(pruned)"]) }
            } catch {
                logger.warning("could not prune the rating history: \(error)")
            }
        }
        // Before the notifications: tonight's pick reads the order for the members' age limits.
        await refreshCertifications(after: report)
        // The notifications and the hook at once: the lock is held for the longer of the two deadlines, not both.
        async let notified: Void = notifier?.afterFetch(runId: id, startedAt: startedAt) ?? ()
        if let hook, report.summary.result == .newData { await runHook(hook, id: id, startedAt: startedAt) }
        await notified
        // Suggestions last: the family's news is sent before any request is spent on something new.
        await suggest(after: report)
    }

    private func runHook(_ hook: NewDataHook, id: Int64, startedAt: Date) async {
        let store = runner.store
        let logger = runner.logger
        let services = runner.settings.services
        let changes: ChangesReport? = await BlockingWork.run {
            do {
                return try store.changes(since: startedAt, runId: id, services: services)
            } catch {
                logger.warning("the newData hook was not run: cannot read this run's changes: \(error)")
                return nil
            }
        }
        guard let changes else { return }
        let input = Array(ReportRenderer.json(changes).utf8) + [UInt8(ascii: "\n")]
        let record = await hook.run(input: input, changes: changes.count, runId: id, time: scheduler.time)
        let detail = record.stderrTail.isEmpty ? "" : ": \(record.stderrTail)"
        let summary =
            "newData hook \(record.program) \(record.outcome.rawValue)"
            + (record.exitStatus.map { " (exit status \($0))" } ?? "")
        if record.outcome == .succeeded {
            logger.info("\(summary)")
        } else {
            logger.warning("\(summary)\(detail)")
        }
        await BlockingWork.run {
            do { try store.recordHook(record) } catch { logger.warning("could not record the hook's run: \(error)") }
        }
    }
}
