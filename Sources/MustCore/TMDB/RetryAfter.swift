import Foundation

/// Parses `Retry-After` (RFC 9110): delta-seconds, or an HTTP date.
public enum RetryAfter {
    /// The wait the server asked for, at most `Durations.longest`: "9223372036854775807" became a Double just
    /// above Int.max and trapped where the error message rounded it back to an Int. The scheduler caps it
    /// further at `schedule.maximumInterval`, and the client waits out only what `RetryPolicy.maxDelay` allows.
    public static func seconds(_ value: String?, now: Date) -> TimeInterval? {
        guard let value = value?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
        if let seconds = Int(value) { return min(TimeInterval(max(0, seconds)), Durations.longest) }
        for format in formats {
            if let date = formatter(format).date(from: value) {
                return min(max(0, date.timeIntervalSince(now)), Durations.longest)
            }
        }
        return nil
    }

    // IMF-fixdate, then the two obsolete forms RFC 9110 still asks recipients to accept.
    private static let formats = [
        "EEE, dd MMM yyyy HH:mm:ss zzz", "EEEE, dd-MMM-yy HH:mm:ss zzz", "EEE MMM d HH:mm:ss yyyy",
    ]

    private static func formatter(_ format: String) -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = format
        return formatter
    }
}
