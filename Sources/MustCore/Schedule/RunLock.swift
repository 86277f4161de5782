import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// An exclusive `flock` on a file beside the database: one fetch at a time across processes.
/// The kernel drops it when the process exits, however it exits, so a `kill -9` never leaves it stuck.
public final class RunLock: Sendable {
    public let path: String
    private let descriptor: Int32

    private init(path: String, descriptor: Int32) {
        self.path = path
        self.descriptor = descriptor
    }

    /// Takes the lock without waiting; nil when another process holds it.
    public static func acquire(path: String) throws(StoreError) -> RunLock? {
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw .cannotOpen(path: path, reason: "cannot create the fetch lock: \(String(cString: strerror(errno)))")
        }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            close(descriptor)
            return nil
        }
        return RunLock(path: path, descriptor: descriptor)
    }

    deinit {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}
