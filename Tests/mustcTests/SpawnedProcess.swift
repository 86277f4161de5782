import Foundation
import TMDBStub
import TestSupport

/// The built binary started with posix_spawn and reaped with wait4, for what Process cannot give: the child's peak
/// resident memory, and standard input from a FIFO the test holds.
///
/// The peak is wait4's ru_maxrss when that is above this test process's own high-water mark, else the largest VmHWM
/// of /proc/PID/status sampled while the binary ran: glibc's posix_spawn starts the child with CLONE_VM, and at exec
/// Linux folds the high-water mark of the memory it shared (this process's, 60 MB and more when every suite runs)
/// into the child's ru_maxrss. Above that mark, ru_maxrss can only be the child's own.
struct SpawnedProcess {
    let pid: pid_t
    let stdoutPath: String
    let stderrPath: String
    let executable: String

    /// Starts `binary` with `arguments`; standard input is the file (or FIFO) at `stdin`, else /dev/null.
    static func start(_ binary: MustcBinary, _ arguments: [String], stdin: String? = nil) throws -> SpawnedProcess {
        let id = UUID().uuidString
        let out = binary.home.file("spawned-out-\(id)")
        let err = binary.home.file("spawned-err-\(id)")
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, stdin ?? "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, out, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, err, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        let argv = ([binary.executable.path] + arguments).map { strdup($0) } + [nil]
        let envp = binary.environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        // In turn with every other child the tests start (see ChildLaunch).
        let result = ChildLaunch.withTurn { posix_spawn(&pid, binary.executable.path, &actions, nil, argv, envp) }
        guard result == 0 else { throw POSIXError(POSIXErrorCode(rawValue: result) ?? .EIO) }
        return SpawnedProcess(
            pid: pid, stdoutPath: out, stderrPath: err, executable: binary.executable.resolvingSymlinksInPath().path)
    }

    struct Ended {
        /// The exit status, or nil when a signal ended the process.
        var status: Int32?
        /// Peak resident memory in bytes (see above).
        var peakMemory: Int
        /// wait4's ru_maxrss in bytes, which includes the test process's memory (see above).
        var maxRSS: Int
        var stdout: String
        var stderr: String
        var all: String { stdout + stderr }
    }

    /// Waits up to `seconds`; a process still running then is killed and nil returned.
    func wait(deadline seconds: Double) async -> Ended? {
        var status: Int32 = 0
        var usage = rusage()
        var peak = 0
        let reaped = await Poll.until(within: Poll.seconds(seconds), every: .milliseconds(5)) {
            if let hwm = highWaterMark() { peak = max(peak, hwm) }
            return wait4(pid, &status, WNOHANG, &usage) == pid
        }
        if !reaped {
            kill(pid, SIGKILL)
            _ = wait4(pid, &status, 0, &usage)
            return nil
        }
        let read = { (path: String) in (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }
        // WIFEXITED / WEXITSTATUS, which Swift does not import.
        let exited = status & 0x7F == 0
        return Ended(
            status: exited ? (status >> 8) & 0xFF : nil,
            peakMemory: usage.ru_maxrss * 1024 > Self.highWaterMark(of: "self") ?? .max ? usage.ru_maxrss * 1024 : peak,
            maxRSS: usage.ru_maxrss * 1024,
            stdout: read(stdoutPath), stderr: read(stderrPath))
    }

    func signal(_ number: Int32) { kill(pid, number) }

    /// VmHWM in bytes, once the process runs the binary (before its exec it is a copy of this process).
    private func highWaterMark() -> Int? {
        let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/exe")
        guard exe == executable else { return nil }
        return Self.highWaterMark(of: "\(pid)")
    }

    private static func highWaterMark(of process: String) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(process)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") })
        else { return nil }
        return line.split(separator: " ").compactMap { Int($0) }.first.map { $0 * 1024 }
    }

    /// Past its exec: before it, the child is a copy of the test process, with the test's descriptors.
    func runs(_ binary: MustcBinary) -> Bool {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/exe")) == executable
    }

    /// Where the process's open descriptors point, once it runs `binary`.
    func descriptors(_ binary: MustcBinary) -> [String] { openFiles() }

    /// Sends `number` the moment the process holds `path` open, looking every millisecond from a thread of its own:
    /// a test task waiting for one of a busy machine's few cooperative threads once looked too late, when the
    /// process had read the file to its end. The moment it was sent, or nil when `path` was not opened in `seconds`.
    func signal(_ number: Int32, onceItOpens path: String, within seconds: Double) async -> ContinuousClock.Instant? {
        let process = self
        return await withCheckedContinuation { continuation in
            Thread {
                let opened = Poll.blockingUntil(within: Poll.seconds(seconds)) { process.openFiles().contains(path) }
                if opened { process.signal(number) }
                continuation.resume(returning: opened ? ContinuousClock.now : nil)
            }.start()
        }
    }

    private func openFiles() -> [String] {
        guard (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/exe")) == executable else {
            return []
        }
        let directory = "/proc/\(pid)/fd"
        let fds = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return fds.compactMap { try? FileManager.default.destinationOfSymbolicLink(atPath: "\(directory)/\($0)") }
    }
}
