import Foundation

/// One child started at a time, for every test target (they share this module and one test process). A
/// fresh-clone CI run crashed inside Foundation's `Process.run()` (a memmove of a bad pointer) while many tests
/// started children at once; a spawn takes a millisecond, so taking turns costs little.
public enum ChildLaunch {
    private static let lock = NSLock()

    /// `process.run()`, never at the same moment as another launch through here.
    public static func run(_ process: Process) throws { try lock.withLock { try process.run() } }

    /// `body` (a `posix_spawn`, say) holding the same turn.
    public static func withTurn<T>(_ body: () throws -> T) rethrows -> T { try lock.withLock(body) }
}
