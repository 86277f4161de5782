import Clocks
import Dispatch
import Foundation
import Logging

/// Sends the family's news: composes a run's message, stores it for each destination, and delivers what waits,
/// every destination at once under one deadline, so a run waits at most `sendTimeout` however many hang.
public struct Notifier: Sendable {
    public var settings: Config.Notify
    public var store: Store
    public var transport: HTTPTransport
    public var time: TimeSource
    public var logger: Logger
    /// The family's services (availability news and where tonight's picks stream) and region.
    public var services: [String] = []
    public var region = "US"
    public var publicURL: String?
    public var timeZone = TimeZone.current
    /// The most messages a destination is sent in one delivery; the rest wait for the next.
    public var perDelivery = 20

    public init(
        settings: Config.Notify, store: Store, transport: @escaping HTTPTransport, time: TimeSource, logger: Logger
    ) {
        (self.settings, self.store, self.transport, self.time, self.logger) = (settings, store, transport, time, logger)
    }

    /// The notifier a config asks for, libcurl on a loop of its own; nil without destinations.
    public static func configured(_ config: Config, store: Store, time: TimeSource, logger: Logger) -> Notifier? {
        guard !config.notify.destinations.isEmpty else { return nil }
        var notifier = Notifier(
            settings: config.notify, store: store,
            transport: CurlTransport.make(maxConnections: config.notify.destinations.count, time: time), time: time,
            logger: logger)
        notifier.services = config.family.services
        notifier.region = config.family.region
        notifier.publicURL = config.serve.publicURL
        notifier.timeZone = config.serve.timeZone.flatMap(TimeZone.init(identifier:)) ?? .current
        return notifier
    }

    var names: [String] { settings.destinations.map(\.name) }

    /// After a fetch run: its news (and, when due, the weekly tonight message) stored, then everything due sent.
    /// Never throws: a failure is logged, and the fetch's result stays as it was.
    public func afterFetch(runId: Int64, startedAt: Date) async {
        let now = time.now()
        let composed: Bool = await BlockingWork.run { [self] in
            do {
                let changes = try store.changes(since: startedAt, runId: runId, services: services)
                if let news = NotifyWords.news(changes, kinds: settings.kinds, publicURL: publicURL) {
                    try store.enqueue(news, to: names, now: now)
                }
                try enqueueTonightIfDue(now: now)
                return true
            } catch {
                logger.warning("notifications: could not store this run's news: \(error)")
                return false
            }
        }
        if composed { _ = await deliver() }
    }

    private func enqueueTonightIfDue(now: Date) throws(StoreError) {
        guard settings.kinds.contains(.night), let weekly = settings.tonight,
            let occurrence = TonightSchedule.due(
                weekly, now: now, zone: timeZone, lastSent: try store.tonightLastSent())
        else { return }
        if let message = try tonightMessage(now: now) { try store.enqueue(message, to: names, now: now) }
        try store.markTonightSent(for: occurrence)
    }

    /// Tonight's pick for the whole family (each member's own age limit applies): the top three, each with where
    /// it streams; nil when the family has no member yet.
    public func tonightMessage(now: Date) throws(StoreError) -> NotifyMessage? {
        let members = try store.memberNames()
        guard !members.isEmpty else { return nil }
        let library = try store.movieNight(members: members, trendSince: Tonight.trendStart(now), region: region)
        let picks = Tonight.picks(library, count: 3, services: services, region: region)
        return NotifyWords.tonight(picks, services: services, publicURL: publicURL)
    }

    /// Stores `message` for every destination and delivers; `mustc notify --tonight`.
    public func send(_ message: NotifyMessage) async throws(StoreError) -> [String: SendOutcome] {
        try store.enqueue(message, to: names, now: time.now())
        return await deliver()
    }

    /// Sends what waits, every destination at once, within one `sendTimeout`; drops what is older than 7 days.
    /// Returns each destination's last answer (absent: nothing was due there).
    public func deliver() async -> [String: SendOutcome] {
        let start = time.instant
        let now = time.now()
        let dropped = await BlockingWork.run { [self] in
            try? store.dropExpiredNotifications(before: now.addingTimeInterval(-NotifyRetry.keep), now: now)
        }
        if let dropped, dropped > 0 { logger.warning("notifications: dropped \(dropped) message(s) older than 7 days") }
        return await withTaskGroup(of: (String, SendOutcome?).self) { group in
            for destination in settings.destinations {
                group.addTask { (destination.name, await deliver(to: destination, start: start, now: now)) }
            }
            var answers: [String: SendOutcome] = [:]
            for await (name, outcome) in group { answers[name] = outcome }
            return answers
        }
    }

    /// One destination's due messages in order, until one fails or the deadline is near.
    private func deliver(to destination: NotifyDestination, start: AnyClock<Duration>.Instant, now: Date) async
        -> SendOutcome?
    {
        let due = await BlockingWork.run { [self] in
            try? store.dueMessages(destination: destination.name, now: now, limit: perDelivery)
        }
        var last: SendOutcome?
        for entry in due ?? [] {
            let left = settings.sendTimeout - time.seconds(since: start)
            guard left > 0.05 else { break }
            let outcome = await send(entry.message, to: destination, timeout: left)
            await record(outcome, entry: entry, destination: destination)
            last = outcome
            guard outcome.accepted else { break }
        }
        return last
    }

    /// One message to one destination, not stored: `mustc notify --test`. Its answer is recorded for `status`.
    public func test(_ destination: NotifyDestination) async -> SendOutcome {
        let outcome = await send(NotifyWords.test, to: destination, timeout: settings.sendTimeout)
        await record(outcome, entry: nil, destination: destination)
        return outcome
    }

    func send(_ message: NotifyMessage, to destination: NotifyDestination, timeout: TimeInterval) async
        -> SendOutcome
    {
        let request = destination.request(message, timeout: timeout)
        let result: Result<HTTPResponse, any Error>
        do {
            result = .success(try await transport(request))
        } catch {
            result = .failure(error)
        }
        return SendOutcome.classify(result, timeout: timeout, secrets: settings.secrets, now: time.now())
    }

    private func record(_ outcome: SendOutcome, entry: OutboxEntry?, destination: NotifyDestination) async {
        let now = time.now()
        if !outcome.accepted { logger.warning("notification to \(destination) not delivered: \(outcome)") }
        await BlockingWork.run { [self] in
            do {
                switch outcome {
                case .accepted:
                    try store.notifyDelivered(entry?.id, destination: destination.name, now: now)
                case .failed(let reason, let after):
                    let retry = NotifyRetry.next(attempts: (entry?.attempts ?? 0) + 1, now: now, retryAfter: after)
                    try store.notifyFailed(
                        entry?.id, destination: destination.name, failure: reason, configProblem: false,
                        retryAt: retry, now: now)
                case .refused(_, let reason):
                    let retry = NotifyRetry.next(
                        attempts: max((entry?.attempts ?? 0) + 1, 2), now: now, retryAfter: nil)
                    try store.notifyFailed(
                        entry?.id, destination: destination.name, failure: reason, configProblem: true,
                        retryAt: retry, now: now)
                }
            } catch {
                logger.warning("notifications: could not record \(destination)'s answer: \(error)")
            }
        }
    }
}
