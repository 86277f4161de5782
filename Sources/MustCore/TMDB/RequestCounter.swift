import Synchronization

/// Counts HTTP requests sent, retries included, for progress and run records.
public final class RequestCounter: Sendable {
    private let count = Atomic<Int>(0)

    public init() {}

    public var value: Int { count.load(ordering: .relaxed) }

    func increment() { count.add(1, ordering: .relaxed) }
}
