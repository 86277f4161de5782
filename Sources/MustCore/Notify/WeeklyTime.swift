import Foundation

/// A time of the week such as "Fri 18:00", read in the page's time zone: when tonight's pick goes out.
public struct WeeklyTime: Sendable, Equatable, CustomStringConvertible {
    /// 1 is Sunday, as Foundation's Gregorian calendar counts.
    public var weekday: Int
    public var hour: Int
    public var minute: Int

    public init(weekday: Int, hour: Int, minute: Int) {
        (self.weekday, self.hour, self.minute) = (weekday, hour, minute)
    }

    static let days = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"]
    static let fullDays = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"]

    /// "Fri 18:00", "friday 7:30"; nil for anything else.
    public static func parse(_ text: String) -> WeeklyTime? {
        let parts = text.lowercased().split(separator: " ", omittingEmptySubsequences: true)
        guard parts.count == 2 else { return nil }
        let day = String(parts[0])
        guard let index = days.firstIndex(of: day) ?? fullDays.firstIndex(of: day) else { return nil }
        let clock = parts[1].split(separator: ":", omittingEmptySubsequences: false)
        guard clock.count == 2, (1...2).contains(clock[0].count), clock[1].count == 2,
            clock.allSatisfy({ $0.allSatisfy(\.isASCII) }), let hour = Int(clock[0]), let minute = Int(clock[1]),
            (0..<24).contains(hour), (0..<60).contains(minute)
        else { return nil }
        return WeeklyTime(weekday: index + 1, hour: hour, minute: minute)
    }

    public var description: String {
        let day = Self.days[weekday - 1]
        return day.prefix(1).uppercased() + day.dropFirst() + " " + String(format: "%02d:%02d", hour, minute)
    }

    /// The latest moment at or before `now` that this time of the week fell on, in `zone`.
    public func latest(atOrBefore now: Date, in zone: TimeZone) -> Date? {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let wanted = DateComponents(hour: hour, minute: minute, second: 0, weekday: weekday)
        // The next match after a week ago is this week's, or today's if it already passed.
        guard let weekAgo = calendar.date(byAdding: .day, value: -7, to: now),
            let next = calendar.nextDate(after: weekAgo, matching: wanted, matchingPolicy: .nextTime)
        else { return nil }
        guard next <= now else { return calendar.date(byAdding: .day, value: -7, to: next) }
        if let later = calendar.date(byAdding: .day, value: 7, to: next), later <= now { return later }
        return next
    }
}

/// When the weekly tonight message is due: at the first run after its time, once a week. Pure: the time is
/// passed in. A run more than 12 hours late sends nothing for that week: a Friday evening's pick read on Saturday
/// afternoon is no longer about tonight.
public enum TonightSchedule {
    public static let lateness: TimeInterval = 12 * 3600

    /// The occurrence to send for now, or nil when none is due; `lastSent` is the occurrence sent last.
    public static func due(_ time: WeeklyTime, now: Date, zone: TimeZone, lastSent: Date?) -> Date? {
        guard let occurrence = time.latest(atOrBefore: now, in: zone),
            now.timeIntervalSince(occurrence) < lateness
        else { return nil }
        if let lastSent, lastSent >= occurrence { return nil }
        return occurrence
    }
}
