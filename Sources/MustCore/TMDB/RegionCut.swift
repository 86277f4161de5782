import Foundation

/// A details answer with the appended blocks, cut down to the family's region before it is decoded. A popular
/// movie's answer is about 80 KB, 85% of it `watch/providers` for 80–95 countries and most of the rest
/// `release_dates` for 45–65: JSONDecoder parses all of it before a single field is read, though only one country
/// is kept. The cut steps over the other countries once, byte by byte, building no values, and hands the decoder
/// the details and the region's entries alone; every rule of the decoding (types, trims, malformed blocks) is still
/// the decoder's. A body the cut cannot follow is decoded whole, exactly as it came.
///
/// Hand-written for speed, measured (`contrib/benchmarks/run --only answer`, release, the stub's 82,883-byte answer,
/// thread CPU, 2026-11-27): JSONDecoder reading it whole takes 0.93 ms, the cut and the decoding of what it keeps
/// 0.28 ms, of which 0.14 ms is the decoder's floor for the details alone. Foundation offers no way to decode part
/// of a document: JSONDecoder and JSONSerialization both parse every byte before the first field is read.
enum RegionCut {
    /// `body` with `release_dates.results` holding only the region's entries and `watch/providers.results` only
    /// the region's key; nil when the body is not a JSON object the cut can follow.
    static func cut(_ body: Data, region: String) -> Data? {
        body.withUnsafeBytes { raw -> Data? in
            var scanner = JSONBytes(bytes: raw.bindMemory(to: UInt8.self))
            return scanner.cutTopLevel(region: Array(region.utf8))
        }
    }
}

/// The details answer read as the client reads it, for the benchmark: cut to the region first, or whole as before.
package enum DetailsReading {
    package static func read(_ body: Data, region: String, cutting: Bool) throws -> (
        movie: RemoteMovie, extras: MovieExtras?
    ) {
        let read = cutting ? RegionCut.cut(body, region: region) ?? body : body
        let answer = try DecodingRegion.$current.withValue(region) {
            try JSONDecoder().decode(DetailsAnswer.self, from: read)
        }
        return (answer.movie, answer.extras)
    }
}

/// Steps over JSON text without building values: strings, numbers and literals by their bytes, objects and arrays
/// by their brackets. Positions are offsets into `bytes`. Syntax inside a value stepped over is not checked: the
/// decoder checks what is kept.
struct JSONBytes {
    let bytes: UnsafeBufferPointer<UInt8>
    var at = 0

    static let quote = UInt8(ascii: "\""), backslash = UInt8(ascii: "\\"), colon = UInt8(ascii: ":")
    static let comma = UInt8(ascii: ","), open = UInt8(ascii: "{"), close = UInt8(ascii: "}")
    static let openList = UInt8(ascii: "["), closeList = UInt8(ascii: "]")
    static let releaseDatesKey = Array("release_dates".utf8), providersKey = Array("watch/providers".utf8)
    static let resultsKey = Array("results".utf8), countryKey = Array("iso_3166_1".utf8)
    /// Bytes, not a string's UTF-8 view: `Data.append` of a view asks the runtime whether it is contiguous bytes,
    /// a conformance lookup through every conformance the binary has (0.2 ms, once a process; perf record).
    static let resultsOpening = Array(#"{"results":"#.utf8)

    static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 }

    mutating func skipSpace() {
        while at < bytes.count, Self.isSpace(bytes[at]) { at += 1 }
    }

    /// Whether the next byte (after spaces) is `byte`; consumes it when it is.
    mutating func take(_ byte: UInt8) -> Bool {
        skipSpace()
        guard at < bytes.count, bytes[at] == byte else { return false }
        at += 1
        return true
    }

    /// A string's content (between its quotes, escapes as written); nil when no string starts here. The closing
    /// quote is found with memchr: one preceded by an odd run of backslashes is escaped.
    mutating func string() -> Range<Int>? {
        skipSpace()
        guard at < bytes.count, bytes[at] == Self.quote, let base = bytes.baseAddress else { return nil }
        var index = at + 1
        while index < bytes.count, let found = memchr(base + index, Int32(Self.quote), bytes.count - index) {
            let end = UnsafeRawPointer(base).distance(to: UnsafeRawPointer(found))
            var slashes = 0
            while bytes[end - 1 - slashes] == Self.backslash { slashes += 1 }
            if slashes % 2 == 0 {
                defer { at = end + 1 }
                return (at + 1)..<end
            }
            index = end + 1
        }
        return nil
    }

    /// Any value, stepped over; its range, or nil when it does not end.
    mutating func value() -> Range<Int>? {
        skipSpace()
        let start = at
        guard at < bytes.count else { return nil }
        switch bytes[at] {
        case Self.quote:
            guard string() != nil else { return nil }
        case Self.open, Self.openList:
            var depth = 0
            while at < bytes.count {
                switch bytes[at] {
                case Self.quote:
                    guard string() != nil else { return nil }
                    continue
                case Self.open, Self.openList: depth += 1
                case Self.close, Self.closeList: depth -= 1
                default: break
                }
                at += 1
                if depth == 0 { return start..<at }
            }
            return nil
        default:
            // A number or a literal: up to the next delimiter.
            while at < bytes.count {
                let byte = bytes[at]
                if byte == Self.comma || byte == Self.close || byte == Self.closeList || Self.isSpace(byte) { break }
                at += 1
            }
        }
        return start < at ? start..<at : nil
    }

    /// Whether the string content at `range` is `expected`; an escaped one (`watch\/providers`) is unescaped first.
    static func names(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, _ expected: [UInt8]) -> Bool {
        let content = bytes[range]
        guard content.contains(Self.backslash) else { return content.elementsEqual(expected) }
        let quoted = Data([Self.quote] + Array(content) + [Self.quote])
        guard let text = try? JSONDecoder().decode(String.self, from: quoted) else { return false }
        return text.utf8.elementsEqual(expected)
    }

    /// Walks an object's members: `body` has each key's content and must step over its value with the scanner it
    /// is handed (false: the object cannot be followed). False when it is no object or cannot be followed.
    mutating func members(_ body: (inout JSONBytes, Range<Int>) -> Bool) -> Bool {
        guard take(Self.open) else { return false }
        if take(Self.close) { return true }
        repeat {
            guard let key = string(), take(Self.colon), body(&self, key) else { return false }
        } while take(Self.comma)
        return take(Self.close)
    }

    /// The top-level object again, with the two blocks cut to the region; each byte is stepped over once.
    mutating func cutTopLevel(region: [UInt8]) -> Data? {
        var out = Data([Self.open])
        out.reserveCapacity(8192)
        var first = true
        let bytes = bytes
        let whole = members { scanner, key in
            if !first { out.append(Self.comma) }
            first = false
            out.append(Self.quote)
            out.append(UnsafeBufferPointer(rebasing: bytes[key]))
            out.append(contentsOf: [Self.quote, Self.colon])
            let releases = Self.names(bytes, key, Self.releaseDatesKey)
            if releases || Self.names(bytes, key, Self.providersKey) {
                var block = scanner
                let results: Data?
                if releases {
                    results = block.results { $0.releaseEntries(region) }
                } else {
                    results = block.results { $0.offers(region) }
                }
                if let results {
                    scanner = block
                    out.append(contentsOf: Self.resultsOpening)
                    out.append(results)
                    out.append(Self.close)
                    return true
                }
                // Not so shaped: the block goes as it came, for the decoder to judge.
            }
            guard let value = scanner.value() else { return false }
            out.append(UnsafeBufferPointer(rebasing: bytes[value]))
            return true
        }
        skipSpace()
        guard whole, at == bytes.count else { return nil }
        out.append(Self.close)
        return out
    }

    /// A block's `results`, cut by `cut`, the block stepped over; nil when it is no object or has no results
    /// the cut can follow.
    mutating func results(_ cut: (inout JSONBytes) -> Data?) -> Data? {
        var found: Data?
        let bytes = bytes
        let object = members { scanner, key in
            guard Self.names(bytes, key, Self.resultsKey) else { return scanner.value() != nil }
            found = cut(&scanner)
            return found != nil
        }
        return object ? found : nil
    }

    /// `[…]` with only the `release_dates` entries of the region, and any the decoder must judge itself.
    mutating func releaseEntries(_ region: [UInt8]) -> Data? {
        guard take(Self.openList) else { return nil }
        var kept = Data([Self.openList])
        var any = false
        if !take(Self.closeList) {
            repeat {
                skipSpace()
                let start = at
                guard let other = otherCountry(region) else { return nil }
                if !other {
                    if any { kept.append(Self.comma) }
                    kept.append(UnsafeBufferPointer(rebasing: bytes[start..<at]))
                    any = true
                }
            } while take(Self.comma)
            guard take(Self.closeList) else { return nil }
        }
        kept.append(Self.closeList)
        return kept
    }

    /// Steps over a `release_dates` entry; whether it can be left out: an object whose `iso_3166_1` is absent,
    /// null or another country's code, which the decoder steps over too. Nil when it is no object.
    mutating func otherCountry(_ region: [UInt8]) -> Bool? {
        var other = true
        let bytes = bytes
        let object = members { scanner, key in
            guard let value = scanner.value() else { return false }
            if Self.names(bytes, key, Self.countryKey) {
                let text = value.count >= 2 && bytes[value.lowerBound] == Self.quote
                let null = bytes[value].elementsEqual("null".utf8)
                // Any other type is the decoder's to refuse: the entry is kept.
                other = null || (text && !Self.names(bytes, (value.lowerBound + 1)..<(value.upperBound - 1), region))
            }
            return true
        }
        return object ? other : nil
    }

    /// `{"REGION":…}` from `watch/providers`' countries, or `{}` when the region has no offers.
    mutating func offers(_ region: [UInt8]) -> Data? {
        var kept = Data([Self.open])
        var any = false
        let bytes = bytes
        let object = members { scanner, key in
            guard let value = scanner.value() else { return false }
            guard Self.names(bytes, key, region) else { return true }
            if any { kept.append(Self.comma) }
            any = true
            kept.append(Self.quote)
            kept.append(contentsOf: region)
            kept.append(contentsOf: [Self.quote, Self.colon])
            kept.append(UnsafeBufferPointer(rebasing: bytes[value]))
            return true
        }
        kept.append(Self.close)
        return object ? kept : nil
    }
}
