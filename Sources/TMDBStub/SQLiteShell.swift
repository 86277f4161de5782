import Foundation
import GRDBSQLite

/// Runs SQL on a database file as the stock sqlite3 CLI would, for tests that read (or shape) what mustc wrote
/// without mustc's code, and prove the schema needs nothing but plain SQLite. The answer is the CLI's list mode:
/// a row a line, its columns joined by `|`, NULL as nothing, trimmed.
///
/// Plain SQL runs through SQLite's own C library in this process, one statement after another as the CLI runs
/// them, the first refused one thrown; dot-commands (`.read`, `.backup`, `.sha3sum`) through the CLI. This is the
/// suite's most frequent need, some 400 a run: launched, the CLI had cost 1.2 CPU-seconds of a run in its own
/// processes, besides each launch's share of the test process (perf, 2026-11-29).
public func sqlite(_ path: String, _ sql: String) throws -> String {
    guard !sql.hasPrefix(".") else { return try sqliteShell(path, sql) }
    var connection: OpaquePointer?
    defer { sqlite3_close_v2(connection) }
    guard sqlite3_open_v2(path, &connection, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil) == SQLITE_OK,
        let connection
    else { throw SQLiteShellError(sql: sql, message: refusal(connection)) }
    // The CLI's `.timeout 5000`: a write of mustc's in progress is waited for, not an error.
    sqlite3_busy_timeout(connection, 5000)
    var rows: [String] = []
    try sql.withCString { start in
        var next: UnsafePointer<CChar>? = start
        while let current = next, current.pointee != 0 {
            var statement: OpaquePointer?
            guard sqlite3_prepare_v2(connection, current, -1, &statement, &next) == SQLITE_OK else {
                throw SQLiteShellError(sql: sql, message: refusal(connection))
            }
            // Only blanks or a comment were left.
            guard let statement else { continue }
            defer { sqlite3_finalize(statement) }
            try rows.append(contentsOf: answer(of: statement, connection, sql))
        }
    }
    return rows.joined(separator: "\n").trimmingCharacters(in: .whitespacesAndNewlines)
}

/// The rows one statement gives, as the CLI's list mode prints them.
private func answer(of statement: OpaquePointer, _ connection: OpaquePointer, _ sql: String) throws -> [String] {
    var rows: [String] = []
    while true {
        switch sqlite3_step(statement) {
        case SQLITE_DONE:
            return rows
        case SQLITE_ROW:
            let columns = (0..<sqlite3_column_count(statement)).map { column in
                sqlite3_column_text(statement, column).map { String(cString: $0) } ?? ""
            }
            rows.append(columns.joined(separator: "|"))
        default:
            throw SQLiteShellError(sql: sql, message: refusal(connection))
        }
    }
}

private func refusal(_ connection: OpaquePointer?) -> String {
    connection.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) } ?? "cannot open"
}

/// The stock sqlite3 CLI, for its dot-commands. Started with posix_spawn (`SpawnedChild`), its output and errors in
/// files: Foundation's `Process.run()` crashed a whole-suite run here once the test process held many descriptors
/// (see `ChildLaunch`).
private func sqliteShell(_ path: String, _ command: String) throws -> String {
    let stem = NSTemporaryDirectory() + "mustc-sqlite3-\(UUID().uuidString)"
    let (out, err) = (stem + ".out", stem + ".err")
    defer {
        for file in [out, err] { try? FileManager.default.removeItem(atPath: file) }
    }
    let child = try SpawnedChild(
        "/usr/bin/sqlite3", ["-cmd", ".timeout 5000", path, command],
        environment: ProcessInfo.processInfo.environment, stdin: nil, stdout: out, stderr: err)
    child.waitUntilExit()
    let read = { (file: String) in (try? Data(contentsOf: URL(fileURLWithPath: file))) ?? Data() }
    // A command sqlite3 refuses fails the test that wrote it, rather than leaving what it meant to do undone.
    guard child.terminationStatus == 0 else {
        throw SQLiteShellError(sql: command, message: String(decoding: read(err), as: UTF8.self))
    }
    return String(decoding: read(out), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
}

public struct SQLiteShellError: Error, CustomStringConvertible {
    public var sql: String
    public var message: String
    public var description: String { "sqlite3 refused \(sql.prefix(200)): \(message)" }
}
