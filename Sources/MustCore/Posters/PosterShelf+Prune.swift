import Foundation

/// What `prune` found and did.
public struct PosterPrune: Sendable, Equatable {
    /// Posters (both sizes of one path) removed to keep within the bound.
    public var removed = 0
    /// Bytes of poster files kept afterwards.
    public var bytes: Int64 = 0
}

extension PosterShelf {
    /// The bytes the last prune left, in a file beside the size folders (only the fetch downloads posters, and only
    /// its prune writes this); nil before the first prune or when the file is unreadable.
    public func lastKept() -> Int64? {
        guard let text = try? String(contentsOfFile: keptFile, encoding: .utf8) else { return nil }
        return Int64(text.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    func noteKept(_ bytes: Int64) {
        guard lastKept() != bytes else { return }
        try? String(bytes).write(toFile: keptFile, atomically: true, encoding: .utf8)
    }

    var keptFile: String { directory + "/kept" }

    /// One poster's files, both sizes together: they are kept and removed as one.
    struct Kept {
        var name: String
        var bytes: Int64 = 0
        /// When the server last read either file. The kernel records it as `serve` reads the file (with the usual
        /// `relatime`, at the first read after a download and then at most once a day), so a `serve` that may not
        /// write anything still says what it showed. With `noatime` it stays the download time: oldest go first.
        var shown: Double = 0
        var files: [String] = []
    }

    /// Keeps the directory within `maxBytes`: posters no movie uses (`inUse` holds every stored poster path) go
    /// first, then the posters shown least recently. Leftovers of killed downloads go always. Blocking; run it
    /// when no download is under way (the fetch holds its lock and has waited for its downloads).
    public func prune(maxBytes: Int64, inUse: Set<String>) -> PosterPrune {
        var posters: [String: Kept] = [:]
        for size in PosterSize.allCases {
            let folder = folder(size)
            for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] {
                let file = folder + "/" + name
                if name.hasPrefix(Self.partialPrefix) {
                    unlink(file)
                    continue
                }
                // Only files this shelf wrote are counted or touched.
                guard PosterPath.isValidFileName(name) else { continue }
                var info = stat()
                guard stat(file, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { continue }
                let shown = Double(info.st_atim.tv_sec) + Double(info.st_atim.tv_nsec) / 1e9
                var kept = posters[name] ?? Kept(name: name)
                kept.bytes += Int64(info.st_size)
                kept.shown = max(kept.shown, shown)
                kept.files.append(file)
                posters[name] = kept
            }
        }
        var result = PosterPrune(removed: 0, bytes: posters.values.reduce(0) { $0 + $1.bytes })
        guard result.bytes > maxBytes else { return result }
        let order = posters.values.sorted { lhs, rhs in
            let (leftUsed, rightUsed) = (inUse.contains("/" + lhs.name), inUse.contains("/" + rhs.name))
            if leftUsed != rightUsed { return !leftUsed }
            return (lhs.shown, lhs.name) < (rhs.shown, rhs.name)
        }
        for poster in order where result.bytes > maxBytes {
            // The list's size first: a page shows a poster only while its w185 file is there.
            for file in poster.files.sorted() { unlink(file) }
            result.bytes -= poster.bytes
            result.removed += 1
        }
        return result
    }
}
