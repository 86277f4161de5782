import Foundation
import MustCore

/// A line drawn in an SVG viewBox: its points and the figures it shows, so the page can give the same figures as
/// text. Made from plain values, without I/O, so the geometry is tested as it is.
public struct ChartLine: Sendable, Equatable {
    public var width: Int
    public var height: Int
    /// The polyline's `points` attribute: "x,y x,y …", y growing downwards as SVG's does.
    public var points: String
    /// The lowest and highest figure drawn, as the axis labels show them.
    public var low: String
    public var high: String
    /// Every figure drawn, in order, as text: the chart's text alternative.
    public var figures: [String]
}

public enum Charts {
    /// A sparkline of figures in order (evenly spaced): nil for no known figure; one figure is a flat line.
    public static func sparkline(
        _ values: [Double?], width: Int = 80, height: Int = 20, floor: Double = 0,
        format: (Double) -> String = FigureText.table
    ) -> ChartLine? {
        let known = values.compactMap { $0 }.filter(\.isFinite)
        guard !known.isEmpty else { return nil }
        let xs: [Double] =
            known.count == 1
            ? [0, Double(width)] : known.indices.map { Double($0) * Double(width) / Double(known.count - 1) }
        let ys = known.count == 1 ? [known[0], known[0]] : known
        return line(xs: xs, values: ys, shown: known, width: width, height: height, floor: floor, format: format)
    }

    /// A line of dated figures, x by time from the first date to the last; unknown or non-finite figures are left
    /// out. Nil when no figure is known.
    public static func timeline(
        _ points: [(at: Date, value: Double?)], width: Int = 320, height: Int = 120, floor: Double = 0,
        format: (Double) -> String = FigureText.table
    ) -> ChartLine? {
        let known = points.compactMap { point in point.value.flatMap { $0.isFinite ? (point.at, $0) : nil } }
        guard let first = known.first, let last = known.last else { return nil }
        let span = last.0.timeIntervalSince(first.0)
        let xs: [Double] =
            if known.count == 1 {
                [0, Double(width)]
            } else if span > 0 {
                known.map { $0.0.timeIntervalSince(first.0) / span * Double(width) }
            } else {
                // Every figure at the same instant: spread evenly rather than stacked.
                known.indices.map { Double($0) * Double(width) / Double(known.count - 1) }
            }
        let values = known.count == 1 ? [first.1, first.1] : known.map(\.1)
        return line(
            xs: xs, values: values, shown: known.map(\.1), width: width, height: height, floor: floor, format: format)
    }

    /// The range drawn: the figures' own, widened about its middle to at least `floor` so that a move of 0.001
    /// on a rating chart with a floor of 0.5 stays a flat line instead of filling the chart.
    public static func range(_ values: [Double], floor: Double) -> (low: Double, high: Double) {
        let (low, high) = (values.min() ?? 0, values.max() ?? 0)
        guard floor > 0, high - low < floor else { return (low, high) }
        let middle = (low + high) / 2
        return (middle - floor / 2, middle + floor / 2)
    }

    private static func line(
        xs: [Double], values: [Double], shown: [Double], width: Int, height: Int, floor: Double,
        format: (Double) -> String
    ) -> ChartLine {
        let (low, high) = range(values, floor: floor)
        // A flat series sits in the middle; otherwise the lowest figure touches the bottom, the highest the top,
        // with a pixel of margin so the stroke is not clipped.
        let margin = 1.0
        let usable = Double(height) - 2 * margin
        let ys = values.map { value in
            high > low ? margin + (high - value) / (high - low) * usable : Double(height) / 2
        }
        let points = zip(xs, ys).map { "\(oneDecimal($0)),\(oneDecimal($1))" }.joined(separator: " ")
        return ChartLine(
            width: width, height: height, points: points, low: format(low), high: format(high),
            figures: shown.map(format))
    }

    /// "%.1f" without Foundation's formatter: "7.9", "-0.5", "12000.0".
    public static func oneDecimal(_ value: Double) -> String {
        guard value.isFinite else { return "\(value)" }
        let tenths = Int64((abs(value) * 10).rounded())
        return (value < 0 && tenths > 0 ? "-" : "") + "\(tenths / 10).\(tenths % 10)"
    }

    /// Whole numbers with thousands separators: "12,000".
    public static func whole(_ value: Double) -> String {
        guard value.isFinite else { return "\(value)" }
        let number = Int64(value.rounded())
        var digits = String(abs(number))
        var groups: [Substring] = []
        while digits.count > 3 {
            groups.insert(Substring(digits.suffix(3)), at: 0)
            digits.removeLast(3)
        }
        groups.insert(Substring(digits), at: 0)
        return (number < 0 ? "-" : "") + groups.joined(separator: ",")
    }
}
