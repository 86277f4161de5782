import Foundation

/// What `mustc fetch` decided and, when it ran, what the run found.
public enum FetchDecision: Sendable, Equatable {
    case notDue(ScheduleState)
    case alreadyRunning(ScheduleState?)
    /// `schedule` is nil when the run was interrupted and the schedule left alone.
    case ran(FetchReport, schedule: ScheduleState?)
}

/// The whole background fetch: is one due, take the lock, run the operations, let the scheduler record it.
public struct BackgroundFetch: Sendable {
    public var runner: FetchRunner
    public var scheduler: Scheduler
    public var lockPath: String
    /// History older than this is pruned after each run.
    public var historyKeep: TimeInterval = Config.History().keep
    /// Run after a newData run with its changes on stdin (BackgroundFetch+AfterRun.swift).
    public var hook: NewDataHook?
    /// Tells the family of the run's news, beside the hook (BackgroundFetch+AfterRun.swift).
    public var notifier: Notifier?
    /// Recommendations and candidate details, after the ratings (BackgroundFetch+Suggestions.swift); nil: none.
    public var suggestions: SuggestionWork?

    public init(runner: FetchRunner, scheduler: Scheduler, lockPath: String) {
        self.runner = runner
        self.scheduler = scheduler
        self.lockPath = lockPath
    }

    /// The lock file beside a database.
    public static func lockPath(forDatabase path: String) -> String { path + ".fetch-lock" }

    public func perform(force: Bool, progress: (@Sendable (FetchProgress) -> Void)? = nil) async throws(StoreError)
        -> FetchDecision
    {
        // The services as of this run: a choice made on the page since the last run counts (`FamilyServices`).
        var fetch = self
        let services = try runner.store.familyServices(configured: runner.settings.services).services
        fetch.runner.settings.services = services
        fetch.notifier?.services = services
        return try await fetch.performWithServices(force: force, progress: progress)
    }

    private func performWithServices(force: Bool, progress: (@Sendable (FetchProgress) -> Void)?)
        async throws(StoreError) -> FetchDecision
    {
        if !force, let state = try scheduler.effectiveState(), !state.isDue(at: scheduler.now()) {
            // No rating is due, but the certification list may be (30 days old): it comes when due, not with
            // the next run, which may be a day away.
            await refreshCertificationsIfDue()
            return .notDue(state)
        }
        guard let lock = try RunLock.acquire(path: lockPath) else {
            return .alreadyRunning(try scheduler.effectiveState())
        }
        // Another process may have finished a run between the check above and taking the lock.
        if !force, let state = try scheduler.effectiveState(), !state.isDue(at: scheduler.now()) {
            return .notDue(state)
        }
        let startedAt = scheduler.now()
        let run = try runner.store.beginRun(at: startedAt)
        var report = await runner.run(force: force, progress: progress)
        report.recordedAt = scheduler.now()
        let schedule = try scheduler.record(run: run, report)
        await afterRun(id: run, startedAt: startedAt, report: report, schedule: schedule)
        withExtendedLifetime(lock) {}
        return .ran(report, schedule: schedule)
    }
}
