import Dispatch
import Foundation
import Synchronization

/// Applies a run's row changes in order on a queue of its own, so a database held by another writer (for up
/// to the busy timeout) never stalls the HTTP loop thread the fetch's operations run on.
/// A serial DispatchQueue rather than the cooperative pool: SQLite's busy wait blocks its thread.
final class StoreWriter: Sendable {
    /// What the writes came to: rows refused one by one, and the first failure of a whole batch.
    struct Results: Sendable {
        var refused: [WriteFailure] = []
        var batchFailure: String?
    }

    private let store: Store
    private let queue = DispatchQueue(label: "mustc.store-writer")
    private let results = Mutex(Results())

    init(store: Store) { self.store = store }

    /// Queues a batch and returns at once.
    func submit(_ batch: [MovieWrite], now: Date) {
        queue.async { [self] in
            do throws(StoreError) {
                let refused = try store.apply(batch, now: now)
                if !refused.isEmpty { results.withLock { $0.refused += refused } }
            } catch {
                results.withLock { $0.batchFailure = $0.batchFailure ?? error.description }
            }
        }
    }

    /// Waits for every queued batch, then tells how they went.
    func drain() async -> Results {
        await withCheckedContinuation { continuation in
            queue.async { [self] in continuation.resume(returning: results.withLock { $0 }) }
        }
    }
}
