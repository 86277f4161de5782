import Foundation

/// At most `maxFailures` failed sign-ins in `window` from one client address; past that, every attempt is refused
/// (HTTP 429) until the oldest failure leaves the window. Pure: the caller passes the time and keeps the value
/// behind its own lock.
public struct SignInLimiter: Sendable {
    public enum Decision: Sendable, Equatable {
        case allowed
        /// Refused; try again after this many whole seconds (the Retry-After header).
        case refused(retryAfter: Int)
    }

    public var maxFailures: Int
    public var window: TimeInterval
    /// Addresses remembered at most: a flood from many addresses cannot grow memory without bound; past this,
    /// the addresses whose last failure is oldest are forgotten first.
    public var maxClients: Int
    private var failures: [String: [Date]] = [:]

    public init(maxFailures: Int = 5, window: TimeInterval = 60, maxClients: Int = 10_000) {
        self.maxFailures = maxFailures
        self.window = window
        self.maxClients = maxClients
    }

    /// Whether an attempt from `client` may be checked now.
    public mutating func check(_ client: String, at now: Date) -> Decision {
        let recent = prune(client, at: now)
        guard recent.count >= maxFailures, let oldest = recent.first else { return .allowed }
        let wait = oldest.addingTimeInterval(window).timeIntervalSince(now)
        return .refused(retryAfter: max(1, Int(wait.rounded(.up))))
    }

    public mutating func recordFailure(_ client: String, at now: Date) {
        var recent = prune(client, at: now)
        recent.append(now)
        failures[client] = recent
        if failures.count > maxClients { forgetOldest(at: now) }
    }

    /// Takes back the last failure recorded for `client`: an attempt is counted before its password is checked,
    /// so parallel guesses cannot pass the limit, and forgiven when the password was right.
    public mutating func forgive(_ client: String) {
        guard var recent = failures[client], !recent.isEmpty else { return }
        recent.removeLast()
        failures[client] = recent.isEmpty ? nil : recent
    }

    /// How many clients are remembered (for tests of the bound).
    public var rememberedClients: Int { failures.count }

    private mutating func prune(_ client: String, at now: Date) -> [Date] {
        let recent = (failures[client] ?? []).filter { now.timeIntervalSince($0) < window }
        failures[client] = recent.isEmpty ? nil : recent
        return recent
    }

    private mutating func forgetOldest(at now: Date) {
        failures = failures.filter { _, dates in dates.contains { now.timeIntervalSince($0) < window } }
        while failures.count > maxClients,
            let oldest = failures.min(by: { ($0.value.last ?? now) < ($1.value.last ?? now) })?.key
        {
            failures[oldest] = nil
        }
    }
}
