import Foundation
import Subprocess
import Synchronization

#if canImport(System)
    import System
#else
    import SystemPackage
#endif

/// What the newData hook did, for the log and `mustc status`.
public struct HookRecord: Sendable, Equatable {
    public enum Outcome: String, Sendable {
        case succeeded, failed, timedOut, notStarted
    }

    public var runId: Int64?
    public var startedAt: Date
    public var elapsed: TimeInterval
    /// The hook's first argument only: the others may hold an address or a token.
    public var program: String
    /// How many movies its input listed.
    public var changes: Int
    public var outcome: Outcome
    /// The exit code; a signal that ended it is negative (-9 for SIGKILL); nil when it never started.
    public var exitStatus: Int32?
    /// The end of what it wrote to stderr (or why it could not start), secrets redacted.
    public var stderrTail: String

    public init(
        runId: Int64?, startedAt: Date, elapsed: TimeInterval, program: String, changes: Int, outcome: Outcome,
        exitStatus: Int32?, stderrTail: String
    ) {
        (self.runId, self.startedAt, self.elapsed, self.program) = (runId, startedAt, elapsed, program)
        (self.changes, self.outcome, self.exitStatus, self.stderrTail) = (changes, outcome, exitStatus, stderrTail)
    }
}

/// `fetch.onNewData`: a program run after a newData run with that run's changes as JSON on its standard input.
///
/// Run through swift-subprocess rather than Foundation's Process: it waits for the child with a pidfd on its own
/// monitor thread (no cooperative thread blocks, no run loop), closes every inherited descriptor above stderr in the
/// child (the fetch lock, SQLite and curl sockets stay ours), resets signal dispositions, and tears the hook's
/// process group down on cancellation, which is how the timeout is enforced.
public struct NewDataHook: Sendable {
    public let arguments: [String]
    /// The program, found on PATH when it has no slash.
    public let executable: String
    public let timeout: TimeInterval
    /// The hook's environment: mustc's own, without TMDB_API_KEY, TMDB_ACCESS_TOKEN or any value holding a secret.
    public let environment: [String: String]
    let secrets: [String]
    /// Between SIGTERM and SIGKILL once the timeout has passed.
    var grace: Duration = .seconds(2)

    /// - Throws: `ConfigError` naming `fetch.onNewData` and the program when it cannot be found or run.
    public init(arguments: [String], timeout: TimeInterval, environment: [String: String], secrets: [String])
        throws(ConfigError)
    {
        guard let program = arguments.first, let executable = Self.locate(program, path: environment["PATH"]) else {
            let program = arguments.first ?? ""
            throw .invalidValue(
                source: "config", key: "fetch.onNewData",
                expected: "a program that exists and can be run; \"\(program)\" "
                    + (program.contains("/") ? "is not an executable file" : "is not on PATH"))
        }
        self.arguments = arguments
        self.executable = executable
        self.timeout = timeout
        let kept = secrets.filter { !$0.isEmpty }
        self.secrets = kept
        self.environment = environment.filter { name, value in
            name != "TMDB_API_KEY" && name != "TMDB_ACCESS_TOKEN" && !kept.contains { value.contains($0) }
        }
    }

    static func locate(_ program: String, path: String?) -> String? {
        func runnable(_ candidate: String) -> Bool {
            var directory: ObjCBool = false
            return FileManager.default.fileExists(atPath: candidate, isDirectory: &directory) && !directory.boolValue
                && FileManager.default.isExecutableFile(atPath: candidate)
        }
        if program.contains("/") { return runnable(program) ? program : nil }
        guard !program.isEmpty else { return nil }
        let directories = (path ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":").map(String.init)
        return directories.map { ($0.isEmpty ? "." : $0) + "/" + program }.first(where: runnable)
    }

    /// Runs the hook with `input` on its stdin, waiting at most `timeout` on `time`'s clock; never throws, whatever
    /// the hook does.
    public func run(input: [UInt8], changes: Int, runId: Int64?, time: TimeSource) async -> HookRecord {
        let now = time.now()
        // A hook that exits without reading its input must give us EPIPE, not a SIGPIPE that ends mustc.
        signal(SIGPIPE, SIG_IGN)
        let tail = StderrTail()
        let started = time.instant
        let ended = await withTaskGroup(of: Result<TerminationStatus, any Error>?.self) { group in
            group.addTask { await launch(input, tail) }
            group.addTask {
                try? await time.sleep(seconds: timeout)
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
        var record = HookRecord(
            runId: runId, startedAt: now, elapsed: time.seconds(since: started),
            program: arguments.first ?? "", changes: changes, outcome: .succeeded, exitStatus: nil, stderrTail: "")
        switch ended {
        case nil:
            record.outcome = .timedOut
        case .failure(let error)?:
            record.outcome = .notStarted
            tail.append("\(error)")
        case .success(.exited(let code))?:
            (record.outcome, record.exitStatus) = (code == 0 ? .succeeded : .failed, code)
        case .success(.signaled(let number))?:
            (record.outcome, record.exitStatus) = (.failed, -number)
        }
        record.stderrTail = secrets.reduce(tail.text) { Redaction.text($0, hiding: $1) }
        return record
    }

    /// Starts the hook in a session of its own, feeds it the input while keeping the end of its stderr; its stdout
    /// is discarded, as mustc's own stdout may be JSON a script reads.
    private func launch(_ input: [UInt8], _ tail: StderrTail) async -> Result<TerminationStatus, any Error> {
        var options = PlatformOptions()
        options.createSession = true
        options.teardownSequence = [.gracefulShutDown(toProcessGroup: true, allowedDurationToNextStep: grace)]
        var variables: [Environment.Key: String] = [:]
        for (name, value) in environment {
            if let key = Environment.Key(rawValue: name) { variables[key] = value }
        }
        let configuration = Configuration(
            executable: .path(FilePath(executable)), arguments: Arguments(Array(arguments.dropFirst())),
            environment: .custom(variables), platformOptions: options)
        do {
            let result = try await Subprocess.run(
                configuration, input: .inputWriter, output: .discarded, error: .sequence
            ) { execution in
                async let fed: Void = {
                    // EPIPE: the hook did not read its input, which is its choice.
                    _ = try? await execution.standardInputWriter.write(input)
                    try? await execution.standardInputWriter.finish()
                }()
                for try await chunk in execution.standardError { chunk.withUnsafeBytes { tail.append($0) } }
                await fed
            }
            return .success(result.terminationStatus)
        } catch {
            return .failure(error)
        }
    }
}

/// The last bytes a hook wrote to stderr: enough for a line or two in `status`.
final class StderrTail: Sendable {
    static let limit = 600
    private let bytes = Mutex<[UInt8]>([])

    func append(_ chunk: UnsafeRawBufferPointer) {
        bytes.withLock { bytes in
            bytes.append(contentsOf: chunk)
            if bytes.count > 2 * Self.limit { bytes.removeFirst(bytes.count - Self.limit) }
        }
    }

    func append(_ text: String) {
        Array(text.utf8).withUnsafeBytes { append($0) }
    }

    /// At most the last `limit` bytes, from the first whole line among them, trimmed.
    var text: String {
        let kept = bytes.withLock { Array($0.suffix(Self.limit)) }
        var text = String(decoding: kept, as: UTF8.self)
        if kept.count == Self.limit, let newline = text.firstIndex(of: "\n") {
            text = String(text[text.index(after: newline)...])
        }
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
