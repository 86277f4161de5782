import MustCore
import Testing

@Suite struct ListenAddressTests {
    @Test(arguments: [
        ("127.0.0.1:8080", "127.0.0.1", 8080, true), ("0.0.0.0:0", "0.0.0.0", 0, false),
        (":8080", "0.0.0.0", 8080, false), ("[::1]:80", "::1", 80, true), ("localhost:65535", "localhost", 65535, true),
        ("192.168.1.20:8080", "192.168.1.20", 8080, false),
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
}
