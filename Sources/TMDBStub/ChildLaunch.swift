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
