import Foundation

/// The stub's posters: PNGs it draws itself, a card in a colour that comes from the movie's id, with a frame and
/// a band where a title would go. No real poster is shipped: they are not ours to ship. Two colours at one bit a
/// pixel, in stored (uncompressed) deflate blocks: a w342 card is about 22 KB, close to a real poster's size.
public enum StubPoster {
    /// Where the image host's paths start, as at `https://image.tmdb.org/t/p/`.
    public static let prefix = "/t/p/"

    /// TMDB's poster widths, and `original` (drawn at 500).
    static let widths = ["w92": 92, "w154": 154, "w185": 185, "w342": 342, "w500": 500, "w780": 780, "original": 500]

    /// The movie a path `/t/p/{size}/poster{id}.png` names, and the width asked for; nil for any other path.
    static func parse(_ path: String) -> (id: Int, width: Int)? {
        let parts = path.dropFirst(prefix.count).split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let width = widths[String(parts[0])], parts[1].hasPrefix("poster"),
            parts[1].hasSuffix(".png"), let id = Int(parts[1].dropFirst("poster".count).dropLast(".png".count))
        else { return nil }
        return (id, width)
    }

    /// The movie's colour: a hue from its id, always mid-dark so the frame in a lighter shade shows.
    static func colours(_ id: Int) -> [[UInt8]] {
        let hue = Double((id &* 2_654_435_761) & 0xFFFF) / 65536
        func channel(_ offset: Double, _ scale: Double) -> UInt8 {
            let value = 0.5 + 0.5 * cos(2 * Double.pi * (hue + offset))
            return UInt8(min(255, max(0, (value * scale * 255).rounded())))
        }
        let dark = [channel(0, 0.6), channel(1.0 / 3, 0.6), channel(2.0 / 3, 0.6)]
        let light = dark.map { UInt8(min(255, Int($0) + 110)) }
        return [dark, light]
    }

    /// A `width` × 1.5 `width` PNG card for movie `id`.
    public static func png(id: Int, width: Int) -> Data {
        let height = width * 3 / 2
        let rowBytes = (width + 7) / 8
        let frame = max(width / 24, 2)
        let band = (height * 3 / 5)..<(height * 3 / 5 + height / 8)
        var raw = [UInt8]()
        raw.reserveCapacity((rowBytes + 1) * height)
        for y in 0..<height {
            raw.append(0)  // filter: none
            for byteIndex in 0..<rowBytes {
                var byte: UInt8 = 0
                for bit in 0..<8 {
                    let x = byteIndex * 8 + bit
                    let edge = x < frame || x >= width - frame || y < frame || y >= height - frame
                    let lit = x < width && (edge || (band.contains(y) && x >= frame * 2 && x < width - frame * 2))
                    if lit { byte |= 0x80 >> bit }
                }
                raw.append(byte)
            }
        }
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        // IHDR: width, height, bit depth 1, colour type 3 (palette), deflate, no filter method, no interlace.
        chunk("IHDR", bigEndian(width) + bigEndian(height) + [1, 3, 0, 0, 0], into: &png)
        chunk("PLTE", colours(id).flatMap { $0 }, into: &png)
        chunk("IDAT", zlibStored(raw), into: &png)
        chunk("IEND", [], into: &png)
        return Data(png)
    }

    private static func bigEndian(_ value: Int) -> [UInt8] {
        [UInt8(value >> 24 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    private static func chunk(_ type: String, _ data: [UInt8], into png: inout [UInt8]) {
        let typed = Array(type.utf8) + data
        png += bigEndian(data.count) + typed + bigEndian(Int(crc32(typed)))
    }

    /// A zlib stream of stored deflate blocks (RFC 1950/1951): no compression, so no zlib needed.
    static func zlibStored(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        var offset = 0
        repeat {
            let count = min(65_535, data.count - offset)
            let last: UInt8 = offset + count == data.count ? 1 : 0
            out += [last, UInt8(count & 0xFF), UInt8(count >> 8), UInt8(~count & 0xFF), UInt8(~count >> 8 & 0xFF)]
            out += data[offset..<offset + count]
            offset += count
        } while offset < data.count
        var (a, b): (UInt32, UInt32) = (1, 0)
        for byte in data {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        return out + bigEndian(Int(b << 16 | a))
    }

    private static let crcTable: [UInt32] = (0..<256).map { index in
        var value = UInt32(index)
        for _ in 0..<8 { value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
        return value
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes { crc = crcTable[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        return crc ^ 0xFFFF_FFFF
    }
}

extension TMDBStubServer {
    /// `GET /t/p/{size}/poster{id}.png`: the movie's card. Anything else is the image host's plain 404.
    static func image(_ path: String, movie: StubMovie?) -> Reply {
        guard let (_, width) = StubPoster.parse(path), let movie, movie.posterPath != nil else {
            return Reply(
                status: 404, headers: [("Content-Type", "text/plain; charset=utf-8")], body: Data("Not Found".utf8))
        }
        return Reply(
            status: 200, headers: [("Content-Type", "image/png"), ("Cache-Control", "public, max-age=31536000")],
            body: StubPoster.png(id: movie.id, width: width))
    }
}
