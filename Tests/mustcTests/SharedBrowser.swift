import Foundation
import Synchronization
import TMDBStub
import TestSupport

/// The test run's headless Chromiums: one `Tests/browser/host.py`, started by the first page check that needs it,
/// runs every page script (`PageEditTests`' edits.py too) in a pool of three Chromiums, each started once: a
/// Chromium costs about 0.4 s of CPU to start and quit here (the headless shell; the full browser 0.8), much of a
/// short script's time. The host reads its requests on its standard input, so it quits its Chromiums and exits when
/// the test process ends, however it ends; a request past its deadline ends the host (a hang), and the next request
/// starts another.
final class SharedBrowser: Sendable {
    static let shared = SharedBrowser()

    /// The host's process, the end of its input and its errors' file (Process: only read, and waited on).
    private struct Host: @unchecked Sendable {
        let process: Process
        let input: FileHandle
        let stderrPath: String
    }

    private let host = Mutex<Host?>(nil)
    /// Each answer's line by its request's id, as the reader thread found them.
    private let answers = Mutex<[Int: Data]>([:])
    private let nextId = Atomic<Int>(0)

    private static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appending(path: "browser")

    /// Runs `script` (a file of Tests/browser with a `run(borrow, args)`) with `arguments` in the shared Chromiums
    /// and returns its result; throws `ServeError.browser` with the script's error, or when no answer came within
    /// `deadline` seconds (waiting for a free Chromium included).
    func run(_ script: String, _ arguments: [String], deadline: Double) async throws -> [String: Any] {
        let id = nextId.add(1, ordering: .relaxed).newValue
        let request = try JSONSerialization.data(
            withJSONObject: ["id": id, "script": script.replacingOccurrences(of: ".py", with: ""), "args": arguments])
        try BrowserTools.require()
        let running = try host.withLock { host in
            if host == nil || host?.process.isRunning == false { host = try start() }
            // A host that ended is started again first; this file's `stop` forgets a host before it kills it.
            try host!.input.write(contentsOf: request + Data("\n".utf8))
            return host!
        }
        var line: Data?
        await Poll.until(within: Poll.seconds(deadline), every: .milliseconds(20)) {
            line = answers.withLock { $0.removeValue(forKey: id) }
            return line != nil || !running.process.isRunning
        }
        guard let line, let answer = try JSONSerialization.jsonObject(with: line) as? [String: Any] else {
            let ended = running.process.isRunning ? "no answer in \(deadline) s" : "the browser host ended"
            stop(running)
            let stderr = (try? String(contentsOfFile: running.stderrPath, encoding: .utf8)) ?? ""
            throw ServeError.browser("\(script): \(ended)\n\(stderr.suffix(4000))")
        }
        if let error = answer["error"] as? String { throw ServeError.browser("\(script): \(error)") }
        guard let result = answer["result"] as? [String: Any] else {
            throw ServeError.browser("\(script): no result in \(answer)")
        }
        return result
    }

    /// Starts the host (and so its Chromiums) now, if it is not running: a test calls it before it makes what it
    /// will show, so the Chromiums start while it does.
    func warm() throws {
        try BrowserTools.require()
        try host.withLock { host in
            if host == nil || host?.process.isRunning == false { host = try start() }
        }
    }

    private func start() throws -> Host {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [BrowserTools.python, Self.folder.appending(path: "host.py").path]
        process.currentDirectoryURL = Self.folder
        let (input, output) = (Pipe(), Pipe())
        let directory = TemporaryDirectory("mustc-browser-host")
        let stderrPath = directory.file("stderr")
        _ = FileManager.default.createFile(atPath: stderrPath, contents: nil)
        process.standardInput = input
        process.standardOutput = output
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: stderrPath))
        try ChildLaunch.run(process)
        // The test process keeps only the ends it uses: the host sees the end of its input when this one closes.
        try input.fileHandleForReading.close()
        try output.fileHandleForWriting.close()
        let reader = output.fileHandleForReading
        Thread { [self] in
            var pending = Data()
            while case let chunk = reader.availableData, !chunk.isEmpty {
                pending.append(chunk)
                while let end = pending.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = pending[pending.startIndex..<end]
                    pending = Data(pending[(end + 1)...])
                    guard let object = try? JSONSerialization.jsonObject(with: line) as? [String: Any],
                        let id = object["id"] as? Int
                    else { continue }
                    answers.withLock { $0[id] = Data(line) }
                }
            }
            _ = directory  // kept until the host's output ends
        }.start()
        return Host(process: process, input: input.fileHandleForWriting, stderrPath: stderrPath)
    }

    /// Ends a host that hung: its process group (host.py makes its own), so its Chromiums and drivers go with it.
    private func stop(_ running: Host) {
        host.withLock { host in
            if host?.process.processIdentifier == running.process.processIdentifier { host = nil }
        }
        kill(-running.process.processIdentifier, SIGKILL)
        kill(running.process.processIdentifier, SIGKILL)
        try? running.input.close()
        running.process.waitUntilExit()
    }
}
