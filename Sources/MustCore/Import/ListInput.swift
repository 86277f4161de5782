import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Wakes every blocked read of one import: SIGINT and SIGTERM cancel the import's task, and its cancellation
/// handler calls `interrupt()`. A read waits in poll(2) on its descriptor and this pipe, so a pipe or FIFO that
/// never writes (or a writer that never opens a FIFO) cannot hold the process.
public final class ReadInterrupt: Sendable {
    private let reading: Int32
    private let writing: Int32
    private let flag = Atomic(false)

    public init() {
        var ends: [Int32] = [-1, -1]
        _ = pipe(&ends)
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        (reading, writing) = (ends[0], ends[1])
    }

    public func interrupt() {
        guard !flag.exchange(true, ordering: .sequentiallyConsistent) else { return }
        var one: UInt8 = 1
        _ = Glibc.write(writing, &one, 1)
    }

    deinit {
        close(reading)
        close(writing)
    }

    /// Whether the import was interrupted: a file that always has data never waits, so reads look here first.
    var fired: Bool { flag.load(ordering: .sequentiallyConsistent) }

    /// Waits until `other` can be read, or throws `CancellationError` when interrupted first.
    func wait(for other: Int32) throws {
        var fds = [
            pollfd(fd: other, events: Int16(POLLIN), revents: 0),
            pollfd(fd: reading, events: Int16(POLLIN), revents: 0),
        ]
        while poll(&fds, 2, -1) < 0 {
            guard errno == EINTR else { throw ReadFailure(code: errno) }
        }
        if fired { throw CancellationError() }
    }
}

/// Where a list's bytes come from: read once, front to back, in chunks.
protocol ByteSource: AnyObject {
    /// Up to `count` bytes; empty at the end. Throws `CancellationError` once the import is interrupted.
    func read(upTo count: Int) throws -> [UInt8]
}

/// One input as given on the command line, opened once: a regular file, `-` (standard input), `/dev/stdin`, a pipe
/// or a FIFO. Nothing is opened twice, so a stream is read exactly once.
final class ListInput: ByteSource {
    let descriptor: Int32
    /// The file's size when it is a regular file; nil for a stream, whose length is known only at its end.
    let size: Int?
    private let interrupt: ReadInterrupt
    private let owned: Bool

    /// Opens `path` ("-" is standard input). Opening does not block on a FIFO without a writer: the wait for one
    /// is in `read`, where a signal can end it.
    init(path: String, interrupt: ReadInterrupt) throws(ImportFileProblem) {
        self.interrupt = interrupt
        if path == "-" {
            descriptor = dup(STDIN_FILENO)
        } else {
            descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        }
        guard descriptor >= 0 else { throw ImportFileProblem(file: path, reason: Self.reason(errno)) }
        owned = true
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            let error = errno
            close(descriptor)
            throw ImportFileProblem(file: path, reason: Self.reason(error))
        }
        switch status.st_mode & S_IFMT {
        case S_IFDIR:
            close(descriptor)
            throw ImportFileProblem(
                file: path, reason: "it is a directory; give the CSV files in it, or a Letterboxd export .zip")
        case S_IFREG:
            size = Int(status.st_size)
        default:
            size = nil
        }
    }

    /// Reads from a descriptor the caller keeps open (a socket fed by a zip entry's extraction).
    init(descriptor: Int32, interrupt: ReadInterrupt) {
        self.descriptor = descriptor
        self.interrupt = interrupt
        size = nil
        owned = false
    }

    deinit { if owned { close(descriptor) } }

    func read(upTo count: Int) throws -> [UInt8] {
        if !peeked.isEmpty {
            defer { peeked = [] }
            return peeked
        }
        return try readFromDescriptor(upTo: count)
    }

    private func readFromDescriptor(upTo count: Int) throws -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        while true {
            // Every read waits in poll first, never in read itself (an inherited stdin stays blocking): data, the
            // end, or an interruption, whichever comes first.
            try interrupt.wait(for: descriptor)
            let result = bytes.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, count) }
            if result >= 0 {
                bytes.removeSubrange(result...)
                return bytes
            }
            let error = errno
            guard error == EAGAIN || error == EINTR else { throw ReadFailure(code: error) }
            try interrupt.wait(for: descriptor)
        }
    }

    /// Bytes read to look at the start of a stream, handed out again by the first `read`.
    private var peeked: [UInt8] = []

    /// Whether the input starts as a zip does (a Letterboxd or Trakt export), looked at without losing a stream's
    /// bytes.
    func startsLikeZip() throws -> Bool {
        try first(4).starts(with: [0x50, 0x4B, 0x03, 0x04])
    }

    /// Whether the input is a JSON array (a file of Trakt's export): `[` after a byte order mark and blank space.
    /// A stream is read only as far as its first visible byte, so a writer that pauses does not hold the check.
    func startsLikeJSONArray() throws -> Bool {
        let blank: Set<UInt8> = [0x20, 0x09, 0x0A, 0x0D]
        var count = 1
        while count <= 256 {
            let start = try first(count)
            let mark: [UInt8] = [0xEF, 0xBB, 0xBF]
            let text = start.starts(with: mark) ? start.dropFirst(3) : start[...]
            if start.count < 3, start.count == count, mark.starts(with: start) {
                count += 1
                continue
            }
            if let visible = text.first(where: { !blank.contains($0) }) { return visible == UInt8(ascii: "[") }
            guard start.count == count else { return false }
            count += 1
        }
        return false
    }

    /// Up to `count` bytes from the start, read again by the first `read` (a stream's are kept in `peeked`).
    private func first(_ count: Int) throws -> [UInt8] {
        if size != nil {
            var bytes = [UInt8](repeating: 0, count: count)
            let got = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, count, 0) }
            return Array(bytes.prefix(max(got, 0)))
        }
        while peeked.count < count {
            let more = try readFromDescriptor(upTo: count - peeked.count)
            if more.isEmpty { break }
            peeked += more
        }
        return Array(peeked.prefix(count))
    }

    /// Copies the rest of a stream into a file (a zip read from a pipe: its table of contents is at its end).
    func copy(to path: String, scratch: URL, name: String) throws {
        do {
            try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        } catch {
            throw ImportFileProblem(file: name, reason: "no room to copy it (\(error.localizedDescription))")
        }
        guard FileManager.default.createFile(atPath: path, contents: nil),
            let output = FileHandle(forWritingAtPath: path)
        else { throw ImportFileProblem(file: name, reason: "no room to copy it into \(scratch.path)") }
        defer { try? output.close() }
        while case let chunk = try read(upTo: 64 << 10), !chunk.isEmpty {
            try output.write(contentsOf: chunk)
        }
    }

    static func reason(_ error: Int32) -> String {
        switch error {
        case ENOENT: "it does not exist"
        case EACCES, EPERM: "it cannot be read (permission denied)"
        default: "it cannot be read (\(String(cString: strerror(error))))"
        }
    }
}

/// A read that failed for another reason than an interruption (a disk error, a file removed under us).
struct ReadFailure: Error, CustomStringConvertible {
    var code: Int32
    var description: String { String(cString: strerror(code)) }
}
