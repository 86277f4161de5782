import Foundation

/// How long a signed-in browser stays signed in: `lifetime` from its last use, so a phone used weekly never signs
/// in again, and one forgotten for a month must. Pure: the caller passes the time.
public struct SessionPolicy: Sendable, Equatable {
    public var lifetime: TimeInterval
    /// A use moves the last-use time only when it is this old: a page view must not cost a write each time.
    public var touchAfter: TimeInterval

    public init(lifetime: TimeInterval = 30 * 86_400, touchAfter: TimeInterval = 3_600) {
        self.lifetime = lifetime
        self.touchAfter = touchAfter
    }

    public func isLive(_ session: WebSession, at now: Date) -> Bool {
        now.timeIntervalSince(session.lastUsedAt) < lifetime
    }

    public func needsTouch(_ session: WebSession, at now: Date) -> Bool {
        now.timeIntervalSince(session.lastUsedAt) >= touchAfter
    }

    /// Sessions last used before this are over.
    public func expiredBefore(_ now: Date) -> Date { now.addingTimeInterval(-lifetime) }

    /// The cookie's Max-Age: a browser forgets it when the server would.
    public var cookieMaxAge: Int { Int(lifetime) }
}
