import Foundation

public enum ReportFormat: String, CaseIterable, Sendable {
    case table, json, csv
}

/// Renders reports as an aligned text table, JSON or CSV (RFC 4180).
public enum ReportRenderer {
    public static func json<T: Encodable>(_ value: T) -> String {
        let encoder = ReportJSON.encoder()
        // Encoding plain values cannot fail; an empty object keeps the output valid JSON regardless.
        let data = (try? encoder.encode(value)) ?? Data("{}".utf8)
        return JSONEscapes.invisibleEscaped(String(decoding: data, as: UTF8.self))
    }

    /// - Parameter forTerminal: each field made visible as a table's cells are (`TerminalText.cell`): CSV printed
    ///   to a terminal. A file or a pipe gets the exact text.
    public static func csv(header: [String], rows: [[String]], forTerminal: Bool = false) -> String {
        ([header] + rows).map { $0.map { csvField($0, forTerminal: forTerminal) }.joined(separator: ",") }
            .joined(separator: "\r\n") + "\r\n"
    }

    /// Every cell these reports write is text or a non-negative figure, so every one is guarded against
    /// spreadsheet formulas (`SpreadsheetText`); a figure never starts with a character it guards.
    private static func csvField(_ field: String, forTerminal: Bool) -> String {
        let field = SpreadsheetText.guarded(forTerminal ? TerminalText.cell(field) : field)
        guard needsCSVQuotes(field) else { return field }
        return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// Checked on bytes; characters are only looked at for Unicode line breaks, when there is non-ASCII text.
    static func needsCSVQuotes(_ field: String) -> Bool {
        field.containsByte { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == 0x0A || $0 == 0x0D }
            || (field.containsByte { $0 >= 0x80 } && field.contains(where: \.isNewline))
    }

    /// The most characters a table cell shows; a longer one is cut with `…` (JSON and CSV keep the full text).
    public static let cellWidth = 60

    /// Columns padded to their widest cell, measured in characters, one line per row.
    /// Cells are made terminal-safe first (`TerminalText.cell`: a newline shows as `\n`) and cut at `cellWidth`,
    /// so widths are counted on what is shown.
    public static func table(header: [String], rows: [[String]], indent: String = "") -> String {
        let rows = rows.map { $0.map { TerminalText.cut(TerminalText.cell($0), width: cellWidth) } }
        var widths = header.map(\.count)
        for row in rows {
            for (index, cell) in row.enumerated() { widths[index] = max(widths[index], cell.count) }
        }
        func line(_ cells: [String]) -> String {
            let padded = cells.enumerated().map { index, cell in
                index == cells.count - 1 ? cell : cell + String(repeating: " ", count: widths[index] - cell.count)
            }
            return indent + padded.joined(separator: "  ")
        }
        return ([line(header)] + rows.map(line)).joined(separator: "\n")
    }
}
