import MustCore
import Testing

@Suite struct ListenAddressTests {
    @Test(arguments: [
        ("127.0.0.1:8080", "127.0.0.1", 8080, true), ("0.0.0.0:0", "0.0.0.0", 0, false),
        (":8080", "0.0.0.0", 8080, false), ("[::1]:80", "::1", 80, true), ("localhost:65535", "localhost", 65535, true),
        ("192.168.1.20:8080", "192.168.1.20", 8080, false),
        // IPv4-mapped loopback is loopback; a mapped other address is not.
        ("[::ffff:127.0.0.1]:8080", "::ffff:127.0.0.1", 8080, true),
        ("[::ffff:192.168.1.20]:8080", "::ffff:192.168.1.20", 8080, false),
    ])
    func parses(_ text: String, _ host: String, _ port: Int, _ loopback: Bool) throws {
        let address = try #require(ListenAddress.parse(text))
        #expect(address.host == host)
        #expect(address.port == port)
        #expect(address.isLoopback == loopback)
    }

    @Test(arguments: ["8080", "host", "host:", "host:http", "host:-1", "host:65536", "::1:80", "[host]:80", "a b:1"])
    func refuses(_ text: String) {
        #expect(ListenAddress.parse(text) == nil)
    }

    @Test func anIPv6AddressIsWrittenInBrackets() {
        #expect(ListenAddress(host: "::1", port: 8080).description == "[::1]:8080")
        #expect(ListenAddress(host: "127.0.0.1", port: 8080).description == "127.0.0.1:8080")
    }

    /// The peer addresses sign-in limits see: a proxy on this machine reaching a server on [::] is ::ffff:127.0.0.1.
    @Test(arguments: [
        ("127.0.0.1", true), ("127.1.2.3", true), ("::1", true), ("::ffff:127.0.0.1", true), ("::FFFF:7f00:1", true),
        ("0:0:0:0:0:ffff:127.0.0.2", true), ("[::1]", true), ("::ffff:10.0.0.1", false), ("10.0.0.1", false),
        ("::2", false), ("128.0.0.1", false), ("127.example.org", false), ("unknown", false),
    ])
    func loopbackAddresses(_ address: String, _ loopback: Bool) {
        #expect(HostName.isLoopback(address) == loopback, "\(address)")
    }

    /// `Host` values in one form: port, brackets, case and a trailing dot do not matter.
    @Test(arguments: [
        ("Example.ORG.:8080", "example.org"), ("[::0001]:80", "::1"), ("[FD00::20]", "fd00::20"),
        ("fd00::20", "fd00::20"),
        ("127.0.0.1", "127.0.0.1"), ("localhost:65535", "localhost"),
    ])
    func normalizesHostNames(_ text: String, _ normal: String) {
        #expect(HostName.normalized(text) == normal)
    }

    @Test(arguments: ["", "a b", "host:port", "[::1", "[::1]x", "[nothex]", "ex\u{0}ample", "bad/name", ":80"])
    func refusesWhatIsNoHostName(_ text: String) {
        #expect(HostName.normalized(text) == nil, "\(text)")
    }
}
