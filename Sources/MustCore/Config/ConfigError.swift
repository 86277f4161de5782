import Foundation

/// A configuration problem: names the file (or variable), the key and what was expected. Exit code 78.
public enum ConfigError: Error, Equatable, Sendable, CustomStringConvertible {
    case fileNotFound(path: String, via: String)
    case unreadable(path: String, reason: String)
    case malformedJSON(path: String, detail: String)
    case unknownKey(source: String, key: String, known: [String])
    case wrongType(source: String, key: String, expected: String, found: String)
    case invalidValue(source: String, key: String, expected: String)

    public var description: String {
        switch self {
        case .fileNotFound(let path, let via):
            "config file \(path) (from \(via)) does not exist; create it from config.example.json or drop \(via)"
        case .unreadable(let path, let reason):
            "config file \(path) cannot be read: \(reason)"
        case .malformedJSON(let path, let detail):
            "config file \(path) is not valid JSON: \(detail)"
        case .unknownKey(let source, let key, let known):
            "\(source): unknown key \"\(key)\"; known keys here are \(known.joined(separator: ", "))"
        case .wrongType(let source, let key, let expected, let found):
            "\(source): key \"\(key)\" must be \(expected), found \(found)"
        case .invalidValue(let source, let key, let expected):
            "\(source): key \"\(key)\" must be \(expected)"
        }
    }
}
