/// Hands out a run's movies in id order, one page read at a time, so a run's memory does not grow with the
/// library: reading all 50,000 movies at once cost 24 MB of heap.
struct MoviePages {
    let store: Store
    let pageSize: Int
    let lastId: Int64
    private var page: [StoredMovie] = []
    private var index = 0
    private var afterId: Int64 = 0
    private var exhausted = false

    init(store: Store, pageSize: Int, lastId: Int64) {
        self.store = store
        self.pageSize = max(pageSize, 1)
        self.lastId = lastId
    }

    mutating func next() throws(StoreError) -> StoredMovie? {
        if index == page.count {
            guard !exhausted else { return nil }
            page = try store.moviesToRefresh(after: afterId, through: lastId, limit: pageSize)
            index = 0
            exhausted = page.count < pageSize
            guard let last = page.last else { return nil }
            afterId = last.id
        }
        defer { index += 1 }
        return page[index]
    }
}
