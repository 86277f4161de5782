import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import MustCore
import TMDBStub
import Testing

@testable import MustWeb

/// `serve.proxyAuth` over a real socket: the application listens on loopback (port 0) and the test's client
/// connects from 127.0.0.1, the peer address the header is believed or ignored by. Leo is a kid, so a page without a
/// profile is "Who's watching?".
@Suite struct WebProxyAuthTests {
    static let remoteUser = HTTPField.Name("Remote-User")!

    static func family(trusting ranges: [String]?, parents: [String] = []) throws -> WebFamily {
        var family = try ProfileFamily.withKid()
        family.config.serve.listen = ListenAddress(host: "127.0.0.1", port: 0)
        if let ranges {
            family.config.serve.proxyAuth = ProxyAuth(
                header: "Remote-User", trustedProxies: try ranges.map { try #require(AddressRange($0)) },
                parents: parents)
        }
        return family
    }

    static func get(_ client: any TestClientProtocol, _ path: String, as user: String) async throws -> TestResponse {
        try await client.get(path, headers: [remoteUser: user])
    }

    @Test func theHeaderNamesTheProfileFromATrustedAddress() async throws {
        let family = try Self.family(trusting: ["127.0.0.1/32", "::1"], parents: ["claire"])
        // Claire, a parent by the config.
        try family.keep("Claire", RemoteMovie(id: 14160, title: "Up", voteAverage: 7.1, voteCount: 100))
        try await family.testLive { client in
            let ann = try await Self.get(client, "/members/Ann", as: "ann")
            #expect(ann.status == .ok, "\(ann.status): \(ann.text)")
            #expect(ann.text.contains("Watching as <bdi>Ann</bdi>") && ann.text.contains("Add a movie"))
            #expect(!ann.text.contains("formaction=\"/switch\""), "the proxy decides who this is")
            let cookie = try #require(WebFamily.sessionCookie(ann), "a session for the proxy's user")
            // The session's cookie alone carries on.
            #expect(try await client.get("/members/Ann", headers: [.cookie: cookie]).text.contains("Add a movie"))
            // Ann is no parent: settings are refused.
            #expect(try await Self.get(client, "/settings", as: "Ann").status == .forbidden)

            // A kid's name there still sees only his limit.
            for path in ["/members/Ann", "/", "/changes", "/api/ratings", "/night?member=Ann"] {
                let answer = try await Self.get(client, path, as: "Leo")
                #expect(answer.status == .ok, "\(path): \(answer.status)")
                for title in ProfileFamily.hidden {
                    #expect(!answer.text.contains(title), "\(path) shows \(title) to the proxy's Leo")
                }
            }
            #expect(try await Self.get(client, "/members/Ann", as: "Leo").text.contains("Paddington"))
            #expect(try await Self.get(client, "/movies/\(ProfileFamily.alien)", as: "Leo").status == .notFound)
            // A parent named in the config has the password's rights.
            #expect(try await Self.get(client, "/settings", as: "CLAIRE").status == .ok)
            // An unknown name gets "Who's watching?".
            let stranger = try await Self.get(client, "/", as: "Mallory")
            #expect(stranger.isChooser(offering: ["Ann", "Leo"]) && WebFamily.sessionCookie(stranger) == nil)
            #expect(try await Self.get(client, "/members/Ann", as: "Mallory").status == .seeOther)
        }
    }

    @Test(arguments: [nil, ["10.0.0.0/8", "fd00::/8"]] as [[String]?])
    func theHeaderIsIgnoredWithoutTheConfigOrFromAnotherAddress(_ ranges: [String]?) async throws {
        let family = try Self.family(trusting: ranges, parents: ["ann"])
        try await family.testLive { client in
            let page = try await Self.get(client, "/members/Ann", as: "Ann")
            #expect(page.status == .seeOther && page.headers[.location] == "/profiles", "\(page.status)")
            #expect(WebFamily.sessionCookie(page) == nil)
            #expect(try await Self.get(client, "/", as: "Ann").isChooser(offering: ["Ann", "Leo"]))
            #expect(try await Self.get(client, "/api/ratings", as: "Ann").status == .forbidden)
            #expect(try await Self.get(client, "/settings", as: "Ann").status == .seeOther)
        }
        #expect(try sqlite(family.store.path, "SELECT count(*) FROM webSession") == "0")
    }
}

extension WebFamily {
    /// The application over a real socket on loopback (`serve.listen` port 0), as `mustc serve` runs it.
    func testLive<Value: Sendable>(_ body: @Sendable (any TestClientProtocol) async throws -> Value)
        async throws -> Value
    {
        let reader = try Store.forReading(path: store.path, logger: Self.logger)
        let app = try buildApplication(store: reader, config: config, time: time, logger: Self.logger)
        return try await app.test(.live, body)
    }
}
