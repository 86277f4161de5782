import Foundation
import MustCore
import Synchronization

/// The import's one-line progress bar on stdout, by the share of the input read; redrawn at most ten times a
/// second, and only when stdout is a terminal.
final class ImportProgressBar: Sendable {
    private let lastDraw = Mutex<TimeSource.Instant?>(nil)
    private let width = 30
    /// Paces the redraws.
    private let time: TimeSource

    init(time: TimeSource) { self.time = time }

    func update(_ fraction: Double, _ summary: ImportSummary) {
        let now = time.instant
        let due = lastDraw.withLock { last in
            // The end is always drawn, so the bar's last state is the import's.
            guard fraction >= 1 || last.map({ $0.duration(to: now) >= .milliseconds(100) }) ?? true else {
                return false
            }
            last = now
            return true
        }
        guard due else { return }
        let filled = max(0, min(width, Int(Double(width) * fraction)))
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
        let lookups = summary.exact + summary.chosen + summary.needsChoice + summary.notFound + summary.failed
        let line =
            "\r[\(bar)] \(summary.rows) rows  linked \(summary.linked)  looked up \(lookups)  "
            + "invalid \(summary.invalid)\u{1B}[K"
        Console.write(Data(line.utf8), to: .output)
    }

    /// Clears the bar's line, before other output or at the end.
    func clear() {
        guard lastDraw.withLock({ $0 != nil }) else { return }
        Console.write(Data("\r\u{1B}[K".utf8), to: .output)
    }
}
