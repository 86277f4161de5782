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
        while quotes % 2 == 1 {
            guard lines.count < Self.maximumLinesPerRecord, let more = try nextLine() else {
                return giveBack(lines, reason: "an unbalanced quote")
            }
            lines.append(more)
            quotes += Self.quotes(in: more.text)
        }
        let text = String(decoding: Array(lines.map(\.text).joined(separator: [UInt8(ascii: "\n")])), as: UTF8.self)
        let fields = try Self.parse(text)
        if lines.count > 1, let expectedFields, fields.count != expectedFields {
            return giveBack(lines, reason: "an unbalanced quote")
        }
        return .fields(fields, line: first.number)
    }

    /// Reports the first line of a record that never closed its quote and reads the others again as records.
    private func giveBack(_ lines: [(number: Int, text: [UInt8])], reason: String) -> CSVRecord {
        returned.insert(contentsOf: lines.dropFirst(), at: 0)
        return .malformed(line: lines[0].number, reason: reason)
    }

    private static func parse(_ text: String) throws -> [String] {
        let reader = try CSVReader(string: text, hasHeaderRow: false)
        return reader.next() ?? [""]
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
