import Foundation

/// Pretty-printed JSON written straight into bytes, in the layout `ReportRenderer.json` produces.
/// Used for the ratings report, where JSONEncoder took three quarters of a 100,000-movie run. With `emit`, the
/// bytes go out in chunks as they are made, so a large report never sits in memory whole.
struct JSONText {
    private var bytes: [UInt8] = []
    private var depth = 0
    private let chunkSize: Int
    private let emit: ((UnsafeRawBufferPointer) -> Void)?

    init(capacity: Int) {
        bytes.reserveCapacity(capacity)
        chunkSize = .max
        emit = nil
    }

    init(chunkSize: Int, emit: @escaping (UnsafeRawBufferPointer) -> Void) {
        bytes.reserveCapacity(chunkSize + 4096)
        self.chunkSize = chunkSize
        self.emit = emit
    }

    var text: String { String(decoding: bytes, as: UTF8.self) }

    /// Hands the bytes made so far to `emit` once a chunk is full; `force` at the end.
    mutating func flush(force: Bool = false) {
        guard let emit, force || bytes.count >= chunkSize else { return }
        bytes.withUnsafeBytes(emit)
        bytes.removeAll(keepingCapacity: true)
    }

    mutating func open(_ bracket: Unicode.Scalar) {
        bytes.append(UInt8(bracket.value))
        depth += 1
    }

    mutating func close(_ bracket: Unicode.Scalar, empty: Bool) {
        depth -= 1
        if !empty { newline() }
        bytes.append(UInt8(bracket.value))
    }

    /// Starts an element of the open object or array: a comma after the first, then a new indented line.
    mutating func element(first: Bool) {
        if !first { bytes.append(UInt8(ascii: ",")) }
        newline()
    }

    mutating func key(_ name: String) {
        string(name)
        bytes.append(contentsOf: " : ".utf8)
    }

    mutating func string(_ value: String) {
        bytes.append(UInt8(ascii: "\""))
        let plain =
            value.utf8.withContiguousStorageIfAvailable { utf8 in
                for byte in utf8 where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                    return false
                }
                return true
            } ?? false
        if plain {
            bytes.append(contentsOf: value.utf8)
        } else {
            for byte in value.utf8 { escape(byte) }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// A quoted ISO 8601 timestamp, or null.
    mutating func timestamp(_ date: Date?) {
        guard let date else { return null() }
        bytes.append(UInt8(ascii: "\""))
        ISO8601.write(date, into: &bytes)
        bytes.append(UInt8(ascii: "\""))
    }

    private mutating func escape(_ byte: UInt8) {
        switch byte {
        case UInt8(ascii: "\""): bytes.append(contentsOf: "\\\"".utf8)
        case UInt8(ascii: "\\"): bytes.append(contentsOf: "\\\\".utf8)
        case UInt8(ascii: "\n"): bytes.append(contentsOf: "\\n".utf8)
        case UInt8(ascii: "\r"): bytes.append(contentsOf: "\\r".utf8)
        case UInt8(ascii: "\t"): bytes.append(contentsOf: "\\t".utf8)
        case ..<0x20:
            let hex = String(byte, radix: 16)
            bytes.append(contentsOf: ("\\u" + String(repeating: "0", count: 4 - hex.count) + hex).utf8)
        default: bytes.append(byte)
        }
    }

    mutating func number(_ value: Double?) {
        guard let value, value.isFinite else { return null() }
        // Whole numbers without ".0", as JSONEncoder writes them; otherwise Swift's shortest round-trip form.
        let text = value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : "\(value)"
        bytes.append(contentsOf: text.utf8)
    }

    mutating func number(_ value: Int?) {
        guard let value else { return null() }
        bytes.append(contentsOf: String(value).utf8)
    }

    mutating func string(_ value: String?) {
        guard let value else { return null() }
        string(value)
    }

    mutating func null() { bytes.append(contentsOf: "null".utf8) }

    private mutating func newline() {
        bytes.append(UInt8(ascii: "\n"))
        bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * depth))
    }
}

extension RatingsReport {
    /// The JSON contract, keys sorted, nulls explicit; equal to `ReportRenderer.json(self)` once parsed.
    var json: String {
        var out = JSONText(capacity: 256 + members.reduce(0) { $0 + 64 + $1.movies.count * 220 })
        write(to: &out)
        return out.text
    }

    /// The same JSON, handed to `emit` in chunks of about 64 KB as it is made.
    public func writeJSON(_ emit: @escaping (UnsafeRawBufferPointer) -> Void) {
        var out = JSONText(chunkSize: 64 << 10, emit: emit)
        write(to: &out)
        out.flush(force: true)
    }

    private func write(to out: inout JSONText) {
        out.open("{")
        out.element(first: true)
        out.key("members")
        out.open("[")
        for (index, member) in members.enumerated() {
            out.element(first: index == 0)
            out.open("{")
            out.element(first: true)
            out.key("movies")
            out.open("[")
            for (position, movie) in member.movies.enumerated() {
                out.element(first: position == 0)
                movie.write(to: &out)
                out.flush()
            }
            out.close("]", empty: member.movies.isEmpty)
            out.element(first: false)
            out.key("name")
            out.string(member.name)
            out.close("}", empty: false)
        }
        out.close("]", empty: members.isEmpty)
        out.close("}", empty: false)
    }
}

extension MovieRating {
    fileprivate func write(to out: inout JSONText) {
        out.open("{")
        out.element(first: true)
        out.key("popularity")
        out.number(popularity)
        out.element(first: false)
        out.key("remoteId")
        out.number(remoteId)
        out.element(first: false)
        out.key("title")
        out.string(title)
        out.element(first: false)
        out.key("updatedAt")
        out.timestamp(updatedAt)
        out.element(first: false)
        out.key("voteAverage")
        out.number(voteAverage)
        out.element(first: false)
        out.key("voteCount")
        out.number(voteCount)
        out.close("}", empty: false)
    }
}
