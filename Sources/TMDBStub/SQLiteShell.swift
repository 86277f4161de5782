import Foundation

/// Runs the stock sqlite3 CLI on a database file, for tests that read what mustc wrote without mustc's code,
/// and prove the schema needs nothing but plain SQLite.
public func sqlite(_ path: String, _ sql: String) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
    process.arguments = ["-cmd", ".timeout 5000", path, sql]
    let pipe = Pipe()
    process.standardOutput = pipe
    try ChildLaunch.run(process)
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
}
