import Foundation

/// A calendar day as `YYYY-MM-DD`, the way Letterboxd, IMDb and mustc write the day a movie was watched.
/// Stored as that text: it sorts by date, and the sqlite3 CLI shows it as it is.
public struct WatchDay: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let text: String

    /// The day, when `text` is exactly four digits, a dash, two, a dash, two, and names a real day (no
    /// 2024-02-30) from 1870 to 2100; anything else (other layouts, times, spaces) is nil.
    public static func parse(_ text: String) -> WatchDay? {
        guard let (year, _, _) = calendarDay(text), years.contains(year) else { return nil }
        return WatchDay(text: text)
    }

    /// The years a watched day may fall in.
    public static let years = 1870...2100

    /// Why `text` is not a day someone watched a movie on, or nil when it is one, on or before `today`: a day written
    /// right but after today or before 1870 is said to be that, not "not a day".
    public static func problem(_ text: String, today: WatchDay) -> String? {
        guard let (year, _, _) = calendarDay(text) else { return "is not a day written YYYY-MM-DD" }
        if year < years.lowerBound { return "is too early: a watched day is in \(years.lowerBound) or later" }
        if year > years.upperBound || text > today.text { return "is after today (\(today.text))" }
        return nil
    }

    /// Whether `text` is a real day written YYYY-MM-DD, in any year.
    static func isCalendarDay(_ text: String) -> Bool { calendarDay(text) != nil }

    /// Year, month and day when `text` is exactly four digits, a dash, two, a dash, two, and names a real day.
    private static func calendarDay(_ text: String) -> (Int, Int, Int)? {
        let bytes = Array(text.utf8)
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-") else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for byte in bytes[range] {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
            (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year)
        else { return nil }
        return (year, month, day)
    }

    private init(text: String) { self.text = text }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// The day `date` falls on in `timeZone`: "today" is the user's day, not UTC's.
    public static func of(_ date: Date, in timeZone: TimeZone = .current) -> WatchDay {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        func padded(_ value: Int?, _ width: Int) -> String {
            let digits = String(value ?? 0)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return WatchDay(text: "\(padded(parts.year, 4))-\(padded(parts.month, 2))-\(padded(parts.day, 2))")
    }

    public var description: String { text }

    public static func < (lhs: WatchDay, rhs: WatchDay) -> Bool { lhs.text < rhs.text }
}
