import Foundation

/// What makes a member name or a movie title unusable, checked before anything is written.
public enum NameProblem: Error, Equatable, Sendable, CustomStringConvertible {
    case empty(field: String)
    case tooLong(field: String, limit: Int)
    case controlCharacter(field: String)

    public var description: String {
        switch self {
        case .empty(let field):
            "the \(field) is empty; give at least one visible character"
        case .tooLong(let field, let limit):
            "the \(field) is longer than \(limit) characters; shorten it"
        case .controlCharacter(let field):
            "the \(field) contains a control character (a tab, newline or escape); remove it"
        }
    }
}

public enum NameValidation {
    public static let maximumLength = 200

    /// Returns the name trimmed of outer whitespace, or throws the first problem found.
    public static func validate(_ raw: String, field: String) throws(NameProblem) -> String {
        if raw.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            throw .controlCharacter(field: field)
        }
        let trimmed = raw.trimmingCharacters(in: .whitespaces)
        if trimmed.isEmpty || TitleKey.make(trimmed).isEmpty { throw .empty(field: field) }
        if trimmed.count > maximumLength { throw .tooLong(field: field, limit: maximumLength) }
        return trimmed
    }
}
