import Foundation

/// Spaces requests evenly so that all operations together stay under `requestsPerSecond`.
/// A 429's Retry-After pauses everyone, not just the request that got it.
public actor RateLimiter {
    private let spacing: Duration
    private var nextSlot: TimeSource.Instant
    private let time: TimeSource

    public init(requestsPerSecond: Double, time: TimeSource) {
        spacing = .seconds(1 / max(requestsPerSecond, 0.001))
        self.time = time
        nextSlot = time.instant
    }

    /// Waits for this caller's slot. Slots are handed out in call order.
    public func acquire() async {
        let now = time.instant
        let slot = max(now, nextSlot)
        nextSlot = slot.advanced(by: spacing)
        if slot > now { try? await time.sleep(for: now.duration(to: slot)) }
    }

    /// Pushes every later slot back by at least `seconds` from now.
    public func pause(for seconds: TimeInterval) {
        nextSlot = max(nextSlot, time.instant.advanced(by: .seconds(seconds)))
    }
}
