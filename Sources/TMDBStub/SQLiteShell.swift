import Foundation

/// Runs the stock sqlite3 CLI on a database file, for tests that read what mustc wrote without mustc's code,
/// and prove the schema needs nothing but plain SQLite. Started with posix_spawn (`SpawnedChild`), its output and
/// errors in files: Foundation's `Process.run()` crashed a whole-suite run here once the test process held many
/// descriptors (see `ChildLaunch`), and this is the suite's most frequent child, over 200 a run.
public func sqlite(_ path: String, _ sql: String) throws -> String {
    let stem = NSTemporaryDirectory() + "mustc-sqlite3-\(UUID().uuidString)"
    let (out, err) = (stem + ".out", stem + ".err")
    defer {
        for file in [out, err] { try? FileManager.default.removeItem(atPath: file) }
    }
    let child = try SpawnedChild(
        "/usr/bin/sqlite3", ["-cmd", ".timeout 5000", path, sql], environment: ProcessInfo.processInfo.environment,
        stdin: nil, stdout: out, stderr: err)
    child.waitUntilExit()
    let read = { (file: String) in (try? Data(contentsOf: URL(fileURLWithPath: file))) ?? Data() }
    // A statement sqlite3 refuses (a wrong column count, a missing table) fails the test that wrote it, rather than
    // leaving the rows it meant to make unmade.
    guard child.terminationStatus == 0 else {
        throw SQLiteShellError(sql: sql, message: String(decoding: read(err), as: UTF8.self))
    }
    return String(decoding: read(out), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
}

public struct SQLiteShellError: Error, CustomStringConvertible {
    public var sql: String
    public var message: String
    public var description: String { "sqlite3 refused \(sql.prefix(200)): \(message)" }
}
