import Foundation

/// How a movie's figures moved over a window (`ratings --trend`): the current figure minus the figure at the start
/// of the window, or minus the movie's first figures when its history starts inside the window. Zero when nothing
/// changed; a figure unknown at either end has no delta (null).
public struct MovieTrend: Sendable, Equatable, Encodable {
    public var since: Date
    @NullWhenAbsent public var popularity: Double?
    @NullWhenAbsent public var voteAverage: Double?
    @NullWhenAbsent public var voteCount: Int?

    public init(since: Date, popularity: Double?, voteAverage: Double?, voteCount: Int?) {
        self.since = since
        self.popularity = popularity
        self.voteAverage = voteAverage
        self.voteCount = voteCount
    }

    /// `current − start`, figure by figure; differences are rounded to 6 decimals so that 8.1 − 7.9 reads 0.2.
    public init(since: Date, start: Figures, current: Figures) {
        func minus(_ now: Double?, _ then: Double?) -> Double? {
            guard let now, let then else { return nil }
            return FigureText.difference(now, then)
        }
        let votes = current.voteCount.flatMap { now in start.voteCount.map { now - $0 } }
        self.init(
            since: since, popularity: minus(current.popularity, start.popularity),
            voteAverage: minus(current.voteAverage, start.voteAverage), voteCount: votes)
    }
}

/// Signed deltas and "before → after" cells for the text tables.
public enum Trend {
    /// " (+0.2)" or " (-0.037)"; empty when nothing changed, or the change is unknown.
    public static func suffix(_ delta: Double?) -> String {
        guard let delta, delta != 0 else { return "" }
        return " (\(delta < 0 ? "-" : "+")\(FigureText.table(abs(delta))))"
    }

    public static func suffix(_ delta: Int?) -> String {
        guard let delta, delta != 0 else { return "" }
        return " (\(delta < 0 ? "-" : "+")\(abs(delta)))"
    }

    /// "7.9 → 8.1 (+0.2)", "8.4 → 8.437 (+0.037)", with "–" for an unknown figure.
    public static func moved(_ first: Double?, _ last: Double?) -> String {
        let delta = first.flatMap { first in last.map { FigureText.difference($0, first) } }
        return (first.map(FigureText.table) ?? "–") + " → " + (last.map(FigureText.table) ?? "–") + suffix(delta)
    }

    public static func moved(_ first: Int?, _ last: Int?) -> String {
        let delta = first.flatMap { first in last.map { $0 - first } }
        return (first.map(String.init) ?? "–") + " → " + (last.map(String.init) ?? "–") + suffix(delta)
    }
}

/// A row of block characters, low to high, for figures over time: "▁▂▄▇▅".
public enum Sparkline {
    static let blocks: [Character] = ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]

    /// At most `width` characters: a longer series is sampled evenly, keeping its first and last points. Empty for
    /// fewer than two known points; a flat series is a flat line.
    public static func make(_ values: [Double?], width: Int = 16) -> String {
        let known = values.compactMap { $0 }.filter(\.isFinite)
        guard known.count >= 2, width >= 2 else { return "" }
        let points =
            known.count <= width
            ? known : (0..<width).map { known[$0 * (known.count - 1) / (width - 1)] }
        guard let low = points.min(), let high = points.max(), high > low else {
            return String(repeating: blocks[3], count: points.count)
        }
        return String(points.map { blocks[Int(((($0 - low) / (high - low)) * 7).rounded())] })
    }
}

/// Figures as text for people. TMDB sends vote averages with up to 3 decimals and popularity with up to 6: a table
/// that rounded to one decimal printed 8.4 → 8.4 for a move to 8.437, so figures are shown as TMDB sent them (the
/// shortest text that reads back as the same number), and two different figures never print alike.
public enum FigureText {
    /// At least one decimal, for the tables' columns: "8.0", "8.437", "93.491722".
    public static func table(_ value: Double) -> String {
        let text = plain(value)
        return text.contains(".") || !value.isFinite ? text : text + ".0"
    }

    /// For sentences: "10", "8.437".
    public static func plain(_ value: Double) -> String {
        guard value.isFinite else { return "\(value)" }
        var text = "\(value)"
        // Swift writes very small and very large numbers with an exponent; people read positional digits.
        if text.contains("e") { text = String(format: "%.6f", value) }
        if text.hasSuffix(".0") { text.removeLast(2) }
        return text
    }

    /// `now − then` rounded to 6 decimals (finer than any figure TMDB sends), so 8.437 − 8.4 is 0.037, not
    /// 0.0370000000000008.
    public static func difference(_ now: Double, _ then: Double) -> Double {
        ((now - then) * 1e6).rounded() / 1e6
    }
}
