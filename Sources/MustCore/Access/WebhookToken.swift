import Foundation

/// The secret in a webhook URL (`/hooks/plex/TOKEN`): 256 random bits as 64 hex digits, like a session's. The
/// database keeps only its SHA-256; a URL's token is checked against it in constant time.
public struct WebhookToken: Sendable, Equatable {
    public let value: String

    public static func random() -> WebhookToken { WebhookToken(value: SessionToken.random().value) }

    private init(value: String) { self.value = value }

    /// What the database keeps.
    public var hash: String { SHA256Digest.hex(value) }

    /// Whether `presented` (a URL's last segment, anything at all) is the token whose hash is `storedHash`. Text of
    /// another shape is hashed all the same, and the digests are compared byte for byte without stopping early, so
    /// the time taken says nothing about how much of a guess was right.
    public static func matches(_ presented: String, storedHash: String) -> Bool {
        let shaped = presented.utf8.count == 64 && presented.utf8.allSatisfy { hexDigits.contains($0) }
        let digest = Array(SHA256Digest.hex(shaped ? presented : "").utf8)
        let stored = Array(storedHash.utf8)
        guard digest.count == stored.count else { return false }
        var difference: UInt8 = 0
        for index in digest.indices { difference |= digest[index] ^ stored[index] }
        return difference == 0 && shaped
    }

    private static let hexDigits = Set("0123456789abcdef".utf8)
}
