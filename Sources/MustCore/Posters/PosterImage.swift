/// What a poster file really is, by its first bytes: only JPEG, PNG and WebP are kept or served. An image host
/// (or a proxy, or a captive portal) that answers with HTML, SVG or anything else gets nothing written.
public enum PosterImage: String, Sendable {
    case jpeg, png, webp

    /// At most 5 MB a file: TMDB's w342 posters are 30–80 KB.
    public static let maxBytes = 5 << 20

    /// The kind whose signature `bytes` start with; nil for anything else.
    public init?(signature bytes: some Collection<UInt8>) {
        let head = Array(bytes.prefix(12))
        if head.starts(with: [0xFF, 0xD8, 0xFF]) {
            self = .jpeg
        } else if head.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            self = .png
        } else if head.count == 12, head.starts(with: Array("RIFF".utf8)), head[8...].elementsEqual("WEBP".utf8) {
            self = .webp
        } else {
            return nil
        }
    }

    /// Whether `bytes` end as a whole file of this kind does: a body cut short by a closed connection that named
    /// no length still starts with a good signature.
    public func isComplete(_ bytes: [UInt8]) -> Bool {
        switch self {
        case .jpeg:
            // The end-of-image marker, allowing the few bytes of padding some encoders leave after it.
            let tail = bytes.suffix(32)
            return zip(tail, tail.dropFirst()).contains { $0 == 0xFF && $1 == 0xD9 }
        case .png:
            return bytes.suffix(12).elementsEqual([0, 0, 0, 0, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82])
        case .webp:
            guard bytes.count >= 12 else { return false }
            let declared = bytes[4..<8].reversed().reduce(0) { $0 << 8 | Int($1) }
            return declared + 8 == bytes.count
        }
    }

    /// The `Content-Type` a file of this kind is served with, whatever its name says.
    public var contentType: String {
        switch self {
        case .jpeg: "image/jpeg"
        case .png: "image/png"
        case .webp: "image/webp"
        }
    }
}
