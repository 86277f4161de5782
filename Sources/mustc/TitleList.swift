import ArgumentParser
import Foundation

/// Titles from a file or standard input for `add --from`: one per line, blank lines skipped.
enum TitleList {
    static func read(_ path: String) throws -> [String] {
        let data: Data
        if path == "-" {
            data = Console.readToEnd()
        } else {
            guard let contents = FileManager.default.contents(atPath: path) else {
                throw ValidationError("cannot read titles from \(path); check that the file exists and is readable")
            }
            data = contents
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw ValidationError("\(path == "-" ? "standard input" : path) is not UTF-8 text")
        }
        return text.split(whereSeparator: \.isNewline).map(String.init)
            .filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
    }
}
