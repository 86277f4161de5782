/// Hands out a run's movies one page read at a time, so a run's memory does not grow with the library:
/// reading all 50,000 movies at once cost 24 MB of heap. A forced run reads every movie in id order; a scheduled
/// run reads the movies due at its start, most overdue first.
struct MoviePages {
    let store: Store
    let pageSize: Int
    let scope: FetchScope
    /// Times the reads.
    let time: TimeSource
    private var page: [StoredMovie] = []
    private var index = 0
    private var afterId: Int64 = 0
    private var cursor: DueCursor?
    private var exhausted = false
    /// Time spent reading pages, for the log: picking 1,000 due movies out of 1,000,000 must stay cheap.
    private(set) var readTime = Duration.zero

    init(store: Store, pageSize: Int, scope: FetchScope, time: TimeSource) {
        self.store = store
        self.pageSize = max(pageSize, 1)
        self.scope = scope
        self.time = time
    }

    mutating func next() throws(StoreError) -> StoredMovie? {
        if index == page.count {
            guard !exhausted else { return nil }
            let started = time.instant
            page =
                scope.force
                ? try store.moviesToRefresh(after: afterId, through: scope.lastId, limit: pageSize)
                : try store.dueMovies(asOf: scope.asOf, after: cursor, limit: pageSize)
            readTime += started.duration(to: time.instant)
            index = 0
            exhausted = page.count < pageSize
            guard let last = page.last else { return nil }
            afterId = last.id
            cursor = DueCursor(nextCheckAt: last.check?.nextCheckAt.timeIntervalSince1970 ?? 0, movieId: last.id)
        }
        defer { index += 1 }
        return page[index]
    }
}
