import Foundation

/// Pretty-printed JSON written straight into bytes, in the layout `ReportRenderer.json` produces.
/// Used for the ratings report, where JSONEncoder took three quarters of a 100,000-movie run.
struct JSONText {
    var out: ChunkedOutput
    private var depth = 0

    init(_ out: ChunkedOutput) { self.out = out }

    mutating func open(_ bracket: Unicode.Scalar) {
        out.append(UInt8(bracket.value))
        depth += 1
    }

    mutating func close(_ bracket: Unicode.Scalar, empty: Bool) {
        depth -= 1
        if !empty { newline() }
        out.append(UInt8(bracket.value))
    }

    /// Starts an element of the open object or array: a comma after the first, then a new indented line.
    mutating func element(first: Bool) {
        if !first { out.append(UInt8(ascii: ",")) }
        newline()
    }

    /// Starts a member of the open object: `element(first:)`, then the key.
    mutating func field(_ name: String, first: Bool = false) {
        element(first: first)
        string(name)
        out.append(contentsOf: " : ".utf8)
    }

    mutating func string(_ value: String) {
        out.append(UInt8(ascii: "\""))
        if value.containsByte(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            for byte in value.utf8 { escape(byte) }
        } else {
            out.append(contentsOf: value.utf8)
        }
        out.append(UInt8(ascii: "\""))
    }

    /// A quoted ISO 8601 timestamp, or null.
    mutating func timestamp(_ date: Date?) {
        guard let date else { return null() }
        out.append(UInt8(ascii: "\""))
        out.timestamp(date)
        out.append(UInt8(ascii: "\""))
    }

    private mutating func escape(_ byte: UInt8) {
        switch byte {
        case UInt8(ascii: "\""): out.append(contentsOf: "\\\"".utf8)
        case UInt8(ascii: "\\"): out.append(contentsOf: "\\\\".utf8)
        case UInt8(ascii: "\n"): out.append(contentsOf: "\\n".utf8)
        case UInt8(ascii: "\r"): out.append(contentsOf: "\\r".utf8)
        case UInt8(ascii: "\t"): out.append(contentsOf: "\\t".utf8)
        case ..<0x20:
            let hex = String(byte, radix: 16)
            out.append(contentsOf: ("\\u" + String(repeating: "0", count: 4 - hex.count) + hex).utf8)
        default: out.append(byte)
        }
    }

    mutating func number(_ value: Double?) {
        guard let value, value.isFinite else { return null() }
        // Whole numbers without ".0", as JSONEncoder writes them; otherwise Swift's shortest round-trip form.
        let text = value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : "\(value)"
        out.append(contentsOf: text.utf8)
    }

    mutating func number(_ value: Int?) {
        guard let value else { return null() }
        out.append(contentsOf: String(value).utf8)
    }

    mutating func string(_ value: String?) {
        guard let value else { return null() }
        string(value)
    }

    mutating func null() { out.append(contentsOf: "null".utf8) }

    mutating func bool(_ value: Bool) { out.append(contentsOf: (value ? "true" : "false").utf8) }

    private mutating func newline() {
        out.append(UInt8(ascii: "\n"))
        out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * depth))
    }
}

extension RatingsReport {
    /// The JSON contract, keys sorted, nulls explicit; equal to `ReportRenderer.json(self)` once parsed.
    var json: String {
        var json = JSONText(ChunkedOutput(capacity: 256 + members.reduce(0) { $0 + 64 + $1.movies.count * 220 }))
        write(to: &json)
        return json.out.text
    }

    /// The same JSON, handed to `emit` in chunks as it is made.
    func writeJSON(_ emit: @escaping (UnsafeRawBufferPointer) -> Void) {
        var json = JSONText(ChunkedOutput(emit: emit))
        write(to: &json)
        json.out.flush(force: true)
    }

    private func write(to out: inout JSONText) {
        out.open("{")
        out.field("members", first: true)
        out.open("[")
        for (index, member) in members.enumerated() {
            out.element(first: index == 0)
            out.open("{")
            out.field("movies", first: true)
            out.open("[")
            for (position, movie) in member.movies.enumerated() {
                out.element(first: position == 0)
                movie.write(to: &out)
                out.out.flush()
            }
            out.close("]", empty: member.movies.isEmpty)
            out.field("name")
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
        out.field("ownRating", first: true)
        out.number(mark.rating)
        out.field("popularity")
        out.number(popularity)
        out.field("remoteId")
        out.number(remoteId)
        out.field("title")
        out.string(title)
        out.field("trend")
        out.trend(trend)
        out.field("updatedAt")
        out.timestamp(updatedAt)
        out.field("voteAverage")
        out.number(voteAverage)
        out.field("voteCount")
        out.number(voteCount)
        out.field("watched")
        out.bool(mark.watched)
        out.field("watchedOn")
        out.string(mark.on?.text)
        out.field("year")
        out.number(year)
        out.close("}", empty: false)
    }
}

extension JSONText {
    /// `{"popularity","since","voteAverage","voteCount"}`, keys sorted as JSONEncoder sorts them, or null.
    fileprivate mutating func trend(_ trend: MovieTrend?) {
        guard let trend else { return null() }
        open("{")
        field("popularity", first: true)
        number(trend.popularity)
        field("since")
        timestamp(trend.since)
        field("voteAverage")
        number(trend.voteAverage)
        field("voteCount")
        number(trend.voteCount)
        close("}", empty: false)
    }
}
