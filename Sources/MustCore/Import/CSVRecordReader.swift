import CSV
import Foundation

/// One record of a CSV file, or why it could not be read; `line` is where it starts (the header is line 1).
public enum CSVRecord: Sendable, Equatable {
    case fields([String], line: Int)
    case malformed(line: Int, reason: String)
}

/// Reads a CSV file one record at a time, never whole: a 100,000-row file keeps one 64 KB buffer.
///
/// CSV.swift parses each record's fields (quotes, doubled quotes, commas and line breaks inside quotes). This type
/// only finds where each record starts, so that errors name a line and an unbalanced quote costs one row: read
/// straight through, CSV.swift takes everything after a stray quote, up to the end of the file, as one field.
public final class CSVRecordReader {
    /// A quoted field spanning more lines than this is taken for an unbalanced quote.
    public static let maximumLinesPerRecord = 50

    public let size: Int
    public private(set) var bytesRead = 0
    /// Bytes of the lines handed out so far: how far the records read reach into the file.
    public private(set) var position = 0
    /// The header's field count, once read: a record of several lines with another count is a stray quote.
    public var expectedFields: Int?

    private let handle: FileHandle
    private var buffer: [UInt8] = []
    private var start = 0
    private var atEnd = false
    private var lineNumber = 0
    /// Lines read ahead while looking for a closing quote, given back when there was none.
    private var returned: [(number: Int, text: [UInt8])] = []

    public init(path: String) throws {
        guard let handle = FileHandle(forReadingAtPath: path) else { throw CocoaError(.fileReadNoPermission) }
        self.handle = handle
        size = ((try? FileManager.default.attributesOfItem(atPath: path)[.size]) as? NSNumber)?.intValue ?? 0
    }

    deinit { try? handle.close() }

    /// The next record, skipping blank lines; nil at the end of the file.
    public func next() throws -> CSVRecord? {
        var first: (number: Int, text: [UInt8])
        repeat {
            guard let line = try nextLine() else { return nil }
            first = line
        } while first.text.allSatisfy { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
        var lines = [first]
        var quotes = Self.quotes(in: first.text)
        while quotes % 2 == 1, lines.count < Self.maximumLinesPerRecord, let more = try nextLine() {
            lines.append(more)
            quotes += Self.quotes(in: more.text)
        }
        if lines.count > 1 {
            // One record over several lines, when the library reads it as one row of the header's width.
            let rows = try Self.parse(lines.map(\.text))
            if quotes % 2 == 0, rows.count == 1, expectedFields.map({ rows[0].count == $0 }) ?? true {
                return .fields(rows[0], line: first.number)
            }
            // Else the quote opened no field (`The 12" Single`) or never closed: the first line alone, and the
            // others read again as records.
            returned.insert(contentsOf: lines.dropFirst(), at: 0)
        }
        let rows = try Self.parse([first.text])
        let balanced = Self.quotes(in: first.text) % 2 == 0
        // A short or long row is taken as it is (missing fields are empty), unless a quote ran over it.
        guard rows.count == 1, balanced || (expectedFields.map { rows[0].count == $0 } ?? true) else {
            return .malformed(line: first.number, reason: "an unbalanced quote")
        }
        return .fields(rows[0], line: first.number)
    }

    /// Every row CSV.swift reads from the lines joined by line feeds.
    private static func parse(_ lines: [[UInt8]]) throws -> [[String]] {
        let text = String(decoding: Array(lines.joined(separator: [UInt8(ascii: "\n")])), as: UTF8.self)
        let reader = try CSVReader(string: text, hasHeaderRow: false)
        var rows: [[String]] = []
        while let row = reader.next() { rows.append(row) }
        return rows.isEmpty ? [[""]] : rows
    }

    private static func quotes(in line: [UInt8]) -> Int {
        line.reduce(0) { $0 + ($1 == UInt8(ascii: "\"") ? 1 : 0) }
    }

    /// The next physical line without its line end (LF or CRLF), or nil at the end of the file.
    private func nextLine() throws -> (number: Int, text: [UInt8])? {
        if !returned.isEmpty { return returned.removeFirst() }
        while true {
            if let newline = buffer[start...].firstIndex(of: UInt8(ascii: "\n")) {
                var end = newline
                if end > start, buffer[end - 1] == UInt8(ascii: "\r") { end -= 1 }
                let line = Array(buffer[start..<end])
                position += newline + 1 - start
                start = newline + 1
                return numbered(line)
            }
            if atEnd {
                guard start < buffer.count else { return nil }
                var line = Array(buffer[start...])
                if line.last == UInt8(ascii: "\r") { line.removeLast() }
                position += buffer.count - start
                start = buffer.count
                return numbered(line)
            }
            try fill()
        }
    }

    private func numbered(_ line: [UInt8]) -> (number: Int, text: [UInt8]) {
        lineNumber += 1
        // A byte order mark is not part of the first field's name.
        if lineNumber == 1, line.starts(with: [0xEF, 0xBB, 0xBF]) { return (1, Array(line.dropFirst(3))) }
        return (lineNumber, line)
    }

    private func fill() throws {
        buffer.removeSubrange(0..<start)
        start = 0
        let chunk = try handle.read(upToCount: 64 << 10) ?? Data()
        if chunk.isEmpty { atEnd = true }
        bytesRead += chunk.count
        buffer.append(contentsOf: chunk)
    }
}
