import Foundation

/// Why a poster could not be kept on disk.
public struct PosterWriteError: Error, Sendable, CustomStringConvertible {
    public var description: String
}

extension PosterShelf {
    /// Prefix of a download in progress: never a valid poster file name (it starts with a dot), so never served,
    /// and removed by `prune` when a killed run left one behind.
    static let partialPrefix = ".partial-"

    /// Keeps `bytes` as the poster of `path` at `size`, atomically: written to a temporary file in the same
    /// folder, flushed to disk, then renamed over the final name, so a kill -9 or a full disk at any moment leaves
    /// either the whole poster or none (and at worst a `.partial-` file that nothing serves and `prune` removes).
    /// Blocking: call it off the cooperative pool.
    public func store(_ bytes: [UInt8], as path: String, size: PosterSize) throws(PosterWriteError) {
        guard let final = file(path, size: size) else { throw PosterWriteError(description: "not a poster path") }
        try makeFolders()
        let partial =
            folder(size) + "/" + Self.partialPrefix + PosterPath.fileName(path) + "-"
            + String(UInt64.random(in: 0...UInt64.max), radix: 36)
        let fd = open(partial, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw Self.failure("cannot create a file in \(folder(size))") }
        var written = 0
        let ok = bytes.withUnsafeBytes { raw -> Bool in
            while written < raw.count {
                let count = write(fd, raw.baseAddress! + written, raw.count - written)
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { return false }
                written += count
            }
            return fsync(fd) == 0
        }
        var failure = ok ? nil : Self.failure("cannot write \(PosterPath.fileName(path))")
        if close(fd) != 0, failure == nil { failure = Self.failure("cannot write \(PosterPath.fileName(path))") }
        if failure == nil, rename(partial, final) != 0 { failure = Self.failure("cannot rename into \(final)") }
        if let failure {
            unlink(partial)
            throw failure
        }
        // The folder is not synced: a rename lost to a power cut only loses the poster, which the movie's next check
        // downloads again; the file's own fsync above is what keeps a half-written poster from ever being named.
    }

    /// The posters directory and one folder per size, readable by all: a `serve` running as another user reads
    /// them, as it reads the database.
    func makeFolders() throws(PosterWriteError) {
        for folder in [directory] + PosterSize.allCases.map(folder) {
            if mkdir(folder, 0o755) != 0, errno != EEXIST {
                throw Self.failure("cannot create \(folder)")
            }
        }
    }

    /// The system's reason for the last failure, after what was being done.
    static func failure(_ doing: String) -> PosterWriteError {
        PosterWriteError(description: "\(doing): \(String(cString: strerror(errno)))")
    }
}
