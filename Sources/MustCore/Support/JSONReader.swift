import Foundation

/// Reads JSON from outside (a media server's event, a Trakt entry, the config file) into `JSONValue` in one pass
/// over the bytes, and refuses nesting deeper than `maxDepth` as soon as it is reached, before any more work.
///
/// Written by hand rather than decoding `JSONValue` through `JSONDecoder`: that decoding tries each kind in turn and
/// every failed try builds an error carrying the whole coding path, so its cost grew with the square of the depth
/// (one event with an array 400 deep took 0.44 s, sixteen of them in 16 KB took 7 s of a core) and with the number
/// of values (see `JSONReaderTests`' figures). This reader does constant work per byte.
public enum JSONReader {
    /// No body mustc reads from outside nests deeper: Jellyfin, Plex, Emby, Trakt and the config need under 10.
    public static let maxDepth = 64

    public static func parse(_ data: Data, maxDepth: Int = maxDepth) throws(JSONReadError) -> JSONValue {
        let result: Result<JSONValue, JSONReadError> = data.withUnsafeBytes { raw in
            var reader = Cursor(bytes: raw.bindMemory(to: UInt8.self), maxDepth: maxDepth)
            return Result { () throws(JSONReadError) -> JSONValue in try reader.document() }
        }
        return try result.get()
    }

    /// Whether no array or object in `data` lies deeper than `maxDepth`, in one pass that decodes nothing (brackets
    /// inside strings are not counted): for answers a typed `Decodable` reads, such as TMDB's.
    public static func nestsWithin(_ data: Data, maxDepth: Int = maxDepth) -> Bool {
        data.withUnsafeBytes { raw in
            var nesting = JSONNesting()
            for byte in raw {
                nesting.read(byte)
                if nesting.depth > maxDepth { return false }
            }
            return true
        }
    }
}

/// Where a JSON text's bytes, read one at a time, leave it: inside a string or not, and how deep in arrays and
/// objects (brackets inside strings do not count). `JSONArrayReader` cuts Trakt's entries with it, and
/// `JSONReader.nestsWithin` checks an answer's depth.
struct JSONNesting {
    private(set) var depth = 0
    private(set) var inString = false
    private var escaped = false

    mutating func read(_ byte: UInt8) {
        if inString {
            if escaped {
                escaped = false
            } else if byte == UInt8(ascii: "\\") {
                escaped = true
            } else if byte == UInt8(ascii: "\"") {
                inString = false
            }
            return
        }
        switch byte {
        case UInt8(ascii: "\""): inString = true
        case UInt8(ascii: "["), UInt8(ascii: "{"): depth += 1
        case UInt8(ascii: "]"), UInt8(ascii: "}"): depth = max(0, depth - 1)
        default: break
        }
    }
}

/// Why a JSON text was refused: where, and what was wrong; it never quotes the text, which may hold a secret.
public struct JSONReadError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Kind: Equatable, Sendable {
        case tooDeep(Int)
        case malformed(String)
    }

    public var kind: Kind
    public var line: Int
    public var column: Int

    public var isTooDeep: Bool { if case .tooDeep = kind { true } else { false } }

    public var description: String {
        switch kind {
        case .tooDeep(let limit): "arrays or objects nest deeper than \(limit) levels at line \(line), column \(column)"
        case .malformed(let what): "\(what) at line \(line), column \(column)"
        }
    }
}

private struct Cursor {
    let bytes: UnsafeBufferPointer<UInt8>
    let maxDepth: Int
    var index = 0
    var depth = 0

    init(bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int) {
        self.bytes = bytes
        self.maxDepth = maxDepth
        // A byte order mark, as some editors write before a config file.
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { index = 3 }
    }

    mutating func document() throws(JSONReadError) -> JSONValue {
        let value = try self.value()
        skipSpace()
        guard index == bytes.count else { throw failure("unexpected text after the JSON value") }
        return value
    }

    private mutating func value() throws(JSONReadError) -> JSONValue {
        skipSpace()
        guard index < bytes.count else { throw failure("the text ends where a value was expected") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try object()
        case UInt8(ascii: "["): return try array()
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): return try literal("true", .bool(true))
        case UInt8(ascii: "f"): return try literal("false", .bool(false))
        case UInt8(ascii: "n"): return try literal("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
        default: throw failure("expected a value")
        }
    }

    private mutating func enter() throws(JSONReadError) {
        depth += 1
        if depth > maxDepth { throw failure(.tooDeep(maxDepth)) }
        index += 1
    }

    private mutating func object() throws(JSONReadError) -> JSONValue {
        try enter()
        var members: [String: JSONValue] = [:]
        skipSpace()
        if take(UInt8(ascii: "}")) {
            depth -= 1
            return .object(members)
        }
        while true {
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw failure("expected a key") }
            let key = try string()
            skipSpace()
            guard take(UInt8(ascii: ":")) else { throw failure("expected ':' after a key") }
            members[key] = try value()
            skipSpace()
            if take(UInt8(ascii: ",")) { continue }
            guard take(UInt8(ascii: "}")) else { throw failure("expected ',' or '}' in an object") }
            depth -= 1
            return .object(members)
        }
    }

    private mutating func array() throws(JSONReadError) -> JSONValue {
        try enter()
        var elements: [JSONValue] = []
        skipSpace()
        if take(UInt8(ascii: "]")) {
            depth -= 1
            return .array(elements)
        }
        while true {
            elements.append(try value())
            skipSpace()
            if take(UInt8(ascii: ",")) { continue }
            guard take(UInt8(ascii: "]")) else { throw failure("expected ',' or ']' in an array") }
            depth -= 1
            return .array(elements)
        }
    }

    private mutating func string() throws(JSONReadError) -> String {
        index += 1
        var scalars: [UInt8] = []
        var start = index
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                scalars.append(contentsOf: bytes[start..<index])
                index += 1
                guard let text = String(validating: scalars, as: UTF8.self) else {
                    throw failure("a string is not UTF-8")
                }
                return text
            }
            if byte < 0x20 { throw failure("a control character inside a string must be escaped") }
            if byte == UInt8(ascii: "\\") {
                scalars.append(contentsOf: bytes[start..<index])
                try escape(into: &scalars)
                start = index
                continue
            }
            index += 1
        }
        throw failure("a string is not closed")
    }

    /// One escape after its backslash, written into `out` as UTF-8; `\u` pairs of surrogates make one scalar.
    private mutating func escape(into out: inout [UInt8]) throws(JSONReadError) {
        index += 1
        guard index < bytes.count else { throw failure("a string is not closed") }
        let byte = bytes[index]
        index += 1
        let simple: [UInt8: UInt8] = [
            UInt8(ascii: "\""): 0x22, UInt8(ascii: "\\"): 0x5C, UInt8(ascii: "/"): 0x2F, UInt8(ascii: "b"): 0x08,
            UInt8(ascii: "f"): 0x0C, UInt8(ascii: "n"): 0x0A, UInt8(ascii: "r"): 0x0D, UInt8(ascii: "t"): 0x09,
        ]
        if let plain = simple[byte] {
            out.append(plain)
            return
        }
        guard byte == UInt8(ascii: "u") else { throw failure("unknown escape in a string") }
        var code = try hex4()
        if (0xD800...0xDBFF).contains(code), index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"),
            bytes[index + 1] == UInt8(ascii: "u")
        {
            index += 2
            let low = try hex4()
            guard (0xDC00...0xDFFF).contains(low) else { throw failure("a broken surrogate pair in a string") }
            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
        }
        // A lone surrogate cannot be text: written as U+FFFD, as JSONDecoder reads it.
        let scalar = Unicode.Scalar(code) ?? "\u{FFFD}"
        out.append(contentsOf: Array(String(Character(scalar)).utf8))
    }

    private mutating func hex4() throws(JSONReadError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw failure("a \\u escape needs four hex digits") }
        var code: UInt32 = 0
        for _ in 0..<4 {
            guard let digit = hexDigit(bytes[index]) else { throw failure("a \\u escape needs four hex digits") }
            code = code << 4 | digit
            index += 1
        }
        return code
    }

    private func hexDigit(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    /// JSON's number grammar, read as a Double.
    private mutating func number() throws(JSONReadError) -> Double {
        let start = index
        _ = take(UInt8(ascii: "-"))
        guard digits() > 0 else { throw failure("a number needs digits") }
        if bytes[start..<index].drop(while: { $0 == UInt8(ascii: "-") }).count > 1,
            bytes[start..<index].drop(while: { $0 == UInt8(ascii: "-") }).first == UInt8(ascii: "0")
        {
            throw failure("a number cannot start with 0")
        }
        if take(UInt8(ascii: ".")), digits() == 0 { throw failure("a number needs digits after its point") }
        if take(UInt8(ascii: "e")) || take(UInt8(ascii: "E")) {
            _ = take(UInt8(ascii: "+")) || take(UInt8(ascii: "-"))
            guard digits() > 0 else { throw failure("a number needs digits in its exponent") }
        }
        if let exact = Self.fastDouble(bytes[start..<index]) { return exact }
        guard let number = Double(String(decoding: bytes[start..<index], as: UTF8.self)), number.isFinite else {
            throw failure("a number out of range")
        }
        return number
    }

    private static let powersOfTen: [Double] = (0...22).map { pow(10, Double($0)) }

    /// The number without making a String, when it has at most 15 significant digits and no exponent: the digits
    /// as an integer, exact in a Double, divided by an exact power of ten is correctly rounded (Clinger's fast
    /// path). A string a number took most of the time of a flat array of numbers.
    private static func fastDouble(_ text: Slice<UnsafeBufferPointer<UInt8>>) -> Double? {
        var mantissa: Int64 = 0
        var digits = 0
        var fraction = 0
        var negative = false
        var seenPoint = false
        for byte in text {
            switch byte {
            case UInt8(ascii: "-"): negative = true
            case UInt8(ascii: "."): seenPoint = true
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                if mantissa > 0 || byte != UInt8(ascii: "0") { digits += 1 }
                guard digits <= 15 else { return nil }
                mantissa = mantissa * 10 + Int64(byte - UInt8(ascii: "0"))
                if seenPoint { fraction += 1 }
            default: return nil
            }
        }
        guard fraction <= 22 else { return nil }
        let value = Double(mantissa) / powersOfTen[fraction]
        return negative ? -value : value
    }

    private mutating func digits() -> Int {
        let start = index
        while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
        return index - start
    }

    private mutating func literal(_ word: StaticString, _ value: JSONValue) throws(JSONReadError) -> JSONValue {
        let expected = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        guard index + expected.count <= bytes.count, bytes[index..<index + expected.count].elementsEqual(expected)
        else { throw failure("expected a value") }
        index += expected.count
        return value
    }

    private mutating func take(_ byte: UInt8) -> Bool {
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    private mutating func skipSpace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    private func failure(_ what: String) -> JSONReadError { failure(.malformed(what)) }

    private func failure(_ kind: JSONReadError.Kind) -> JSONReadError {
        var line = 1
        var column = 1
        for byte in bytes[..<min(index, bytes.count)] {
            if byte == 0x0A {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        return JSONReadError(kind: kind, line: line, column: column)
    }
}
