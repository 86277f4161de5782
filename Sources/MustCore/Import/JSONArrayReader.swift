import Foundation

/// The elements of one JSON array (a file of Trakt's export), one at a time, from a source read once, front to back:
/// only the current element's bytes are held, and one longer than 64 KB is skipped as it is read (no Trakt entry
/// comes near it), so memory does not grow with the file. Each element is parsed by the caller; a broken one costs
/// that entry only.
final class JSONArrayReader {
    static let maximumElementBytes = 64 << 10

    enum Element {
        /// The element's bytes; `number` counts elements from 1.
        case value([UInt8], number: Int)
        case malformed(number: Int, reason: String)
    }

    private let source: any ByteSource
    private var buffer: [UInt8] = []
    private var index = 0
    private var atEnd = false
    private var finished = false
    private var number = 0
    /// Bytes read so far.
    private(set) var position = 0

    init(source: any ByteSource) {
        self.source = source
    }

    /// Reads up to the array's opening bracket; throws when the input is not a JSON array.
    func start() throws {
        if try peek() == 0xEF {
            for _ in 0..<3 { if try peek() != nil { advance() } }
        }
        try skipBlank()
        guard try peek() == UInt8(ascii: "[") else {
            throw ImportInputProblem.notJSONArray
        }
        advance()
    }

    /// The next element, or nil after the closing bracket (or at the end of a file cut short).
    func next() throws -> Element? {
        guard !finished else { return nil }
        try skipBlank()
        if try peek() == UInt8(ascii: ",") {
            advance()
            try skipBlank()
        }
        guard let first = try peek() else {
            finished = true
            return nil
        }
        if first == UInt8(ascii: "]") {
            finished = true
            return nil
        }
        number += 1
        return try element()
    }

    /// Reads one element up to the comma or bracket that ends it, outside strings and nested values.
    private func element() throws -> Element {
        var bytes: [UInt8] = []
        var (nesting, overlong) = (JSONNesting(), false)
        while let byte = try peek() {
            if !nesting.inString, nesting.depth == 0, byte == UInt8(ascii: ",") || byte == UInt8(ascii: "]") {
                break
            }
            advance()
            if !overlong {
                bytes.append(byte)
                if bytes.count > Self.maximumElementBytes { (overlong, bytes) = (true, []) }
            }
            nesting.read(byte)
        }
        if overlong { return .malformed(number: number, reason: "the entry is longer than 64 KB") }
        if nesting.depth > 0 || nesting.inString {
            finished = true
            return .malformed(number: number, reason: "the file ends inside this entry (cut short?)")
        }
        while let last = bytes.last, [0x20, 0x09, 0x0A, 0x0D].contains(last) { bytes.removeLast() }
        return .value(bytes, number: number)
    }

    private func skipBlank() throws {
        while let byte = try peek(), [0x20, 0x09, 0x0A, 0x0D].contains(byte) { advance() }
    }

    private func peek() throws -> UInt8? {
        if index == buffer.count {
            guard !atEnd else { return nil }
            buffer = try source.read(upTo: 64 << 10)
            index = 0
            if buffer.isEmpty {
                atEnd = true
                return nil
            }
        }
        return buffer[index]
    }

    private func advance() {
        index += 1
        position += 1
    }
}
