import Foundation

/// Host names and IP addresses as `Host` headers and the config write them, compared in one normal form: lower case,
/// without a trailing dot, IPv6 without brackets and in its shortest form ("::1").
public enum HostName {
    /// The host part of a `Host` header value or of a `serve.hosts` entry, normalized; nil when it is not one:
    /// "Example.ORG.:8080" → "example.org", "[::0001]:80" → "::1", "127.0.0.1" → "127.0.0.1".
    public static func normalized(_ text: String) -> String? {
        var host = Substring(text)
        if host.hasPrefix("[") {
            guard let close = host.firstIndex(of: "]") else { return nil }
            let rest = host[host.index(after: close)...]
            guard rest.isEmpty || port(rest.dropFirst()) != nil && rest.first == ":" else { return nil }
            return ipv6(String(host[host.index(after: host.startIndex)..<close]))
        }
        // A bare IPv6 address (in the config; a Host header brackets it).
        if host.filter({ $0 == ":" }).count > 1 { return ipv6(String(host)) }
        if let colon = host.firstIndex(of: ":") {
            guard port(host[host.index(after: colon)...]) != nil else { return nil }
            host = host[..<colon]
        }
        if host.hasSuffix(".") { host = host.dropLast() }
        let allowed = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-_")
        guard !host.isEmpty, host.count <= 253, host.unicodeScalars.allSatisfy(allowed.contains) else { return nil }
        return host.lowercased()
    }

    private static func port(_ text: Substring) -> Int? {
        guard !text.isEmpty, text.count <= 5, text.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int(text)
    }

    /// The IPv6 address in inet_ntop's form, or nil; a zone ("%eth0") is dropped.
    static func ipv6(_ text: String) -> String? {
        let address = text.split(separator: "%", maxSplits: 1).first.map(String.init) ?? text
        var bytes = in6_addr()
        guard inet_pton(AF_INET6, address, &bytes) == 1 else { return nil }
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        guard inet_ntop(AF_INET6, &bytes, &buffer, socklen_t(buffer.count)) != nil else { return nil }
        return cText(buffer)
    }

    /// A C string filled in by a system call.
    private static func cText(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Whether an address (as a socket or a `Host` names it) is this machine's loopback: 127.0.0.0/8, ::1, and
    /// 127.0.0.0/8 mapped into IPv6 (::ffff:127.0.0.1), which is how a proxy on this machine arrives at a server
    /// listening on [::].
    public static func isLoopback(_ address: String) -> Bool {
        var text = address.lowercased()
        if text.hasPrefix("[") && text.hasSuffix("]") { text = String(text.dropFirst().dropLast()) }
        if text == "localhost" || isIPv4Loopback(text) { return true }
        guard let v6 = ipv6(text) else { return false }
        if v6 == "::1" { return true }
        // inet_ntop writes a mapped address as ::ffff:a.b.c.d.
        return v6.hasPrefix("::ffff:") && isIPv4Loopback(String(v6.dropFirst("::ffff:".count)))
    }

    private static func isIPv4Loopback(_ text: String) -> Bool {
        var bytes = in_addr()
        return inet_pton(AF_INET, text, &bytes) == 1 && UInt32(bigEndian: bytes.s_addr) >> 24 == 127
    }

    /// This machine's names and addresses, as `Host` would carry them: its host name, its fully qualified name,
    /// its `.local` name, and every address of every interface (normalized). `resolving: false` leaves out the fully
    /// qualified name, which may ask DNS: what is left reads only the kernel's tables. Read again when asked, so a new DHCP address counts.
    public static func thisMachine(resolving: Bool = true) -> Set<String> {
        var names: Set<String> = []
        var buffer = [CChar](repeating: 0, count: 256)
        if gethostname(&buffer, buffer.count - 1) == 0, let name = normalized(cText(buffer)) {
            // With its mDNS name (Avahi answers "name.local" on the home network), which no website controls.
            names.formUnion([name, name.split(separator: ".").first.map { $0 + ".local" } ?? name])
            var hints = addrinfo()
            hints.ai_flags = AI_CANONNAME
            var result: UnsafeMutablePointer<addrinfo>?
            if resolving, getaddrinfo(name, nil, &hints, &result) == 0, let result {
                if let canonical = result.pointee.ai_canonname, let full = normalized(String(cString: canonical)) {
                    names.insert(full)
                }
                freeaddrinfo(result)
            }
        }
        var interfaces: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&interfaces) == 0, let first = interfaces else { return names }
        defer { freeifaddrs(first) }
        for entry in sequence(first: first, next: { $0.pointee.ifa_next }) {
            guard let address = entry.pointee.ifa_addr else { continue }
            let family = Int32(address.pointee.sa_family)
            guard family == AF_INET || family == AF_INET6 else { continue }
            var host = [CChar](repeating: 0, count: Int(NI_MAXHOST))
            let length = socklen_t(family == AF_INET ? MemoryLayout<sockaddr_in>.size : MemoryLayout<sockaddr_in6>.size)
            guard getnameinfo(address, length, &host, socklen_t(host.count), nil, 0, NI_NUMERICHOST) == 0 else {
                continue
            }
            if let name = family == AF_INET ? normalized(cText(host)) : ipv6(cText(host)) {
                names.insert(name)
            }
        }
        return names
    }
}
