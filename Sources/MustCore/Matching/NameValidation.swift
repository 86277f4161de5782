import Foundation

/// What makes a member name or a movie title unusable, checked before anything is written.
public enum NameProblem: Error, Equatable, Sendable, CustomStringConvertible {
    case empty(field: String)
    case tooLong(field: String, limit: Int)
    case controlCharacter(field: String)
    /// A bidirectional override or isolate: it reorders what follows it on a terminal, so a name could print as
    /// another. `position` counts characters from 1.
    case bidiControl(field: String, scalar: String, position: Int)

    public var description: String {
        switch self {
        case .empty(let field):
            "the \(field) is empty; give at least one visible character"
        case .tooLong(let field, let limit):
            "the \(field) is longer than \(limit) characters; shorten it"
        case .controlCharacter(let field):
            "the \(field) contains a control character (a tab, newline or escape); remove it"
        case .bidiControl(let field, let scalar, let position):
            "the \(field) contains the text-direction control \(scalar) at character \(position), which reorders "
                + "text on a terminal; remove it"
        }
    }
}

public enum NameValidation {
    public static let maximumLength = 200

    /// Embeddings and overrides (U+202A–U+202E) and isolates (U+2066–U+2069).
    static let bidiControls: Set<UInt32> = Set(0x202A...0x202E).union(0x2066...0x2069)

    /// Returns the name trimmed of outer whitespace, or throws the first problem found.
    public static func validate(_ raw: String, field: String) throws(NameProblem) -> String {
        if raw.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            throw .controlCharacter(field: field)
        }
        for (offset, character) in raw.enumerated() {
            if let bidi = character.unicodeScalars.first(where: { bidiControls.contains($0.value) }) {
                let code = "U+" + String(bidi.value, radix: 16, uppercase: true)
                throw .bidiControl(field: field, scalar: code, position: offset + 1)
            }
        }
        let trimmed = raw.trimmingCharacters(in: .whitespaces)
        if trimmed.isEmpty || TitleKey.make(trimmed).isEmpty { throw .empty(field: field) }
        if trimmed.count > maximumLength { throw .tooLong(field: field, limit: maximumLength) }
        return trimmed
    }
}
