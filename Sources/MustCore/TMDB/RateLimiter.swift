import Foundation

/// Spaces requests evenly so that all operations together stay under `requestsPerSecond`.
/// A 429's Retry-After pauses everyone, not just the request that got it.
public actor RateLimiter {
    private let spacing: Duration
    private var nextSlot: ContinuousClock.Instant
    private let clock = ContinuousClock()

    public init(requestsPerSecond: Double) {
        spacing = .seconds(1 / max(requestsPerSecond, 0.001))
        nextSlot = clock.now
    }

    /// Waits for this caller's slot. Slots are handed out in call order.
    public func acquire() async {
        let now = clock.now
        let slot = max(now, nextSlot)
        nextSlot = slot + spacing
        if slot > now { try? await clock.sleep(until: slot) }
    }

    /// Pushes every later slot back by at least `seconds` from now.
    public func pause(for seconds: TimeInterval) {
        nextSlot = max(nextSlot, clock.now + .seconds(seconds))
    }
}
