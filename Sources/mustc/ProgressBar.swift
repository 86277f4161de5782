import Foundation
import MustCore
import Synchronization

/// A one-line progress bar on stdout, redrawn at most ten times a second. Only used when stdout is a terminal.
final class ProgressBar: Sendable {
    private let lastDraw = Mutex<TimeSource.Instant?>(nil)
    private let width = 30
    /// Paces the redraws.
    private let time: TimeSource

    init(time: TimeSource) { self.time = time }

    static var isTerminal: Bool { Console.isTerminal(STDOUT_FILENO) }

    func update(_ progress: FetchProgress) {
        let now = time.instant
        let due = lastDraw.withLock { last in
            guard progress.done == progress.total || last.map({ $0.duration(to: now) >= .milliseconds(100) }) ?? true
            else {
                return false
            }
            last = now
            return true
        }
        guard due else { return }
        let filled = progress.total == 0 ? width : width * progress.done / progress.total
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
        let line = String(
            format: "\r[%@] %d/%d  changed %d  failed %d  %.1f req/s\u{1B}[K", bar, progress.done, progress.total,
            progress.changed, progress.failed, progress.requestsPerSecond)
        Console.write(Data(line.utf8), to: .output)
    }

    func finish() {
        guard lastDraw.withLock({ $0 != nil }) else { return }
        Console.write(Data("\r\u{1B}[K".utf8), to: .output)
    }
}
