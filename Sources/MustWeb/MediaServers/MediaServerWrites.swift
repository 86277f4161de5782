import Dispatch
import Foundation
import MustCore
import Synchronization

/// Writes webhook events in turns, all those that came while the last turn was writing in one transaction (a group
/// commit): each event is still answered only after the commit that keeps it.
///
/// Each event had a transaction of its own, written from one of the thread pool's two threads, and the others
/// waited there for the one writer. Together, the events of a turn share the pages they dirty (the event table's, the
/// links', the new movies' last pages): serve wrote 15-16 KB an event instead of 24.5 (the log, the checkpoints'
/// copies, the answers; contrib/benchmarks/hooks, events about new movies, release build, 2026-11-27), so the log
/// reaches the size where a commit pauses to start it over (`BackgroundCheckpoints`) a third less often; SQLite's
/// locks and writes an event fell 3.5 and 2.7 times (strace). Here the events wait as continuations, holding no
/// thread, and a single Dispatch queue writes them.
final class MediaServerWrites: Sendable {
    /// An event's answer: the editor whose store kept it (for the lookup it may need), and what it did.
    typealias Written = Result<(MovieEditor, MediaEventOutcome), any Error>

    private struct Waiting {
        var write: MediaEventWrite
        var answer: CheckedContinuation<(MovieEditor, MediaEventOutcome), any Error>
    }

    /// At most this many events a transaction: a long burst is written in several turns, each answered at its end.
    static let maxTurn = 64

    private let queue = DispatchQueue(label: "mustc.media-server-writes")
    /// The events waiting for the next turn, and whether a turn is queued or running.
    private let state = Mutex<(waiting: [Waiting], writing: Bool)>(([], false))
    /// How many events each turn wrote, the last few, for tests.
    private let turns = Mutex<[Int]>([])

    /// Stores the event with the others waiting; returns once the transaction that holds it is committed.
    /// - Parameter open: the writable store's editor, opened on the writing queue (the first call may migrate).
    func record(_ write: MediaEventWrite, open: @escaping @Sendable () throws -> MovieEditor) async throws
        -> (MovieEditor, MediaEventOutcome)
    {
        try await withCheckedThrowingContinuation { answer in
            let start = state.withLock { state in
                state.waiting.append(Waiting(write: write, answer: answer))
                defer { state.writing = true }
                return !state.writing
            }
            if start { queue.async { self.writeTurns(open: open) } }
        }
    }

    /// Writes turns until no event waits.
    private func writeTurns(open: @Sendable () throws -> MovieEditor) {
        while true {
            let turn = state.withLock { state in
                let turn = Array(state.waiting.prefix(Self.maxTurn))
                state.waiting.removeFirst(turn.count)
                if turn.isEmpty { state.writing = false }
                return turn
            }
            if turn.isEmpty { return }
            turns.withLock { $0 = Array(($0 + [turn.count]).suffix(100)) }
            let written: [Written]
            do {
                let editor = try open()
                written = try editor.store.recordMediaEvents(turn.map(\.write)).map { result in
                    switch result {
                    case .success(let outcome): .success((editor, outcome))
                    case .failure(let error): .failure(error)
                    }
                }
            } catch {
                written = Array(repeating: .failure(error), count: turn.count)
            }
            for (waiting, result) in zip(turn, written) { waiting.answer.resume(with: result) }
        }
    }

    /// Tests: the number of events each turn wrote; holds turns back until `resume`; how many events wait.
    var turnSizes: [Int] { turns.withLock { $0 } }
    func hold() { queue.suspend() }
    func resume() { queue.resume() }
    var waitingCount: Int { state.withLock { $0.waiting.count } }
}
