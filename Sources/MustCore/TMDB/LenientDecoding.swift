import Foundation

/// TMDB's figures as they really arrive: whole numbers as integers, and in answers recorded by others popularity
/// as a string (`"popularity": "93.4917224393659"`). Anything else fails with the field and what was there.
extension KeyedDecodingContainer {
    /// A finite number sent as a number or as a numeric string; nil when absent or null.
    /// A number, by far the most common, is read in one lookup: asking `contains`, then `decodeNil`, then
    /// `decode` first cost a fetch 2 µs of CPU per movie.
    func decodeFigure(_ key: Key) throws -> Double? {
        if let number = try? decodeIfPresent(Double.self, forKey: key) {
            if number.isFinite { return number }
        } else if try !contains(key) || decodeNil(forKey: key) {
            return nil
        }
        if let text = try? decode(String.self, forKey: key),
            let number = Double(text.trimmingCharacters(in: .whitespaces)), number.isFinite
        {
            return number
        }
        throw mismatch(key, expected: "a number")
    }

    /// A whole number sent as an integer, as a number with no fraction (7.0), or as a string of one.
    func decodeCount(_ key: Key) throws -> Int? {
        if let count = try? decodeIfPresent(Int.self, forKey: key) { return count }
        guard contains(key), !(try decodeNil(forKey: key)) else { return nil }
        if let number = try? decodeFigure(key), number.rounded() == number, let count = Int(exactly: number) {
            return count
        }
        throw mismatch(key, expected: "a whole number")
    }

    private func mismatch(_ key: Key, expected: String) -> DecodingError {
        DecodingError.dataCorruptedError(
            forKey: key, in: self, debugDescription: "expected \(expected), found \(found(key))")
    }

    /// What the field held, briefly: a string quoted and cut at 40 characters, or its JSON kind.
    private func found(_ key: Key) -> String {
        if let text = try? decode(String.self, forKey: key) {
            let cut = text.count > 40 ? String(text.prefix(40)) + "…" : text
            return "\"\(cut)\""
        }
        if let flag = try? decode(Bool.self, forKey: key) { return String(flag) }
        if let number = try? decode(Double.self, forKey: key) { return String(number) }
        if (try? nestedUnkeyedContainer(forKey: key)) != nil { return "an array" }
        return "an object"
    }
}

extension DecodingError {
    /// "results.0.popularity: expected a number, found \"oops\"": where in the body, and what was wrong there.
    public var fieldAndProblem: String {
        let (context, problem): (Context, String) =
            switch self {
            case .keyNotFound(let key, let context): (context, "\(key.stringValue) is missing")
            case .typeMismatch(let type, let context): (context, "expected \(Self.kind(type))")
            case .valueNotFound(let type, let context): (context, "expected \(Self.kind(type)), found null")
            case .dataCorrupted(let context): (context, context.debugDescription)
            @unknown default: (Context(codingPath: [], debugDescription: ""), "unreadable")
            }
        let path = context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
        if case .keyNotFound = self { return path.isEmpty ? problem : "\(path).\(problem)" }
        if path.isEmpty { return problem.isEmpty ? "not JSON" : "not JSON as expected (\(problem))" }
        return "\(path): \(problem)"
    }

    private static func kind(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Int.Type, is Double.Type: "a number"
        case is Bool.Type: "true or false"
        default: "\(type)"
        }
    }
}
