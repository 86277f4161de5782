import Foundation

/// A details answer with the appended blocks, cut down to the family's region before it is decoded. A popular
/// movie's answer is about 80 KB, 85% of it `watch/providers` for 80–95 countries and most of the rest
/// `release_dates` for 45–65: JSONDecoder parses all of it before a single field is read, though only one country
/// is kept. The cut steps over the other countries byte by byte, building no values, and hands the decoder the
/// details and the region's entries alone; every rule of the decoding (types, trims, malformed blocks) is still the
/// decoder's. A body the cut cannot follow is decoded whole, exactly as it came.
///
/// Hand-written for speed, measured (`contrib/benchmarks/run --only answer`, the stub's 80 KB answer, release
/// build, thread CPU): MEASURED. Foundation offers no way to decode part of a document: JSONDecoder and
/// JSONSerialization both scan every byte into their own map of the whole answer first.
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
        let decoder = JSONDecoder()
        decoder.userInfo[.tmdbRegion] = region
        let read = cutting ? RegionCut.cut(body, region: region) ?? body : body
        let answer = try decoder.decode(DetailsAnswer.self, from: read)
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

    /// A string's content (between its quotes, escapes as written); nil when no string starts here.
    mutating func string() -> Range<Int>? {
        skipSpace()
        guard at < bytes.count, bytes[at] == Self.quote else { return nil }
        var index = at + 1
        while index < bytes.count {
            switch bytes[index] {
            case Self.backslash: index += 2
            case Self.quote:
                defer { at = index + 1 }
                return (at + 1)..<index
            default: index += 1
            }
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

    /// Walks an object's members, handing each key's content and value range to `body`; false when it is none.
    mutating func members(_ body: (Range<Int>, Range<Int>) -> Void) -> Bool {
        guard take(Self.open) else { return false }
        if take(Self.close) { return true }
        repeat {
            guard let key = string(), take(Self.colon), let value = value() else { return false }
            body(key, value)
        } while take(Self.comma)
        return take(Self.close)
    }

    /// The range of a block's `results` value; nil when the block is no object or has none.
    static func results(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Range<Int>? {
        var block = JSONBytes(bytes: bytes, at: range.lowerBound)
        var found: Range<Int>?
        guard block.members({ key, value in if names(bytes, key, resultsKey) { found = value } }) else { return nil }
        return found
    }

    /// The top-level object again, with the two blocks cut to the region.
    mutating func cutTopLevel(region: [UInt8]) -> Data? {
        var out = Data([Self.open])
        out.reserveCapacity(4096)
        var first = true
        let bytes = bytes
        let whole = members { key, value in
            if !first { out.append(Self.comma) }
            first = false
            out.append(Self.quote)
            out.append(UnsafeBufferPointer(rebasing: bytes[key]))
            out.append(contentsOf: [Self.quote, Self.colon])
            if Self.names(bytes, key, Self.releaseDatesKey),
                let kept = Self.releaseDates(bytes, value, region: region)
            {
                out.append(kept)
            } else if Self.names(bytes, key, Self.providersKey),
                let kept = Self.providers(bytes, value, region: region)
            {
                out.append(kept)
            } else {
                out.append(UnsafeBufferPointer(rebasing: bytes[value]))
            }
        }
        skipSpace()
        guard whole, at == bytes.count else { return nil }
        out.append(Self.close)
        return out
    }

    /// Whether a `release_dates` entry can be left out: it is an object whose `iso_3166_1` is absent, null or
    /// another country's code, which the decoder steps over too; nil when it is no object (the cut gives up).
    static func isOtherCountry(_ bytes: UnsafeBufferPointer<UInt8>, _ entry: Range<Int>, region: [UInt8]) -> Bool? {
        var country = JSONBytes(bytes: bytes, at: entry.lowerBound)
        var other = true
        let object = country.members { key, value in
            guard names(bytes, key, Self.countryKey) else { return }
            let text = bytes[value.lowerBound] == Self.quote && value.count >= 2
            let null = bytes[value].elementsEqual("null".utf8)
            // Any other type is the decoder's to refuse: the entry is kept.
            other = null || (text && !names(bytes, (value.lowerBound + 1)..<(value.upperBound - 1), region))
        }
        return object ? other : nil
    }

    /// `{"results":[…]}` with only the entries of the region (and any the decoder must judge); nil when not so
    /// shaped.
    static func releaseDates(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, region: [UInt8]) -> Data? {
        guard let results = results(bytes, range) else { return nil }
        var list = JSONBytes(bytes: bytes, at: results.lowerBound)
        var kept = Data("{\"results\":[".utf8)
        var any = false
        guard list.take(Self.openList) else { return nil }
        if !list.take(Self.closeList) {
            repeat {
                guard let entry = list.value(), let other = isOtherCountry(bytes, entry, region: region) else {
                    return nil
                }
                if !other {
                    if any { kept.append(Self.comma) }
                    kept.append(UnsafeBufferPointer(rebasing: bytes[entry]))
                    any = true
                }
            } while list.take(Self.comma)
            guard list.take(Self.closeList) else { return nil }
        }
        kept.append(contentsOf: "]}".utf8)
        return kept
    }

    /// `{"results":{"REGION":…}}`, or `{"results":{}}` when the region has no offers; nil when not so shaped.
    static func providers(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, region: [UInt8]) -> Data? {
        guard let results = results(bytes, range) else { return nil }
        var countries = JSONBytes(bytes: bytes, at: results.lowerBound)
        var kept = Data("{\"results\":{".utf8)
        var any = false
        guard
            countries.members({ key, value in
                guard names(bytes, key, region) else { return }
                if any { kept.append(Self.comma) }
                any = true
                kept.append(Self.quote)
                kept.append(contentsOf: region)
                kept.append(contentsOf: [Self.quote, Self.colon])
                kept.append(UnsafeBufferPointer(rebasing: bytes[value]))
            })
        else { return nil }
        kept.append(contentsOf: "}}".utf8)
        return kept
    }
}
