import Foundation

/// Durations in config are seconds (a number) or a string such as "90s", "15m", "24h" or "7d".
public enum Durations {
    /// The longest duration mustc accepts anywhere, from config or a server: 10 years. Beyond it nothing is
    /// useful, and a Double of 1e300 seconds trapped when turned into a `Duration` (signal 4).
    public static let longest: TimeInterval = 10 * 365.25 * 86400

    private static let units: [(suffix: String, seconds: Double)] = [
        ("ms", 0.001), ("s", 1), ("m", 60), ("h", 3600), ("d", 86400),
    ]

    public static func parse(_ text: String) -> TimeInterval? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        for unit in units.sorted(by: { $0.suffix.count > $1.suffix.count }) where trimmed.hasSuffix(unit.suffix) {
            guard let value = Double(trimmed.dropLast(unit.suffix.count)), value.isFinite else { return nil }
            return value * unit.seconds
        }
        return Double(trimmed).flatMap { $0.isFinite ? $0 : nil }
    }

    /// The shortest exact rendering: 900 → "15m", 90 → "90s", 86400 → "24h".
    public static func format(_ seconds: TimeInterval) -> String {
        let whole = wholeSeconds(seconds)
        if whole >= 3600, whole % 3600 == 0 { return "\(whole / 3600)h" }
        if whole >= 60, whole % 60 == 0 { return "\(whole / 60)m" }
        return "\(whole)s"
    }

    /// A rough human reading of a span: "1d 2h", "15m", "42s".
    public static func approximate(_ seconds: TimeInterval) -> String {
        let whole = max(wholeSeconds(seconds), 0)
        let (days, hours, minutes) = (whole / 86400, whole % 86400 / 3600, whole % 3600 / 60)
        if days > 0 { return hours > 0 ? "\(days)d \(hours)h" : "\(days)d" }
        if hours > 0 { return minutes > 0 ? "\(hours)h \(minutes)m" : "\(hours)h" }
        if minutes > 0 { return "\(minutes)m" }
        return "\(whole)s"
    }

    /// "in 15m (2026-11-22T10:15:00Z)", or "due now" once `date` has passed.
    public static func describe(until date: Date, from now: Date) -> String {
        let wait = date.timeIntervalSince(now)
        return wait <= 0 ? "due now" : "in \(approximate(wait)) (\(ISO8601.string(date)))"
    }

    /// Rounded to whole seconds without trapping: Int(_:) traps on NaN, infinity and anything past Int.max.
    public static func wholeSeconds(_ seconds: TimeInterval) -> Int {
        guard !seconds.isNaN else { return 0 }
        return Int(min(max(seconds, -1e15), 1e15).rounded())
    }
}
