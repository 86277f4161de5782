import Foundation
import TMDBStub
import Testing

/// `/night`, tonight's question as a page: the same picks as `mustc pick`, through the built binary, plain HTTP and
/// a real headless Chromium.
@Suite(.serialized) struct NightPageTests {
    static let hostile = StubMovie(
        id: 900_003, title: "<img src=x onerror=alert(3)>", voteAverage: 7.5, voteCount: 9_000,
        releaseDate: "2015-05-05")

    /// Ann and Bob both keep Up and Amélie; Ann alone keeps Spirited Away and the hostile title; Bob has watched
    /// Amélie, so it is no pick for the two of them.
    static func family(_ stub: TMDBStubServer) async throws -> MustcBinary {
        let mustc = MustcBinary(stub: stub)
        for arguments in [
            ["add", "Ann", "Up", "Amélie", "Spirited Away", "tmdb:900003"], ["add", "Bob", "Up", "Amélie"],
            ["watched", "Bob", "Amélie", "--on", "2026-11-01"],
        ] {
            let outcome = try await mustc.run(arguments)
            #expect(outcome.status == 0, "\(outcome.all)")
        }
        return mustc
    }

    /// The picks' titles as `pick --format json` gives them, shown as the page shows them.
    static func commandPicks(_ mustc: MustcBinary, _ members: [String]) async throws -> [String] {
        let outcome = try await mustc.run(["pick"] + members + ["--format", "json"])
        #expect(outcome.status == 0, "\(outcome.all)")
        let picks = try #require(try outcome.json()["picks"] as? [[String: Any]])
        return picks.map { pick in
            let title = pick["title"] as? String ?? ""
            return (pick["year"] as? Int).map { "\(title) (\($0))" } ?? title
        }
    }

    /// The family served by `mustc serve`, with the stub and the server stopped however `body` ends.
    static func serving(_ body: (MustcBinary, ServeProcess) async throws -> Void) async throws {
        let stub = TMDBStubServer(movies: StubMovie.classics + [Self.hostile])
        try stub.start()
        defer { stub.stop() }
        let mustc = try await Self.family(stub)
        let server = try await ServeProcess.start(mustc)
        defer { server.ensureStopped() }
        try await body(mustc, server)
    }

    @Test func thePageGivesThePicksOfTheCommandAndRefusesUnknownMembers() async throws {
        try await Self.serving { mustc, server in

            let expected = try await Self.commandPicks(mustc, ["Ann", "Bob"])
            #expect(expected.first == "Up (2009)" && !expected.contains("Amélie (2001)"), "\(expected)")
            let page = try await HTTP.get(server.url + "night?member=Ann&member=bob")
            #expect(page.status == 200)
            // Each pick is a card; its heading is the title and year.
            let items = page.body.components(separatedBy: "<li class=\"pick\">").dropFirst().map { item in
                (item.components(separatedBy: "<h3").dropFirst().first ?? "").components(separatedBy: "</h3>")[0]
            }.map { String($0.drop { $0 != ">" }.dropFirst()) }
            let shown = items.map { $0.replacingOccurrences(of: #"<[^>]+>"#, with: "", options: .regularExpression) }
            #expect(
                shown.map { $0.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">") }
                    == expected)
            #expect(page.body.contains("&lt;img src=x onerror=alert(3)&gt;") && !page.body.contains("<img src=x"))
            #expect(page.body.contains("Ann and Bob keep it"))

            let unknown = try await HTTP.get(server.url + "night?member=Ann&member=Nobody")
            #expect(unknown.status == 400 && unknown.body.contains("There is no member &quot;Nobody&quot;"))
            let empty = try await HTTP.get(server.url + "night")
            #expect(empty.status == 200 && empty.body.contains("Tick who is watching"))
            #expect(!empty.body.contains("<ol class=\"picks\">"))
        }
    }

    @Test func aPhoneTicksTheMembersAndGetsThePicks() async throws {
        try await Self.serving { mustc, server in
            let before = ServeBrowserTests.files(mustc)

            let result = try await ServeBrowserTests.browse(
                String(server.url.dropLast()), ["Ann", "Bob"], script: "night.py")
            #expect(result["offered"] as? [String] == ["Ann", "Bob"])
            #expect(result["ticked"] as? [String] == ["Ann", "Bob"])
            let expected = try await Self.commandPicks(mustc, ["Ann", "Bob"])
            let picks = try #require(result["picks"] as? [String])
            #expect(picks.count == expected.count)
            for (pick, title) in zip(picks, expected) { #expect(pick.hasPrefix(title), "\(pick) is not \(title)") }
            for key in ["before", "after"] {
                let page = try #require(result[key] as? [String: Any])
                #expect(page["dialog"] as? Bool == false)
                #expect(page["images"] as? Int == 0 && page["scripts"] as? Int == 0)
                #expect((page["consoleErrors"] as? [String])?.isEmpty == true, "\(page)")
                #expect(
                    (page["scrollWidth"] as? Int ?? .max) <= (page["clientWidth"] as? Int ?? 0),
                    "\(key) scrolls sideways at 360 px")
            }
            #expect(ServeBrowserTests.files(mustc) == before, "the page wrote to the database")
        }
    }
}
