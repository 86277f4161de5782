import Foundation
import TestSupport

/// One TCP connection to a server on loopback, written byte for byte as the test says (a `Host` of its choosing,
/// HTTP/1.0, a body dribbled slowly), where URLSession would fix the request up. Every read has a deadline.
final class RawConnection: @unchecked Sendable {
    let descriptor: Int32
    private var received = Data()

    /// Connects over IPv4 to 127.0.0.1 (also how a proxy on this machine reaches a server on `[::]`).
    init(port: Int) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
        guard connected else {
            Glibc.close(descriptor)
            throw RawHTTPError.cannotConnect(port)
        }
    }

    deinit { Glibc.close(descriptor) }

    func send(_ text: String) {
        var bytes = Array(text.utf8)
        _ = bytes.withUnsafeMutableBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// Reads what has arrived within `milliseconds`; false once the server has closed the connection. The callers
    /// wait between reads with `Poll`, never in `poll(2)`, so a test never holds one of the few cooperative threads.
    private func pull(waiting milliseconds: Int32) -> Bool {
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, milliseconds) > 0 else { return true }
        var buffer = [UInt8](repeating: 0, count: 65_536)
        let count = recv(descriptor, &buffer, buffer.count, 0)
        guard count > 0 else { return false }
        received.append(contentsOf: buffer[0..<count])
        return true
    }

    /// The next whole answer (head, and a `Content-Length` body unless it answers HEAD), or nil after `seconds`.
    func answer(to method: String = "GET", within seconds: Double = 20) async throws -> RawAnswer? {
        var answer: RawAnswer?
        await Poll.until(within: Poll.seconds(seconds)) {
            answer = RawAnswer.take(from: &received, method: method)
            if answer == nil, !pull(waiting: 0) {
                answer = RawAnswer.take(from: &received, method: method)
                return true
            }
            return answer != nil
        }
        return answer
    }

    /// Whether the server closes the connection within `seconds` (anything it still sends is read and kept).
    func closes(within seconds: Double) async throws -> Bool {
        await Poll.until(within: Poll.seconds(seconds)) { !pull(waiting: 0) }
    }

    /// One request, its whole answer, within `seconds`.
    static func exchange(port: Int, _ request: String, method: String = "GET", within seconds: Double = 20)
        async throws -> RawAnswer
    {
        let connection = try RawConnection(port: port)
        connection.send(request)
        guard let answer = try await connection.answer(to: method, within: seconds) else {
            throw RawHTTPError.noAnswer(request)
        }
        return answer
    }
}

enum RawHTTPError: Error {
    case cannotConnect(Int)
    case noAnswer(String)
}

/// An answer as it came over the wire.
struct RawAnswer: Sendable {
    var status: Int
    var headers: [(name: String, value: String)]
    var body: Data
    var text: String { String(decoding: body, as: UTF8.self) }

    func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    /// Takes one whole answer off the front of `data`, if it is all there.
    static func take(from data: inout Data, method: String) -> RawAnswer? {
        guard let end = data.firstRange(of: Data("\r\n\r\n".utf8)) else { return nil }
        let lines = String(decoding: data[data.startIndex..<end.lowerBound], as: UTF8.self)
            .components(separatedBy: "\r\n")
        let parts = lines[0].split(separator: " ")
        guard parts.count >= 2, let status = Int(parts[1]) else { return nil }
        let headers = lines.dropFirst().compactMap { line -> (name: String, value: String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        var answer = RawAnswer(status: status, headers: headers, body: Data())
        let length = method == "HEAD" || status == 304 ? 0 : Int(answer.header("Content-Length") ?? "0") ?? 0
        guard data.count - (end.upperBound - data.startIndex) >= length else { return nil }
        answer.body = Data(data[end.upperBound..<end.upperBound + length])
        data = Data(data[(end.upperBound + length)...])
        return answer
    }
}
