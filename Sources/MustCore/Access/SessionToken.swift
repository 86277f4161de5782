import Foundation

/// A sign-in session's secret: 256 random bits from the system's generator (getrandom), sent as the cookie.
/// The database keeps only its SHA-256 (`hash`), and the page's CSRF token is derived from it (`csrfToken`).
public struct SessionToken: Sendable, Equatable {
    public let value: String

    /// A token sent back by a browser: only the shape a new token has is accepted, so no other text reaches the
    /// database or a hash.
    public init?(cookie: String) {
        guard cookie.utf8.count == 64, cookie.utf8.allSatisfy({ Self.hexDigits.contains($0) }) else { return nil }
        value = cookie
    }

    private init(value: String) { self.value = value }

    public static func random() -> SessionToken {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return SessionToken(value: bytes.map { String(format: "%02x", $0) }.joined())
    }

    /// What the database keeps.
    public var hash: String { SHA256Digest.hex(value) }

    /// The token each form carries: tied to this session, so a token from another session (or none) fails, and it
    /// cannot be computed from the stored hash.
    public var csrfToken: String { SHA256Digest.hex("mustc csrf\n" + value) }

    private static let hexDigits = Set("0123456789abcdef".utf8)
}
