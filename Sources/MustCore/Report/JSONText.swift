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
        if value.containsByte(where: {
            $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") || $0 == 0x7F || $0 == 0xC2 || $0 == 0xE2
        }) {
            escaped(value)
        } else {
            out.append(contentsOf: value.utf8)
        }
        out.append(UInt8(ascii: "\""))
    }

    /// `string`'s slow path: each ASCII byte escaped as JSON needs, DEL, C1 and bidi controls as `\u…`.
    private mutating func escaped(_ value: String) {
        for scalar in value.unicodeScalars {
            if scalar.isASCII, scalar.value != 0x7F {
                escape(UInt8(scalar.value))
            } else if JSONEscapes.isInvisible(scalar) {
                let hex = String(scalar.value, radix: 16)
                out.append(contentsOf: ("\\u" + String(repeating: "0", count: 4 - hex.count) + hex).utf8)
            } else {
                UTF8.encode(scalar) { out.append($0) }
            }
        }
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

/// DEL, C1 controls (U+0080–U+009F) and the bidi embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069)
/// written as JSON's `\u009b` escapes: JSON is valid with them raw, but a terminal acts on them when the JSON is
/// printed, and a text-direction control reorders what a reader sees. The JSON still decodes to the exact text.
/// C0 controls are escaped by the writers themselves.
enum JSONEscapes {
    /// Whether `text` may hold one: DEL is 0x7F, C1 starts 0xC2 in UTF-8, the bidi controls 0xE2.
    static func mayHoldInvisible(_ text: String) -> Bool {
        text.containsByte { $0 == 0x7F || $0 == 0xC2 || $0 == 0xE2 }
    }

    static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value >= 0x7F && TerminalText.isControl(scalar)
    }

    /// `json` (or a string's text) with each such character as its `\uXXXX` escape. Only valid on JSON text or on
    /// a string about to be quoted: these characters never appear in JSON outside a string.
    static func invisibleEscaped(_ json: String) -> String {
        guard mayHoldInvisible(json), json.unicodeScalars.contains(where: isInvisible) else { return json }
        var out = String.UnicodeScalarView()
        for scalar in json.unicodeScalars {
            guard isInvisible(scalar) else {
                out.append(scalar)
                continue
            }
            let hex = String(scalar.value, radix: 16)
            out.append(contentsOf: ("\\u" + String(repeating: "0", count: 4 - hex.count) + hex).unicodeScalars)
        }
        return String(out)
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
