import Foundation
import HummingbirdBcrypt

/// The family's password for the page: checked for what bcrypt can hold, hashed with bcrypt (HummingbirdBcrypt),
/// and never kept or shown in the clear.
public enum FamilyPassword {
    /// bcrypt's work factor, 2^10 rounds. Measured: `mustc password` took 0.12 s longer than `--remove` (median
    /// of 5, debug build, the 2-core machine at load 11); a guess costs an attacker as much per try, and the page
    /// allows 5 wrong ones a minute from one address.
    static let cost: UInt8 = 10
    /// The factor new hashes are made with: `cost`. A debug build alone also reads `MUSTC_TEST_BCRYPT_COST`, which
    /// the README's test command sets to 4, bcrypt's least: a hash is then 64 times cheaper (bcrypt had been a
    /// tenth of the suite's CPU). A release build never reads it; a hash keeps its own factor, so `verify` is the
    /// same either way.
    static let workFactor = workFactor(environment: ProcessInfo.processInfo.environment)

    static func workFactor(environment: [String: String]) -> UInt8 {
        #if DEBUG
            if let text = environment["MUSTC_TEST_BCRYPT_COST"], let asked = UInt8(text), (4...cost).contains(asked) {
                return asked
            }
        #endif
        return cost
    }
    /// bcrypt reads at most 72 bytes: a longer password would be cut without a word, so it is refused.
    public static let maxBytes = 72
    public static let minCharacters = 8

    public enum Problem: Error, Equatable, CustomStringConvertible {
        case tooShort
        case tooLong
        case controlCharacters
        case different
        /// On the list of common passwords (Resources/common-passwords.txt).
        case common
        /// The name of a member, folded as names are matched.
        case memberName(String)

        public var description: String {
            switch self {
            case .tooShort: "the password needs at least \(FamilyPassword.minCharacters) characters"
            case .tooLong: "the password can be at most \(FamilyPassword.maxBytes) bytes (bcrypt reads no more)"
            case .controlCharacters: "the password cannot hold control characters such as tabs"
            case .different: "the two passwords differ"
            case .common:
                "that password is on a list of \(CommonPasswords.count.formatted(.number.grouping(.never))) common "
                    + "passwords that guessers try first; choose a longer one of your own, such as four unrelated words"
            case .memberName(let name):
                "that password is the name of the member \"\(name)\", the first thing a guesser tries; choose "
                    + "something that is no one's name"
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

    /// Refuses a password a guesser would try first: one on the common list (compared in lower case, as the list
    /// is written), or a member's name (folded as names are matched, spaces ignored). Only when setting one: a
    /// password set before this check keeps working.
    public static func checkStrength(_ password: String, memberNames: [String]) throws(Problem) {
        if CommonPasswords.contains(password) { throw .common }
        let key = { (text: String) in TitleKey.make(text).filter { !$0.isWhitespace } }
        let typed = key(password)
        if let name = memberNames.first(where: { key($0) == typed }) { throw .memberName(name) }
    }

    public static func hash(_ password: String) -> String { hash(password, factor: workFactor) }

    static func hash(_ password: String, factor: UInt8) -> String { Bcrypt.hash(password, cost: factor) }

    /// `verify` for a secret checked by its own rules (a profile's PIN), hashed with `hash`.
    static func verifyAnyText(_ text: String, hash: String) -> Bool { Bcrypt.verify(text, hash: hash) }

    /// Whether the password matches the stored hash. A password bcrypt cannot hold never matches.
    public static func verify(_ password: String, hash: String) -> Bool {
        guard (try? validate(password)) != nil else { return false }
        return Bcrypt.verify(password, hash: hash)
    }
}

/// The passwords a family's password may not be: the 11,611 of at least 8 characters (shorter ones are refused for
/// their length) among the 30,000 most frequent passwords in zxcvbn's frequency list (zxcvbn 4.5.0 on PyPI, MIT;
/// Resources/common-passwords.LICENSE.txt), lower case, one a line. Embedded at build time; 109 KB in the binary.
enum CommonPasswords {
    private static let list: Set<Substring> = Set(embeddedCommonPasswords.split(separator: "\n"))

    static var count: Int { list.count }

    static func contains(_ password: String) -> Bool { list.contains(Substring(password.lowercased())) }
}
