import CSV
import Foundation

/// One record of a CSV file, or why it could not be read; `line` is where it starts (the header is line 1).
public enum CSVRecord: Sendable, Equatable {
    case fields([String], line: Int)
    case malformed(line: Int, reason: String)
}

/// Reads a list one record at a time from a source read once, front to back: a file, a pipe, a zip entry.
///
/// Memory stays flat whatever the input: at most a 64 KB window of the current line is held, a longer line is
/// skipped to its end and reported (a 50 MB line took 477 MB before this bound). CSV.swift parses each record's
/// fields; this type finds where each record starts (LF, CRLF or a lone CR ends a line), so that errors name a line
/// and an unbalanced quote costs one row, and it decodes each line (UTF-8, else Windows-1252; UTF-16 is turned
/// into UTF-8 as it is read).
public final class CSVRecordReader {
    /// A quoted field spanning more lines than this is taken for an unbalanced quote.
    public static let maximumLinesPerRecord = 50
    /// A record longer than this is invalid: no list has titles this long, and holding it costs memory.
    public static let maximumRecordBytes = 64 << 10
    static let chunkSize = 64 << 10

    /// The file's size when known (a regular file); nil for a stream.
    public let size: Int?
    /// Bytes of the lines handed out so far: how far the records read reach into the input.
    public private(set) var position = 0
    /// The header's field count, once read: a record of several lines with another count is a stray quote.
    public var expectedFields: Int?
    /// The field separator: a tab for Excel's "Unicode text" (a header with tabs and no comma), else a comma.
    public private(set) var delimiter = UInt8(ascii: ",")
    /// The encoding read so far: Windows-1252 as soon as one line was not UTF-8 (without `--encoding`).
    public private(set) var encoding: ListEncoding

    private var source: any ByteSource
    private let forced: ListEncoding?
    private var prepared = false
    private var sawHeader = false
    private var buffer: [UInt8] = []
    private var start = 0
    private var atEnd = false
    private var lineNumber = 0
    /// Lines read ahead while looking for a closing quote, given back when there was none.
    private var returned: [Line] = []

    struct Line {
        var number: Int
        var text: [UInt8]
        /// Longer than `maximumRecordBytes`: `text` is only its start, kept for the message.
        var overlong = false
    }

    init(source: any ByteSource, size: Int?, encoding forced: ListEncoding? = nil) {
        self.source = source
        self.size = size
        self.forced = forced
        encoding = forced ?? .utf8
    }

    /// Reads the file at `path` ("-" is standard input).
    public convenience init(path: String, encoding: ListEncoding? = nil, interrupt: ReadInterrupt = ReadInterrupt())
        throws
    {
        let input = try ListInput(path: path, interrupt: interrupt)
        self.init(source: input, size: input.size, encoding: encoding)
    }

    /// The next record, skipping blank lines; nil at the end of the input.
    public func next() throws -> CSVRecord? {
        var first: Line
        repeat {
            guard let line = try nextLine() else { return nil }
            first = line
        } while !first.overlong && first.text.allSatisfy { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
        if first.overlong {
            return .malformed(line: first.number, reason: "it is longer than 64 KB: \(excerpt(first.text))")
        }
        if !sawHeader {
            sawHeader = true
            chooseDelimiter(first.text)
        }
        var scan = QuoteScan(delimiter: delimiter)
        scan.feed(first.text)
        if scan.open { return try continued(first, scan) }
        if scan.textAfterQuote {
            return .malformed(line: first.number, reason: "text follows a closing quote: \(excerpt(first.text))")
        }
        return try record([first])
    }

    /// Sets the delimiter from the header line.
    private func chooseDelimiter(_ header: [UInt8]) {
        if header.contains(UInt8(ascii: "\t")), !header.contains(UInt8(ascii: ",")) { delimiter = UInt8(ascii: "\t") }
    }

    /// A record whose quoted field goes on past its first line: read on until the quote closes, within the bounds.
    private func continued(_ first: Line, _ opened: QuoteScan) throws -> CSVRecord? {
        var scan = opened
        var lines = [first]
        var bytes = first.text.count
        while scan.open, !scan.textAfterQuote, lines.count < Self.maximumLinesPerRecord, let more = try nextLine() {
            lines.append(more)
            bytes += more.text.count + 1
            if more.overlong || bytes > Self.maximumRecordBytes { break }
            scan.feed(more.text)
        }
        if !scan.open, !scan.textAfterQuote, bytes <= Self.maximumRecordBytes, !lines.contains(where: \.overlong),
            case .fields(let fields, _)? = try record(lines),
            expectedFields.map({ fields.count == $0 }) ?? true
        {
            return .fields(fields, line: first.number)
        }
        // The quote never closed, or closing it made no row of the header's width: the first line alone is
        // invalid, and the others are read again as records.
        returned.insert(contentsOf: lines.dropFirst(), at: 0)
        return .malformed(line: first.number, reason: "an unbalanced quote: \(excerpt(first.text))")
    }

    /// The fields of a record whose quotes balance, decoded.
    private func record(_ lines: [Line]) throws -> CSVRecord? {
        let bytes = Array(lines.map(\.text).joined(separator: [UInt8(ascii: "\n")]))
        guard let text = decode(bytes) else {
            return .malformed(
                line: lines[0].number,
                reason: "it is not UTF-8 text (read with --encoding windows-1252?): \(excerpt(bytes))")
        }
        if (source as? UTF16Source)?.sawInvalid == true, text.unicodeScalars.contains("\u{FFFD}") {
            return .malformed(line: lines[0].number, reason: "it is not valid UTF-16: \(excerpt(bytes))")
        }
        let reader = try CSVReader(
            string: text, hasHeaderRow: false, delimiter: Unicode.Scalar(delimiter))
        var rows: [[String]] = []
        while let row = reader.next() { rows.append(row) }
        guard rows.count <= 1 else {
            return .malformed(line: lines[0].number, reason: "an unbalanced quote: \(excerpt(bytes))")
        }
        // A byte order mark inside a field (lists pasted together) is no part of a title.
        let fields = (rows.first ?? [""]).map {
            $0.contains("\u{FEFF}") ? $0.replacingOccurrences(of: "\u{FEFF}", with: "") : $0
        }
        return .fields(fields, line: lines[0].number)
    }

    /// A line's text: UTF-8 when it is valid UTF-8, else Windows-1252 (unless `--encoding utf-8` said otherwise).
    private func decode(_ bytes: [UInt8]) -> String? {
        switch forced {
        case .windows1252:
            return ListEncoding.windows1252(bytes)
        case .utf16:
            return String(decoding: bytes, as: UTF8.self)
        case .utf8:
            return String(validating: bytes, as: UTF8.self)
        case nil:
            if let text = String(validating: bytes, as: UTF8.self) { return text }
            if encoding == .utf8 { encoding = .windows1252 }
            return ListEncoding.windows1252(bytes)
        }
    }

    /// At most 80 characters of what was read, control characters made visible, for a message.
    private func excerpt(_ bytes: [UInt8]) -> String {
        let text = String(validating: bytes.prefix(400), as: UTF8.self) ?? ListEncoding.windows1252(bytes.prefix(400))
        return Excerpt.quoted(text)
    }

    /// The next physical line without its line end, or nil at the end of the input.
    private func nextLine() throws -> Line? {
        if !returned.isEmpty { return returned.removeFirst() }
        if !prepared { try prepare() }
        var overlong: [UInt8]?
        while true {
            if let (end, next) = lineEnd() {
                return ended(at: end, next: next, overlong)
            }
            if atEnd {
                guard start < buffer.count || overlong != nil else { return nil }
                return ended(at: buffer.count, next: buffer.count, overlong)
            }
            if overlong == nil, buffer.count - start > Self.maximumRecordBytes {
                overlong = Array(buffer[start..<start + 400])
            }
            if overlong != nil {
                // Past the bound, the rest of the line is dropped as it comes: memory stays at one chunk.
                consume(to: buffer.count)
            }
            try fill()
        }
    }

    /// The line from `start` to `end` (or the start kept of an overlong one), the next line beginning at `next`.
    private func ended(at end: Int, next: Int, _ overlong: [UInt8]?) -> Line {
        // Two reads can hold a whole line past the bound: it is as invalid as one that was dropped as it came.
        let kept = overlong ?? (end - start > Self.maximumRecordBytes ? Array(buffer[start..<start + 400]) : nil)
        let line = kept ?? Array(buffer[start..<end])
        consume(to: next)
        return numbered(line, overlong: kept != nil)
    }

    private func numbered(_ text: [UInt8], overlong: Bool) -> Line {
        lineNumber += 1
        return Line(number: lineNumber, text: text, overlong: overlong)
    }

    private func consume(to next: Int) {
        position += next - start
        start = next
    }

    /// Where the line at `start` ends, and where the next one begins: at LF, CRLF or a CR alone (old Mac lists).
    private func lineEnd() -> (end: Int, next: Int)? {
        let count = buffer.count - start
        guard count > 0 else { return nil }
        let start = start
        let atEnd = atEnd
        return buffer.withUnsafeBytes { all -> (Int, Int)? in
            let base = all.baseAddress! + start
            let feed = memchr(base, 0x0A, count).map { UnsafeRawPointer($0) - base }
            if let cr = memchr(base, 0x0D, feed ?? count).map({ UnsafeRawPointer($0) - base }) {
                if cr + 1 < count { return (start + cr, start + cr + (feed == cr + 1 ? 2 : 1)) }
                // A CR at the end of what was read: an LF may follow in the next read.
                return atEnd ? (start + cr, start + cr + 1) : nil
            }
            return feed.map { (start + $0, start + $0 + 1) }
        }
    }

    private func fill() throws {
        buffer.removeSubrange(0..<start)
        start = 0
        let chunk = try source.read(upTo: Self.chunkSize)
        if chunk.isEmpty { atEnd = true }
        buffer.append(contentsOf: chunk)
    }

    /// Reads the first bytes and decides how the input is written: a byte order mark, UTF-16, or not text at all.
    private func prepare() throws {
        prepared = true
        var first = try source.read(upTo: Self.chunkSize)
        // A pipe can hand over a byte at a time: the first four decide the byte order mark.
        while first.count < 4 {
            let more = try source.read(upTo: Self.chunkSize)
            if more.isEmpty { break }
            first += more
        }
        switch ListEncoding.detect(first, forced: forced) {
        case .binary:
            throw ImportInputProblem.binary(Excerpt.quoted(ListEncoding.windows1252(first.prefix(40))))
        case .utf16(let bigEndian, let bom):
            encoding = .utf16
            // Progress counts the UTF-8 the lines became, about half the file's bytes: close enough for a bar.
            position = bom
            source = UTF16Source(source, bigEndian: bigEndian, pending: Array(first.dropFirst(bom)))
            first = try source.read(upTo: Self.chunkSize)
        case .bytes(let bom):
            position = bom
            first.removeFirst(bom)
        }
        if first.isEmpty { atEnd = true }
        buffer = first
    }
}

/// An input that is not a list at all.
enum ImportInputProblem: Error, CustomStringConvertible {
    case binary(String)
    case notJSONArray

    var description: String {
        switch self {
        case .binary(let start): "it is a binary file, not a text list (it starts \(start))"
        case .notJSONArray: "it is not a JSON array, as each file of Trakt's export is"
        }
    }
}

/// Where a record's quotes stand, byte by byte: a quoted field may hold delimiters, line breaks and doubled quotes,
/// and its closing quote must be followed by a delimiter or the line's end. A quote inside an unquoted field
/// (`The 12" Single`) is a character like any other.
struct QuoteScan {
    private enum State { case fieldStart, unquoted, quoted, closing }
    private var state = State.fieldStart
    let delimiter: UInt8
    /// A closing quote followed by text (`"Closed" trailing`): the row is invalid.
    private(set) var textAfterQuote = false

    init(delimiter: UInt8) { self.delimiter = delimiter }

    /// Inside a quoted field at the end of the line: the record goes on.
    var open: Bool { state == .quoted }

    mutating func feed(_ line: [UInt8]) {
        let quote = UInt8(ascii: "\"")
        for byte in line {
            switch state {
            case .fieldStart: state = byte == quote ? .quoted : byte == delimiter ? .fieldStart : .unquoted
            case .unquoted: if byte == delimiter { state = .fieldStart }
            case .quoted: if byte == quote { state = .closing }
            case .closing:
                if byte == quote {
                    state = .quoted
                } else if byte == delimiter {
                    state = .fieldStart
                } else {
                    textAfterQuote = true
                    return
                }
            }
        }
        if state != .quoted { state = .fieldStart }
    }
}
