/// The one shape of TMDB `poster_path` mustc accepts: `^/[A-Za-z0-9_-]+\.(jpg|jpeg|png|webp)$`. Anything else
/// (`/../../etc/passwd`, `http://elsewhere/x.jpg`, `/x.svg`) is never stored, requested, or looked up on disk, so a
/// path that passes is also a safe file name in the posters directory (the leading "/" dropped).
public enum PosterPath {
    /// The longest path accepted; TMDB's are about 32 characters.
    public static let maxLength = 128

    /// Read in place, with no copy: every details answer's path passes here.
    public static func isValid(_ path: String) -> Bool {
        let bytes = path.utf8
        guard bytes.count <= maxLength, bytes.first == UInt8(ascii: "/"),
            let dot = bytes.lastIndex(of: UInt8(ascii: "."))
        else { return false }
        let stem = bytes[bytes.index(after: bytes.startIndex)..<dot]
        guard !stem.isEmpty, stem.allSatisfy(isNameByte) else { return false }
        let suffix = bytes[bytes.index(after: dot)...]
        return extensions.contains { suffix.elementsEqual($0.utf8) }
    }

    /// The file name in the posters directory: the path without its leading "/". Only for a valid path.
    public static func fileName(_ path: String) -> String { String(path.dropFirst()) }

    /// A file name as a request names it (`abc.jpg`): valid when "/" + it is a valid path.
    public static func isValidFileName(_ name: String) -> Bool { isValid("/" + name) }

    static let extensions: Set<String> = ["jpg", "jpeg", "png", "webp"]

    private static func isNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"):
            true
        default: false
        }
    }
}
