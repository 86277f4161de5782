import Foundation

/// Runs the stock sqlite3 CLI on a database file, for tests that read what mustc wrote without mustc's code,
/// and prove the schema needs nothing but plain SQLite.
public func sqlite(_ path: String, _ sql: String) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
    process.arguments = ["-cmd", ".timeout 5000", path, sql]
    let (pipe, errors) = (Pipe(), Pipe())
    process.standardOutput = pipe
    process.standardError = errors
    try ChildLaunch.run(process)
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    let message = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    // A statement sqlite3 refuses (a wrong column count, a missing table) fails the test that wrote it, rather than
    // leaving the rows it meant to make unmade.
    guard process.terminationStatus == 0 else {
        throw SQLiteShellError(sql: sql, message: String(decoding: message, as: UTF8.self))
    }
    return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
}

public struct SQLiteShellError: Error, CustomStringConvertible {
    public var sql: String
    public var message: String
    public var description: String { "sqlite3 refused \(sql.prefix(200)): \(message)" }
}
