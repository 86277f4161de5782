/// Levenshtein distance between two strings' characters: the edits (insert, delete, replace) from one to the other.
enum EditDistance {
    /// With `limit`, any distance above it may be answered as `limit + 1`: the scan stops at the first row of the
    /// table whose every cell is above it, as no later row can come back under (a library's scan for titles a
    /// typo away leaves most titles after a few letters).
    static func between(_ a: [Character], _ b: [Character], limit: Int? = nil) -> Int {
        guard !a.isEmpty else { return b.count }
        // One row of Levenshtein's table at a time.
        var distances = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var previous = distances[0]
            distances[0] = i + 1
            var least = distances[0]
            for (j, y) in b.enumerated() {
                let saved = distances[j + 1]
                distances[j + 1] = min(distances[j + 1] + 1, distances[j] + 1, previous + (x == y ? 0 : 1))
                least = min(least, distances[j + 1])
                previous = saved
            }
            if let limit, least > limit { return limit + 1 }
        }
        return distances[b.count]
    }
}
