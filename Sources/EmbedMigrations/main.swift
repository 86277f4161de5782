import Foundation

// Usage: EmbedMigrations OUTPUT.swift 0001_a.sql 0002_b.sql … [schema.sql] [common-passwords.txt]
// Writes `embeddedMigrations`, an ordered list of (identifier, sql) for the store's migrator, `embeddedSchema`, the
// text of schema.sql (the schema the migrations make, for a new file), or "" without one, and
// `embeddedCommonPasswords`, the text of the .txt file (one password a line), or "" without one.

func swiftLiteral(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case "\n": out += "\\n"
        case "\r": out += "\\r"
        case "\t": out += "\\t"
        case _ where scalar.value < 0x20 || scalar.value == 0x7F:
            out += "\\u{\(String(scalar.value, radix: 16))}"
        default: out.unicodeScalars.append(scalar)
        }
    }
    return out + "\""
}

let arguments = Array(CommandLine.arguments.dropFirst())
guard let outputPath = arguments.first else {
    FileHandle.standardError.write(Data("usage: EmbedMigrations OUTPUT FILE.sql…\n".utf8))
    exit(64)
}

let files = arguments.dropFirst().map(URL.init(fileURLWithPath:))
let passwords = try files.first { $0.pathExtension == "txt" }.map { try String(contentsOf: $0, encoding: .utf8) }
let schema = try files.first { $0.lastPathComponent == "schema.sql" }
    .map { try String(contentsOf: $0, encoding: .utf8) }
let inputs = files.filter { $0.pathExtension == "sql" && $0.lastPathComponent != "schema.sql" }
    .sorted { $0.lastPathComponent < $1.lastPathComponent }
var lines = [
    "// Generated at build time from Migrations/*.sql. Do not edit.",
    "let embeddedMigrations: [(identifier: String, sql: String)] = [",
]
for url in inputs {
    let sql = try String(contentsOf: url, encoding: .utf8)
    lines.append("    (\(swiftLiteral(url.deletingPathExtension().lastPathComponent)), \(swiftLiteral(sql))),")
}
lines.append("]")
lines.append("let embeddedSchema = \(swiftLiteral(schema ?? ""))")
lines.append("let embeddedCommonPasswords = \(swiftLiteral(passwords ?? ""))")
try (lines.joined(separator: "\n") + "\n").write(toFile: outputPath, atomically: true, encoding: .utf8)
