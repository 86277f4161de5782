/// Levenshtein distance between two strings' characters: the edits (insert, delete, replace) from one to the other.
enum EditDistance {
    static func between(_ a: [Character], _ b: [Character]) -> Int {
        guard !a.isEmpty else { return b.count }
        // One row of Levenshtein's table at a time.
        var distances = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var previous = distances[0]
            distances[0] = i + 1
            for (j, y) in b.enumerated() {
                let saved = distances[j + 1]
                distances[j + 1] = min(distances[j + 1] + 1, distances[j] + 1, previous + (x == y ? 0 : 1))
                previous = saved
            }
        }
        return distances[b.count]
    }
}
