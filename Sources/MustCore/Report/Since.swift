import Foundation

/// The start of a window typed on the command line: a duration back from now ("2d", "36h", "90m", or seconds) or a
/// date ("2026-11-20", midnight UTC, as every time mustc prints is UTC; or "2026-11-20T08:00:00Z" with any offset).
public enum Since {
    public static func parse(_ text: String, now: Date) -> Date? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if let seconds = Durations.parse(trimmed) {
            return seconds > 0 ? now.addingTimeInterval(-seconds) : nil
        }
        let dateOnly = ISO8601DateFormatter()
        dateOnly.formatOptions = [.withFullDate]
        if trimmed.count == 10, let date = dateOnly.date(from: trimmed) { return date }
        let dateTime = ISO8601DateFormatter()
        if let date = dateTime.date(from: trimmed) { return date }
        dateTime.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return dateTime.date(from: trimmed)
    }
}
