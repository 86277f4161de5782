import Foundation

/// How a person names a movie on the command line: a title (with a year when given), a TMDB id, or an IMDb id.
public enum MovieReference: Sendable, Equatable, CustomStringConvertible {
    case title(String, year: Int?)
    case tmdb(Int)
    /// "tt" followed by digits.
    case imdb(String)

    public static let years = 1870...2100

    /// Reads `"Dune (1984)"`, `tmdb:438631`, `imdb:tt1160419`, a themoviedb.org or imdb.com title URL, or a
    /// plain title. `year` is the `--year` option, which only a title may carry.
    public static func parse(_ raw: String, year: Int? = nil) throws(MovieReferenceProblem) -> MovieReference {
        let text = raw.trimmingCharacters(in: .whitespaces)
        if let year, !years.contains(year) { throw .yearOutOfRange("--year \(year)") }
        let reference: MovieReference
        if let id = prefixed(text, "tmdb:") {
            guard let number = Int(id), number > 0, number <= Int32.max, id.allSatisfy(\.isASCIIDigit) else {
                throw .badTMDBId(raw)
            }
            reference = .tmdb(number)
        } else if let id = prefixed(text, "imdb:") {
            guard let imdb = imdbId(id) else { throw .badIMDbId(raw) }
            reference = .imdb(imdb)
        } else if let url = try webAddress(text) {
            reference = url
        } else {
            reference = try titled(text, year: year)
        }
        if year != nil, !reference.isTitle { throw .yearWithId(raw) }
        return reference
    }

    /// The text after a case-insensitive scheme like `tmdb:`, or nil when the text does not start with it.
    private static func prefixed(_ text: String, _ prefix: String) -> String? {
        guard text.lowercased().hasPrefix(prefix) else { return nil }
        return String(text.dropFirst(prefix.count)).trimmingCharacters(in: .whitespaces)
    }

    /// IMDb title ids are "tt" and seven or more digits (eight since 2017).
    static func imdbId(_ text: String) -> String? {
        let lower = text.lowercased()
        guard lower.hasPrefix("tt") else { return nil }
        let digits = lower.dropFirst(2)
        guard (7...10).contains(digits.count), digits.allSatisfy(\.isASCIIDigit) else { return nil }
        return lower
    }

    private static func titled(_ text: String, year: Int?) throws(MovieReferenceProblem) -> MovieReference {
        var title = text
        var given = year
        // "Dune (1984)": four digits in parentheses at the very end.
        if text.hasSuffix(")"), let open = text.lastIndex(of: "(") {
            let inside = text[text.index(after: open)..<text.index(before: text.endIndex)]
            let before = text[..<open].trimmingCharacters(in: .whitespaces)
            if inside.count == 4, inside.allSatisfy(\.isASCIIDigit), !before.isEmpty, let parsed = Int(inside) {
                guard years.contains(parsed) else { throw .yearOutOfRange(text) }
                if let year, year != parsed { throw .conflictingYears(text, year) }
                title = before
                given = parsed
            }
        }
        do {
            return .title(try NameValidation.validate(title, field: "movie title"), year: given)
        } catch {
            throw .name(error, text)
        }
    }

    public var isTitle: Bool {
        if case .title = self { return true }
        return false
    }

    public var description: String {
        switch self {
        case .title(let title, let year?): "\(title) (\(year))"
        case .title(let title, nil): title
        case .tmdb(let id): "tmdb:\(id)"
        case .imdb(let id): "imdb:\(id)"
        }
    }

    /// The text to type to name this movie again, quoted for a POSIX shell when needed.
    public var argument: String { Shell.quoted(description) }
}

extension MovieReference {
    /// A themoviedb.org movie URL or an imdb.com title URL; nil when the text is not a URL at all.
    fileprivate static func webAddress(_ text: String) throws(MovieReferenceProblem) -> MovieReference? {
        let lower = text.lowercased()
        let schemes = ["https://", "http://"]
        let hosts = ["www.themoviedb.org/", "themoviedb.org/", "www.imdb.com/", "imdb.com/", "m.imdb.com/"]
        guard schemes.contains(where: lower.hasPrefix) || hosts.contains(where: lower.hasPrefix) else { return nil }
        guard let url = URL(string: schemes.contains(where: lower.hasPrefix) ? text : "https://" + text),
            let host = url.host?.lowercased()
        else { throw .notATitleURL(text) }
        let parts = url.path.split(separator: "/").map(String.init)
        if ["themoviedb.org", "www.themoviedb.org"].contains(host) {
            // /movie/438631-dune-part-one, optionally after a language segment and with more after it.
            guard let index = parts.firstIndex(of: "movie"), index + 1 < parts.count else {
                throw .notATitleURL(text)
            }
            let digits = parts[index + 1].prefix { $0.isASCIIDigit }
            guard let id = Int(digits), id > 0, id <= Int32.max else { throw .notATitleURL(text) }
            return .tmdb(id)
        }
        if ["imdb.com", "www.imdb.com", "m.imdb.com"].contains(host) {
            guard let index = parts.firstIndex(of: "title"), index + 1 < parts.count,
                let id = imdbId(parts[index + 1])
            else { throw .notATitleURL(text) }
            return .imdb(id)
        }
        throw .notATitleURL(text)
    }
}

/// Why a movie argument cannot be used; each names the argument as given.
public enum MovieReferenceProblem: Error, Sendable, Equatable, CustomStringConvertible {
    case badTMDBId(String)
    case badIMDbId(String)
    case yearOutOfRange(String)
    case conflictingYears(String, Int)
    case yearWithId(String)
    case notATitleURL(String)
    case name(NameProblem, String)

    public var description: String {
        switch self {
        case .badTMDBId(let raw):
            "\(Self.shown(raw)) is not a TMDB id; write tmdb: and the number, like tmdb:438631"
        case .badIMDbId(let raw):
            "\(Self.shown(raw)) is not an IMDb id; write imdb:tt and the digits, like imdb:tt1160419"
        case .yearOutOfRange(let raw):
            "the year in \(Self.shown(raw)) is not between \(MovieReference.years.lowerBound) and "
                + "\(MovieReference.years.upperBound)"
        case .conflictingYears(let raw, let year):
            "\(Self.shown(raw)) has a different year than --year \(year); give one year"
        case .yearWithId(let raw):
            "--year applies to a title, not to \(Self.shown(raw)), which already names one movie"
        case .notATitleURL(let raw):
            "\(Self.shown(raw)) is not a themoviedb.org movie URL or an imdb.com title URL"
        case .name(.empty(let field), _):
            // Quoting what was typed would only show `""`: the blanks are gone by now, and they were the problem.
            NameProblem.empty(field: field).description
        case .name(let problem, let raw):
            "\(problem.description) (got \(Self.shown(raw)))"
        }
    }

    static func shown(_ raw: String) -> String {
        (raw.count > 60 ? String(raw.prefix(60)) + "…" : raw).debugDescription
    }
}

/// Quoting for commands mustc prints for the user to copy.
public enum Shell {
    /// Bare when nothing needs quoting, in double quotes when nothing inside is special there, else single quotes.
    public static func quoted(_ text: String) -> String {
        let plain = text.unicodeScalars.allSatisfy {
            CharacterSet.alphanumerics.contains($0) || "-_.:/@+,=".unicodeScalars.contains($0)
        }
        if plain && !text.isEmpty { return text }
        if !text.contains(where: { "\"$`\\!".contains($0) }) { return "\"" + text + "\"" }
        return "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
