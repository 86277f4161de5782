import Foundation
import Synchronization
import ZIPFoundation

/// A list inside a zip, inflated as it is read: a thread extracts the entry into one end of a socket pair and the
/// reader reads the other, so the socket's buffer bounds what is held (a 1 GiB line in a zip grew past 1.1 GB and
/// ran 26 minutes when the entry was copied out first). When the reader stops, closing its end fails the
/// extraction's next write and the thread ends.
final class ZipEntrySource: ByteSource {
    private let reading: Int32
    private let input: ListInput
    private let failure: Failure

    private final class Failure: Sendable {
        let reason = Mutex<String?>(nil)
    }

    init(archive path: String, entry: String, interrupt: ReadInterrupt) throws(ImportFileProblem) {
        var pair: [Int32] = [0, 0]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &pair) == 0 else {
            throw ImportFileProblem(file: path, reason: ListInput.reason(errno))
        }
        reading = pair[0]
        input = ListInput(descriptor: pair[0], interrupt: interrupt)
        let failure = Failure()
        self.failure = failure
        let writing = pair[1]
        let thread = Thread {
            defer { close(writing) }
            do {
                let archive = try Archive(url: URL(fileURLWithPath: path), accessMode: .read)
                guard let found = archive[entry] else { throw CocoaError(.fileNoSuchFile) }
                _ = try archive.extract(found, bufferSize: 1 << 16) { data in try Self.send(data, to: writing) }
            } catch is ReadFailure {
                // The reader went away: nothing to report.
            } catch {
                failure.reason.withLock { $0 = "\(error)" }
            }
        }
        thread.start()
    }

    deinit {
        shutdown(reading, Int32(SHUT_RDWR))
        close(reading)
    }

    func read(upTo count: Int) throws -> [UInt8] {
        let bytes = try input.read(upTo: count)
        if bytes.isEmpty, let reason = failure.reason.withLock({ $0 }) {
            throw ZipEntryFailure(reason: reason)
        }
        return bytes
    }

    /// Writes all of `data`, waiting while the socket is full; MSG_NOSIGNAL: a closed reader is an error, no signal.
    private static func send(_ data: Data, to socket: Int32) throws {
        try data.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let sent = Glibc.send(socket, bytes.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
                if sent < 0 {
                    guard errno == EINTR else { throw ReadFailure(code: errno) }
                    continue
                }
                offset += sent
            }
        }
    }
}

/// A zip entry that could not be inflated (a damaged archive).
struct ZipEntryFailure: Error, CustomStringConvertible {
    var reason: String
    var description: String { "the zip entry cannot be read (\(reason))" }
}
