import Foundation

/// Five wrong PINs for one profile within 15 minutes lock that profile for 15 minutes, the right PIN included.
/// Counted per profile, not per address: a guesser with many addresses gets no more tries. Pure: the caller passes
/// the time and keeps the value behind its own lock. Kept in memory: a restart of the server, which a guesser
/// cannot cause, forgets it.
public struct ProfileLockout: Sendable {
    public enum Decision: Sendable, Equatable {
        case allowed
        /// Locked; tried again after this many whole seconds.
        case locked(retryAfter: Int)
    }

    public var maxFailures = 5
    public var window: TimeInterval = 15 * 60
    public var lockFor: TimeInterval = 15 * 60
    private var failures: [Int64: [Date]] = [:]
    /// Tries whose PIN is being checked: counted as failures until they end, so tries sent at once cannot pass the
    /// limit between them.
    private var checking: [Int64: Int] = [:]
    private var lockedUntil: [Int64: Date] = [:]

    public init() {}

    /// Starts a try for `profile`: allowed, and counted until `end`, or refused while the profile is locked.
    public mutating func begin(_ profile: Int64, at now: Date) -> Decision {
        if let until = lockedUntil[profile] {
            if now < until { return .locked(retryAfter: max(1, Int(until.timeIntervalSince(now).rounded(.up)))) }
            lockedUntil[profile] = nil
        }
        let recent = (failures[profile] ?? []).filter { now.timeIntervalSince($0) < window }
        failures[profile] = recent.isEmpty ? nil : recent
        // Four failures and a try already being checked: this one waits for that one's answer.
        guard recent.count + checking[profile, default: 0] < maxFailures else { return .locked(retryAfter: 1) }
        checking[profile, default: 0] += 1
        return .allowed
    }

    /// Ends a try begun with `begin`: a wrong PIN is a failure, and the fifth within the window locks the profile.
    public mutating func end(_ profile: Int64, right: Bool, at now: Date) {
        let open = checking[profile, default: 1] - 1
        checking[profile] = open > 0 ? open : nil
        // The right PIN while not locked: whoever knows it starts the count again.
        guard !right else {
            failures[profile] = nil
            return
        }
        var recent = (failures[profile] ?? []).filter { now.timeIntervalSince($0) < window }
        recent.append(now)
        if recent.count >= maxFailures {
            lockedUntil[profile] = now.addingTimeInterval(lockFor)
            failures[profile] = nil
        } else {
            failures[profile] = recent
        }
    }
}
