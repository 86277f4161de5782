import Foundation
import MustCore

/// How the pages write figures and text for people: a rating to one decimal, votes as "19.6k votes", a week's
/// move as an arrow and its size. The JSON API keeps every figure as TMDB sent it; only the pages round.
enum Shown {
    /// Untrusted text (TMDB titles, member names, file text) as the page shows it: every control character,
    /// text-direction overrides and isolates included, written out visibly by the terminal's own sanitiser, so a
    /// U+202E cannot reverse what follows it. The templates put the result inside `<bdi>`, so right-to-left text
    /// cannot reorder the page around it either.
    static func text(_ value: String) -> String { TerminalText.visible(value) }

    /// A watched day as the pages write dates: "1 Mar 2024" (a day has no time zone).
    static func day(_ day: WatchDay) -> String {
        let parts = day.text.split(separator: "-").compactMap { Int($0) }
        guard parts.count == 3, (1...12).contains(parts[1]) else { return day.text }
        return "\(parts[2]) \(months[parts[1] - 1]) \(parts[0])"
    }

    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// "8.4", or "–" when TMDB has no figure.
    static func rating(_ value: Double?) -> String { value.map(Charts.oneDecimal) ?? "–" }

    /// "19,650": whole numbers with separators, for tables and chart labels.
    static func count(_ value: Int?) -> String { value.map { Charts.whole(Double($0)) } ?? "–" }

    /// "1 vote", "850 votes", "19.6k votes", "196k votes", "1.2M votes"; "no votes yet" when unknown.
    static func votes(_ value: Int?) -> String {
        guard let value else { return "no votes yet" }
        return value == 1 ? "1 vote" : "\(people(value)) votes"
    }

    /// A count written as people say it: 850, 19.6k, 196k, 1.2M.
    static func people(_ value: Int) -> String {
        let size = Double(value.magnitude)
        let sign = value < 0 ? "-" : ""
        func scaled(_ unit: Double, _ suffix: String) -> String {
            let scaled = size / unit
            let text = scaled < 99.95 ? Charts.oneDecimal(scaled) : Charts.whole(scaled)
            return sign + (text.hasSuffix(".0") ? String(text.dropLast(2)) : text) + suffix
        }
        if size < 1000 { return "\(value)" }
        if size < 999_950 { return scaled(1000, "k") }
        return scaled(1_000_000, "M")
    }

    /// A week's move of the rating, as the page writes it: rounded to one decimal, and "steady" when that is 0.0
    /// (a move of 0.001 is not "+0.0").
    struct Move: Sendable, Equatable {
        /// "▲", "▼" or nil (steady): decoration, hidden from screen readers, which read `word`.
        var arrow: String?
        /// "up", "down" or "": the CSS class and the word screen readers get.
        var word: String
        /// "0.2", or "steady".
        var size: String

        init?(_ delta: Double?) {
            guard let delta, delta.isFinite else { return nil }
            let tenths = (delta * 10).rounded()
            if tenths == 0 {
                (arrow, word, size) = (nil, "", "steady")
            } else {
                (arrow, word, size) = tenths > 0 ? ("▲", "up", "") : ("▼", "down", "")
                size = Charts.oneDecimal(abs(tenths) / 10)
            }
        }

        var isSteady: Bool { word.isEmpty }
        /// "up 0.2", "down 0.1", "steady": the move in words.
        var words: String { isSteady ? size : "\(word) \(size)" }
    }
}

/// Times on the pages: one format everywhere, in the server's zone (`serve.timeZone`, default the system's), with
/// relative words where they help ("checked 12 minutes ago; next in 3 hours"). The API keeps UTC ISO 8601.
struct TimeText: Sendable {
    let zone: TimeZone
    let now: Date
    private let style: Date.VerbatimFormatStyle
    private let dayStyle: Date.VerbatimFormatStyle

    init(zone: TimeZone, now: Date) {
        self.zone = zone
        self.now = now
        let (locale, calendar) = (Locale(identifier: "en_US_POSIX"), Calendar(identifier: .gregorian))
        style = Date.VerbatimFormatStyle(
            format:
                "\(day: .defaultDigits) \(month: .abbreviated) \(year: .defaultDigits), \(hour: .twoDigits(clock: .twentyFourHour, hourCycle: .zeroBased)):\(minute: .twoDigits)",
            locale: locale, timeZone: zone, calendar: calendar)
        dayStyle = Date.VerbatimFormatStyle(
            format: "\(day: .defaultDigits) \(month: .abbreviated)", locale: locale, timeZone: zone,
            calendar: calendar)
    }

    /// The same clock and zone at another instant: pages made in one request share one "now".
    func at(_ now: Date) -> TimeText { TimeText(zone: zone, now: now) }

    /// "25 Nov 2026, 15:03"; "never" for no date.
    func time(_ date: Date?) -> String {
        guard let date else { return "never" }
        return date.formatted(style)
    }

    /// "25 Nov": a chart's axis.
    func day(_ date: Date) -> String { date.formatted(dayStyle) }

    /// "just now", "12 minutes ago", "3 hours ago", "2 days ago"; a time in the future reads as `until`.
    func ago(_ date: Date) -> String {
        let seconds = now.timeIntervalSince(date)
        if seconds < -60 { return until(date) }
        return seconds < 60 ? "just now" : Self.span(seconds) + " ago"
    }

    /// "in 3 hours", "in 12 minutes"; "now" once it has passed.
    func until(_ date: Date) -> String {
        let seconds = date.timeIntervalSince(now)
        return seconds < 60 ? "now" : "in " + Self.span(seconds)
    }

    /// "a minute", "12 minutes", "3 hours", "2 days": rounded to the unit people would say.
    static func span(_ seconds: TimeInterval) -> String {
        func unit(_ count: Int, _ name: String) -> String { count == 1 ? "1 \(name)" : "\(count) \(name)s" }
        let whole = Durations.wholeSeconds(seconds)
        if whole < 3600 { return unit(max(whole / 60, 1), "minute") }
        if whole < 36 * 3600 { return unit(Int((Double(whole) / 3600).rounded()), "hour") }
        return unit(Int((Double(whole) / 86400).rounded()), "day")
    }
}

extension WebPath {
    /// A query value, percent-encoded so `&`, `=`, `+` and `#` in a title survive.
    static func queryEncoded(_ value: String) -> String {
        value.addingPercentEncoding(withAllowedCharacters: queryValue) ?? ""
    }

    private static let queryValue = CharacterSet(
        charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")
}
