import Foundation
import TMDBStub
import TestSupport

/// What one run of the built `mustc` binary did.
struct Outcome: Sendable {
    var status: Int32
    var stdout: String
    var stderr: String
    /// The bytes as written, for checks a decoded string could hide (a raw ESC, a C1 byte pair).
    var stdoutBytes: [UInt8] = []
    var stderrBytes: [UInt8] = []
    var all: String { stdout + stderr }

    func json() throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: Data(stdout.utf8))
        guard let dictionary = object as? [String: Any] else { throw BinaryError.notAnObject(stdout) }
        return dictionary
    }

    /// Standard output as a JSON array of objects, as `movies --format json` prints.
    func jsonArray() throws -> [[String: Any]] {
        let object = try JSONSerialization.jsonObject(with: Data(stdout.utf8))
        guard let array = object as? [[String: Any]] else { throw BinaryError.notAnObject(stdout) }
        return array
    }
}

enum BinaryError: Error {
    case notFound(String)
    case timedOut([String], seconds: Double)
    case notAnObject(String)
}

/// mustc's commands with a clean environment whose HOME and XDG directories point into a temporary directory: run
/// inside the test's process (`InProcess`) unless the process is the subject, and then as the `mustc` binary SwiftPM
/// built next to this test bundle, run as a user would, in its own process (`Through`).
struct MustcBinary: Sendable {
    static let url: URL = {
        if let explicit = ProcessInfo.processInfo.environment["MUSTC_BINARY"] { return URL(fileURLWithPath: explicit) }
        let me = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        var directory = me.deletingLastPathComponent()
        // The test bundle may sit inside a .xctest directory on some layouts.
        while directory.pathExtension == "xctest" { directory = directory.deletingLastPathComponent() }
        return directory.appending(path: "mustc")
    }()

    /// A copy of the built binary at `path`, written as `writeExecutable` writes.
    static func copy(to path: String) throws {
        try writeExecutable(Data(contentsOf: url), to: path)
    }

    /// The built binary at `path` as a second name of the same file, or a copy where a link cannot be made (another
    /// file system): for a test that needs the binary somewhere another user can reach, not a copy as such. The
    /// debug binary is 114 MB, and copying it for each test had cost about 2 CPU-seconds a run.
    static func link(to path: String) throws {
        if Glibc.link(url.path, path) != 0 { try copy(to: path) }
    }

    let home: TemporaryDirectory
    var environment: [String: String]
    var executable: URL = MustcBinary.url

    /// - Parameter posters: fetch posters from the stub's image host; otherwise from a loopback port where nothing
    ///   listens, so a test about something else writes no poster files (each fetch's few refused connections
    ///   cost nothing), and no test ever reaches TMDB's image host.
    init(stub: TMDBStubServer? = nil, posters: Bool = false) {
        home = TemporaryDirectory("mustc-e2e")
        environment = [
            "HOME": home.path, "XDG_CONFIG_HOME": home.file("config"), "XDG_DATA_HOME": home.file("data"),
            "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8",
        ]
        // The README's test command's cheaper bcrypt (FamilyPassword.workFactor) reaches the binary as it reaches
        // the commands run in this process.
        environment["MUSTC_TEST_BCRYPT_COST"] = ProcessInfo.processInfo.environment["MUSTC_TEST_BCRYPT_COST"]
        let images = posters ? stub?.imageBaseURL.absoluteString : nil
        environment["MUSTC_TMDB_IMAGE_BASE_URL"] = images ?? "http://127.0.0.1:1/t/p/"
        if let stub {
            environment["MUSTC_TMDB_BASE_URL"] = stub.baseURL.absoluteString
            environment["TMDB_API_KEY"] = stub.apiKey
        }
    }

    var databasePath: String { home.file("data/mustc/mustc.sqlite") }

    /// Starts the binary without waiting, so several can run at the same moment; `stdin` is a file to read from.
    func start(_ arguments: [String], stdin: String? = nil) throws -> Running {
        // A binary copied a moment ago can still be open for writing in a child another test thread forked
        // before its exec: Linux then refuses to run it (ETXTBSY) until that child has exec'd. Try again briefly.
        var launched: Running?
        try Poll.blockingUntil(within: .seconds(2), every: .milliseconds(50)) {
            do {
                launched = try launch(arguments, stdin: stdin)
            } catch let error as POSIXError where error.code == .ETXTBSY {}
            return launched != nil
        }
        return try launched ?? launch(arguments, stdin: stdin)
    }

    private func launch(_ arguments: [String], stdin: String?) throws -> Running {
        // Files rather than pipes: a chatty child can never block on a full pipe.
        let id = UUID().uuidString
        let out = home.file("stdout-\(id)")
        let err = home.file("stderr-\(id)")
        guard FileManager.default.isExecutableFile(atPath: executable.path) else {
            throw BinaryError.notFound(executable.path)
        }
        // posix_spawn, not Foundation's Process (see SpawnedChild), in turn with every other child (ChildLaunch).
        let child = try SpawnedChild(
            executable.path, arguments, environment: environment, stdin: stdin, stdout: out, stderr: err)
        return Running(process: child, stdoutPath: out, stderrPath: err)
    }

    /// Longer than any command takes on a loaded 2-core machine; a process still running then is a hang.
    static let deadline: Double = 120

    /// How `run` runs a command: inside the test's process (`InProcess`), where only the command's output and exit
    /// code are the subject, or through the built binary, where the process is (what it inherits, how it exits, the
    /// binary itself). `start` always starts the binary, and so does `run` for `serve`, for another `executable`
    /// (a copy, `script`, `setpriv`, a shell), and when this is `.binary`. A `fetch` runs here too: its HTTP loops
    /// stop with the command (`CurlLoop.abandon`), where they had kept their threads and connections for 5 idle
    /// seconds, and the suite's fetches had held hundreds of descriptors at once in this process.
    enum Through: Sendable { case inProcess, binary }
    var through = Through.inProcess

    @discardableResult
    func callAsFunction(_ arguments: String...) async throws -> Outcome { try await run(arguments) }

    /// Through the built binary whatever `through` says: a command's end-to-end run.
    @discardableResult
    func binary(_ arguments: String...) async throws -> Outcome { try await runBinary(arguments) }

    /// Runs to the end, in this process or as the binary (`through`); throws at the deadline.
    @discardableResult
    func run(_ arguments: [String]) async throws -> Outcome {
        guard runsInProcess(arguments) else { return try await runBinary(arguments) }
        return try await InProcess.run(arguments, environment: environment, deadline: Self.deadline)
    }

    /// Runs to the end with `text` as standard input, as a pipe gives it: in this process, or the binary reading
    /// it from a file (`through`); throws at the deadline.
    @discardableResult
    func run(_ arguments: [String], input text: String) async throws -> Outcome {
        guard runsInProcess(arguments) else {
            let path = home.file("stdin-\(UUID().uuidString)")
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            return try await runBinary(arguments, stdin: path)
        }
        return try await InProcess.run(
            arguments, environment: environment, input: Data(text.utf8), deadline: Self.deadline)
    }

    private func runsInProcess(_ arguments: [String]) -> Bool {
        through == .inProcess && executable == Self.url && arguments.first != "serve"
    }

    /// Runs the binary to the end (`stdin`: a file to read from), or kills the process at the deadline and throws.
    @discardableResult
    func runBinary(_ arguments: [String], stdin: String? = nil) async throws -> Outcome {
        let (outcome, exited) = try await start(arguments, stdin: stdin).wait(orKillAfter: Self.deadline)
        guard exited else { throw BinaryError.timedOut(arguments, seconds: Self.deadline) }
        return outcome
    }
}

/// What a test reads of a child it started: Foundation's `Process`, or a `SpawnedChild` by the same names.
protocol ChildProcess: AnyObject {
    var processIdentifier: Int32 { get }
    var isRunning: Bool { get }
    var terminationStatus: Int32 { get }
    func waitUntilExit()
}

extension Process: ChildProcess {}
extension SpawnedChild: ChildProcess {}

struct Running: @unchecked Sendable {
    let process: any ChildProcess
    let stdoutPath: String
    let stderrPath: String

    /// Waits on a Dispatch thread, not on Swift's few cooperative threads, so that other tests keep running.
    func wait() async -> Outcome {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            DispatchQueue.global().async {
                process.waitUntilExit()
                continuation.resume()
            }
        }
        let read = { (path: String) in (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }
        let bytes = { (path: String) in [UInt8]((try? Data(contentsOf: URL(fileURLWithPath: path))) ?? Data()) }
        return Outcome(
            status: process.terminationStatus, stdout: read(stdoutPath), stderr: read(stderrPath),
            stdoutBytes: bytes(stdoutPath), stderrBytes: bytes(stderrPath))
    }
}

extension Running {
    /// Waits up to `seconds`; a process still running then is killed, and `exited` is false.
    func wait(orKillAfter seconds: Double) async -> (outcome: Outcome, exited: Bool) {
        await Poll.until(within: Poll.seconds(seconds), every: .milliseconds(20)) { !process.isRunning }
        let exited = !process.isRunning
        if !exited { kill(process.processIdentifier, SIGKILL) }
        return (await wait(), exited)
    }
}

func waitAll(_ running: [Running]) async -> [Outcome] {
    var outcomes: [Outcome] = []
    for process in running { outcomes.append(await process.wait()) }
    return outcomes
}

/// Writes `bytes` to `path` with mode 755, through a descriptor closed on exec. Foundation's `copyItem` and
/// `write(toFile:)` open the file without O_CLOEXEC (strace), so a child that another test spawned while the file
/// was being written kept it open for its whole life, and running the file then failed with ETXTBSY ("Text file
/// busy") past every retry: seen with a copy of the binary in a fresh-clone CI run, 2026-11-27.
func writeExecutable(_ bytes: Data, to path: String) throws {
    let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o755)
    guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    let file = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
    try file.write(contentsOf: bytes)
    guard fchmod(descriptor, 0o755) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    try file.close()
}

/// A shell script at `path`, ready to run (`writeExecutable`).
func writeScript(_ text: String, to path: String) throws {
    try writeExecutable(Data(text.utf8), to: path)
}
