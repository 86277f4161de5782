import Foundation

/// `serve.proxyAuth`: a reverse proxy that signs the family in (Authelia, Authentik, oauth2-proxy) names the user in a
/// header. Only a request from one of `trustedProxies` is believed; from anywhere else the header is ignored, since
/// anyone can send it.
public struct ProxyAuth: Sendable, Equatable {
    /// The header holding the signed-in user's name, such as "Remote-User".
    public var header: String
    public var trustedProxies: [AddressRange]
    /// Names (folded as member names are) that get the family password's rights.
    public var parents: [String]

    public init(header: String, trustedProxies: [AddressRange], parents: [String] = []) {
        (self.header, self.trustedProxies, self.parents) = (header, trustedProxies, parents)
    }

    /// Whether a request from `peer` (the socket's address) may name its user.
    public func trusts(_ peer: String) -> Bool {
        guard let address = AddressRange.bytes(of: peer) else { return false }
        return trustedProxies.contains { $0.contains(address) }
    }

    public func isParent(_ name: String) -> Bool {
        parents.contains { TitleKey.make($0) == TitleKey.make(name) }
    }
}

/// An IPv4 or IPv6 network in CIDR form ("127.0.0.1/32", "10.0.0.0/8", "fd00::/8"); a bare address is one host.
/// An IPv4 network also holds the same addresses mapped into IPv6 (::ffff:10.0.0.1), as a server listening on
/// [::] sees them.
public struct AddressRange: Sendable, Equatable, CustomStringConvertible {
    let network: [UInt8]
    let prefix: Int

    public static let expected = "an address or a network such as \"127.0.0.1/32\" or \"fd00::/8\""

    public init?(_ text: String) {
        let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard let bytes = Self.bytes(of: String(parts[0])) else { return nil }
        // An IPv4-mapped network (::ffff:10.0.0.0/104) is the IPv4 one: its prefix counts the 96 bits of the mapping.
        let mapped = bytes.count == 4 && parts[0].contains(":")
        var prefix = bytes.count * 8
        if parts.count == 2 {
            guard parts[1].count <= 3, parts[1].allSatisfy({ $0.isASCII && $0.isNumber }), let written = Int(parts[1])
            else { return nil }
            let bits = mapped ? written - 96 : written
            guard (0...bytes.count * 8).contains(bits) else { return nil }
            prefix = bits
        }
        (network, self.prefix, description) = (bytes, prefix, text)
    }

    public let description: String

    /// An address's bytes: 4 for IPv4, 16 for IPv6, an IPv4-mapped IPv6 address as its 4; nil when it is none.
    static func bytes(of text: String) -> [UInt8]? {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 { return withUnsafeBytes(of: &v4) { Array($0) } }
        var v6 = in6_addr()
        let address = text.split(separator: "%", maxSplits: 1).first.map(String.init) ?? text
        guard inet_pton(AF_INET6, address, &v6) == 1 else { return nil }
        let bytes = withUnsafeBytes(of: &v6) { Array($0) }
        if bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xff, bytes[11] == 0xff { return Array(bytes[12...]) }
        return bytes
    }

    func contains(_ address: [UInt8]) -> Bool {
        guard address.count == network.count else { return false }
        var bits = prefix
        for index in network.indices where bits > 0 {
            let mask: UInt8 = bits >= 8 ? 0xff : ~(0xff >> UInt8(bits))
            if address[index] & mask != network[index] & mask { return false }
            bits -= 8
        }
        return true
    }
}
