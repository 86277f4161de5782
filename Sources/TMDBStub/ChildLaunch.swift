import Foundation

/// One child started at a time, for every test target (they share this module and one test process), and none
/// while a test holds hundreds of descriptors (`withTurn`). Whole-suite runs crashed inside Foundation's
/// `Process.run()` (a memmove of a bad pointer): on Linux it lists /proc/self/fd and copies each entry's whole
/// 256-byte `d_name`, reading past glibc's 32 KB readdir buffer once the process holds about 1,300 descriptors
/// (swift-corelibs-foundation#5472, fixed after Swift 6.3.1). A spawn takes a millisecond, so turns cost little.
public enum ChildLaunch {
    private static let lock = NSLock()

    /// `process.run()`, never at the same moment as another launch through here.
    public static func run(_ process: Process) throws { try lock.withLock { try process.run() } }

    /// `body` (a `posix_spawn`, or a moment with many descriptors open) holding the same turn.
    public static func withTurn<T>(_ body: () throws -> T) rethrows -> T { try lock.withLock(body) }
}

/// A child started with posix_spawn, whose child closes every descriptor above standard error through glibc's
/// `posix_spawn_file_actions_addclosefrom_np` (close_range), never by listing /proc/self/fd: Foundation's
/// `Process.run()` lists it and crashed whole-suite runs (see `ChildLaunch`) once the test process held about
/// 1,500 descriptors. What the tests read of a `Process` (pid, running, status, wait) it offers by the same names.
public final class SpawnedChild: @unchecked Sendable {
    public let processIdentifier: pid_t
    private let lock = NSLock()
    private var ended: Int32?

    /// Starts `path` with `arguments` and exactly `environment`; standard input from `stdin` (else /dev/null),
    /// output and errors into the files at `stdout` and `stderr`. Throws the spawn's errno (ETXTBSY among them).
    public init(
        _ path: String, _ arguments: [String], environment: [String: String], stdin: String?, stdout: String,
        stderr: String
    ) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, stdin ?? "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, stdout, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, stderr, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        // glibc 2.34 and later; Swift's Glibc module does not import it, so it is looked up by name.
        typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
        guard let found = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") else {
            throw POSIXError(.ENOSYS)
        }
        _ = unsafeBitCast(found, to: AddCloseFrom.self)(&actions, 3)
        // Default dispositions and an empty mask, as a shell gives a command: a SIGPIPE this process ignores must
        // not stay ignored in the child.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var all = sigset_t()
        var none = sigset_t()
        sigfillset(&all)
        sigemptyset(&none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        let result = ChildLaunch.withTurn { posix_spawn(&pid, path, &actions, &attributes, argv, envp) }
        guard result == 0 else { throw POSIXError(POSIXErrorCode(rawValue: result) ?? .EIO) }
        processIdentifier = pid
    }

    /// False once the child has ended (it is reaped then).
    public var isRunning: Bool {
        lock.withLock {
            guard ended == nil else { return false }
            var status: Int32 = 0
            guard waitpid(processIdentifier, &status, WNOHANG) == processIdentifier else { return true }
            ended = status
            return false
        }
    }

    /// Polls rather than blocks in waitpid, so `isRunning` on another thread never races it for the status.
    public func waitUntilExit() {
        while isRunning { usleep(2_000) }
    }

    /// The exit status, or the signal's number when a signal ended it (as `Process` gives it).
    public var terminationStatus: Int32 {
        let status = lock.withLock { ended } ?? 0
        // WIFEXITED / WEXITSTATUS / WTERMSIG, which Swift does not import.
        return status & 0x7F == 0 ? (status >> 8) & 0xFF : status & 0x7F
    }
}
