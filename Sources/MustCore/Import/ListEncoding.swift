import Foundation

/// The text encodings `import` reads. Without `--encoding`, a byte order mark decides, else UTF-16 is recognised by
/// its zero bytes, else a line that is not valid UTF-8 is read as Windows-1252 (a superset of Latin-1's printable
/// characters, which old IMDb and Excel exports use).
public enum ListEncoding: String, Sendable, CaseIterable, Codable {
    case utf8 = "utf-8"
    case windows1252 = "windows-1252"
    case utf16 = "utf-16"

    public var name: String {
        switch self {
        case .utf8: "UTF-8"
        case .windows1252: "Windows-1252"
        case .utf16: "UTF-16"
        }
    }

    /// How the first bytes of a file say it is written; `forced` is `--encoding`.
    static func detect(_ first: [UInt8], forced: ListEncoding?) -> Detected {
        let bytesForced = forced == .utf8 || forced == .windows1252
        if !bytesForced, first.starts(with: [0xFF, 0xFE]) { return .utf16(bigEndian: false, bom: 2) }
        if !bytesForced, first.starts(with: [0xFE, 0xFF]) { return .utf16(bigEndian: true, bom: 2) }
        let bom = first.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        let sample = first.prefix(1024)
        let zeroAtOdd = stride(from: 1, to: sample.count, by: 2).filter { sample[$0] == 0 }.count
        let zeroAtEven = stride(from: 0, to: sample.count, by: 2).filter { sample[$0] == 0 }.count
        let pairs = max(sample.count / 2, 1)
        // Text in UTF-16 without a mark: mostly ASCII, so every other byte is zero, and the others hardly ever.
        let alternating =
            sample.count >= 4 && max(zeroAtOdd, zeroAtEven) * 5 > pairs * 2 && min(zeroAtOdd, zeroAtEven) * 20 < pairs
        if forced == .utf16 || (!bytesForced && bom == 0 && alternating) {
            return .utf16(bigEndian: zeroAtEven > zeroAtOdd, bom: 0)
        }
        let controls = sample.filter { $0 < 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D || $0 == 0x7F }.count
        if sample.contains(0) || controls * 10 > sample.count { return .binary }
        return .bytes(bom: bom)
    }

    enum Detected: Equatable {
        case utf16(bigEndian: Bool, bom: Int)
        /// UTF-8 or Windows-1252, decided line by line; `bom` is the UTF-8 mark's length.
        case bytes(bom: Int)
        /// Zero bytes or mostly control characters: not a text list.
        case binary
    }

    /// Windows-1252's characters for 0x80–0x9F; the five bytes it leaves undefined keep their C1 code (as browsers
    /// decode them), so they show up as control characters and a title holding one is refused, never guessed.
    private static let high: [UInt32] = [
        0x20AC, 0x81, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x8D,
        0x017D, 0x8F, 0x90, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A,
        0x0153, 0x9D, 0x017E, 0x0178,
    ]

    /// Bytes read as Windows-1252: every byte is a character, so this never fails and never yields U+FFFD.
    static func windows1252(_ bytes: some Sequence<UInt8>) -> String {
        var scalars = String.UnicodeScalarView()
        for byte in bytes {
            let value = (0x80...0x9F).contains(byte) ? high[Int(byte) - 0x80] : UInt32(byte)
            scalars.append(Unicode.Scalar(value)!)
        }
        return String(scalars)
    }
}

/// UTF-16 (either byte order) turned into UTF-8 as it is read, so that the line and quote scanning sees UTF-8 bytes.
/// A code unit split across two reads, or a surrogate pair split that way, waits for the next read.
final class UTF16Source: ByteSource {
    private let inner: any ByteSource
    private let bigEndian: Bool
    private var pending: [UInt8]
    private var lead: UInt16?
    private var ended = false
    /// Whether a lone surrogate was read: it became U+FFFD, and the reader refuses a row holding one.
    private(set) var sawInvalid = false

    init(_ inner: any ByteSource, bigEndian: Bool, pending: [UInt8]) {
        self.inner = inner
        self.bigEndian = bigEndian
        self.pending = pending
    }

    func read(upTo count: Int) throws -> [UInt8] {
        while true {
            var raw = pending
            pending = []
            if !ended {
                let more = try inner.read(upTo: count)
                if more.isEmpty { ended = true } else { raw += more }
            }
            if raw.count % 2 == 1, !ended { pending = [raw.removeLast()] }
            var units: [UInt16] = lead.map { [$0] } ?? []
            lead = nil
            units.reserveCapacity(raw.count / 2 + 1)
            for index in stride(from: 0, to: raw.count - 1, by: 2) {
                let (first, second) = (UInt16(raw[index]), UInt16(raw[index + 1]))
                units.append(bigEndian ? first << 8 | second : second << 8 | first)
            }
            if !ended, let last = units.last, UTF16.isLeadSurrogate(last) { lead = units.removeLast() }
            var out: [UInt8] = []
            out.reserveCapacity(units.count * 3)
            let invalid = transcode(units.makeIterator(), from: UTF16.self, to: UTF8.self, stoppingOnError: false) {
                out.append($0)
            }
            if invalid { sawInvalid = true }
            if !out.isEmpty || ended { return out }
        }
    }
}
