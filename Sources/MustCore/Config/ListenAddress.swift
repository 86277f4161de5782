import Foundation

/// Where `mustc serve` listens: `HOST:PORT`, `[IPv6]:PORT`, or `:PORT` for every address. Port 0 takes a free one.
public struct ListenAddress: Sendable, Equatable, CustomStringConvertible {
    public var host: String
    public var port: Int

    public init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    public static let expected =
        "HOST:PORT, such as 127.0.0.1:8080, 0.0.0.0:8080 or [::1]:8080 (port 0 takes a free one)"

    public static func parse(_ text: String) -> ListenAddress? {
        guard let colon = text.lastIndex(of: ":") else { return nil }
        var host = String(text[..<colon])
        let portText = text[text.index(after: colon)...]
        guard !portText.isEmpty, portText.allSatisfy(\.isASCII), let port = Int(portText), (0...65535).contains(port)
        else { return nil }
        if host.hasPrefix("[") && host.hasSuffix("]") {
            host = String(host.dropFirst().dropLast())
            guard host.contains(":") else { return nil }
        } else if host.contains(":") {
            return nil
        }
        if host.isEmpty { host = "0.0.0.0" }
        let allowed = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-:")
        guard host.unicodeScalars.allSatisfy(allowed.contains) else { return nil }
        return ListenAddress(host: host, port: port)
    }

    /// Only this machine can connect: 127.0.0.0/8, ::1, localhost, or 127.0.0.0/8 mapped into IPv6.
    public var isLoopback: Bool { HostName.isLoopback(host) }

    /// "127.0.0.1:8080", or "[::1]:8080".
    public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}
