import Foundation
import HummingbirdBcrypt

/// The family's password for the page: checked for what bcrypt can hold, hashed with bcrypt (HummingbirdBcrypt),
/// and never kept or shown in the clear.
public enum FamilyPassword {
    /// bcrypt's work factor, 2^10 rounds. Measured: `mustc password` took 0.12 s longer than `--remove` (median
    /// of 5, debug build, the 2-core machine at load 11); a guess costs an attacker as much per try, and the page
    /// allows 5 wrong ones a minute from one address.
    static let cost: UInt8 = 10
    /// bcrypt reads at most 72 bytes: a longer password would be cut without a word, so it is refused.
    public static let maxBytes = 72
    public static let minCharacters = 8

    public enum Problem: Error, Equatable, CustomStringConvertible {
        case tooShort
        case tooLong
        case controlCharacters
        case different

        public var description: String {
            switch self {
            case .tooShort: "the password needs at least \(FamilyPassword.minCharacters) characters"
            case .tooLong: "the password can be at most \(FamilyPassword.maxBytes) bytes (bcrypt reads no more)"
            case .controlCharacters: "the password cannot hold control characters such as tabs"
            case .different: "the two passwords differ"
            }
        }
    }

    /// The password as typed, or why it cannot be used.
    public static func validate(_ password: String) throws(Problem) -> String {
        if password.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            throw .controlCharacters
        }
        if password.count < minCharacters { throw .tooShort }
        if password.utf8.count > maxBytes { throw .tooLong }
        return password
    }

    public static func hash(_ password: String) -> String {
        Bcrypt.hash(password, cost: cost)
    }

    /// Whether the password matches the stored hash. A password bcrypt cannot hold never matches.
    public static func verify(_ password: String, hash: String) -> Bool {
        guard (try? validate(password)) != nil else { return false }
        return Bcrypt.verify(password, hash: hash)
    }
}
