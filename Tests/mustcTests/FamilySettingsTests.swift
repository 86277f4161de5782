import Foundation
import TMDBStub
import Testing

/// The family's settings through mustc's commands against the stub: the fetch reads the region's certification list
/// when it is missing and again after 30 days, counted by the stub's requests; a page-only family (add, fetch,
/// serve) then has tonight's age limit and the settings page, whose choices `member`, `pick` and `providers` see.
@Suite struct FamilySettingsTests {
    static let listPath = "/3/certification/movie/list"

    static func listRequests(_ stub: TMDBStubServer) -> Int { stub.requests.filter { $0.path == listPath }.count }

    /// `mustc fetch … --json`'s result, after checking it exited 0.
    static func result(_ mustc: MustcBinary, _ arguments: String...) async throws -> String? {
        let outcome = try await mustc.run(arguments + ["--json"])
        #expect(outcome.status == 0, "\(outcome.all)")
        return try outcome.json()["result"] as? String
    }

    @Test func theFetchReadsTheCertificationListWhenMissingAndAgainAfter30Days() async throws {
        let stub = TMDBStubServer(movies: StubMovie.classics)
        try stub.start()
        defer { stub.stop() }
        let mustc = MustcBinary(stub: stub)
        #expect(try await mustc("add", "Claire", "Up", "My Neighbor Totoro").status == 0)
        #expect(Self.listRequests(stub) == 0, "add needs no list")
        let database = mustc.databasePath
        let order = "SELECT group_concat(certification, ',') FROM (SELECT * FROM certificationOrder ORDER BY rank)"

        // The first fetch asks once.
        let first = try await mustc("fetch", "--json")
        let firstResult = try first.json()["result"] as? String
        #expect(first.status == 0 && firstResult == "noData", "\(first.all)")
        #expect(Self.listRequests(stub) == 1)
        #expect(try sqlite(database, order) == "NR,G,PG,PG-13,R,NC-17")
        // Kept: neither a fetch with nothing due nor a forced one asks again.
        #expect(try await Self.result(mustc, "fetch") == "notDue")
        #expect(try await Self.result(mustc, "fetch", "--force") == "noData")
        #expect(Self.listRequests(stub) == 1)
        // `pick --age-limit` reuses the kept list.
        #expect(try await mustc("pick", "Claire", "--age-limit", "PG").status == 0)
        #expect(Self.listRequests(stub) == 1)

        // 30 days later (the kept time moved back by 30 days and a second): asked again.
        let aged = "UPDATE setting SET value = value - 2592001 WHERE name = 'certifications.checkedAt.US'"
        #expect(try sqlite(database, aged + "; SELECT changes()") == "1")
        // No rating is due, the list is: that fetch asks for it alone.
        let before = stub.requestCount
        #expect(try await Self.result(mustc, "fetch") == "notDue")
        #expect(Self.listRequests(stub) == 2 && stub.requestCount == before + 1)
        #expect(try await mustc("fetch").status == 0)
        #expect(Self.listRequests(stub) == 2)

        // A failed list leaves the fetch's result alone, keeps the old list, and is asked at the next fetch.
        #expect(try sqlite(database, aged + "; SELECT changes()") == "1")
        stub.update(id: 14160) { $0.voteCount += 1 }
        stub.inject(.malformedJSON, on: .certifications, times: nil)
        let failed = try await mustc("fetch", "--force", "--json")
        let failedResult = try failed.json()["result"] as? String
        #expect(failed.status == 0 && failedResult == "newData", "\(failed.all)")
        #expect(Self.listRequests(stub) == 3)
        #expect(try sqlite(database, order) == "NR,G,PG,PG-13,R,NC-17")
        stub.clearFaults()
        #expect(try await mustc("fetch").status == 0)
        #expect(Self.listRequests(stub) == 4)
        #expect(try await mustc("fetch").status == 0)
        #expect(Self.listRequests(stub) == 4)
    }

    @Test func aPageOnlyFamilyChoosesAgeLimitsAndServicesThatTheCommandsSee() async throws {
        let stub = TMDBStubServer(movies: StubMovie.classics)
        try stub.start()
        defer { stub.stop() }
        var mustc = MustcBinary(stub: stub)
        #expect(try await mustc("add", "Claire", "Up", "My Neighbor Totoro").status == 0)
        #expect(try await mustc("add", "Leo", "Spirited Away").status == 0)
        #expect(try await mustc("fetch").status == 0)
        #expect(try await mustc.run(["password"], input: "popcorn on sunday\n").status == 0)
        let server = try await ServeProcess.start(mustc)
        defer { server.ensureStopped() }
        let port = try #require(Int(server.url.split(separator: ":").last?.filter(\.isNumber) ?? ""))
        let send = { (path: String, cookie: String?, form: String?) in
            try await MovieNightPageTests.send(path, port: port, cookie: cookie, form: form)
        }

        // The age-limit choice is there after the first fetch, and tonight's limit works.
        let night = try await send("/night?member=Claire&age=PG", nil, nil)
        #expect(night.status == 200, "\(night.text)")
        #expect(night.text.contains("<option value=\"PG-13\""), "\(night.text)")

        // The offers come with the movies' next check.
        #expect(try await mustc("fetch", "--force").status == 0)
        let signIn = try await send("/signin", nil, "password=popcorn+on+sunday")
        let cookie = try #require(signIn.header("Set-Cookie")?.split(separator: ";").first.map(String.init))
        let page = try await send("/settings", cookie, nil)
        #expect(page.status == 200 && page.text.contains("name=\"service-8\""), "\(page.text)")
        let csrf = MovieNightPageTests.encoded(try #require(MovieNightPageTests.field("csrf", in: page.text)))

        let limit = try await send("/settings/age-limit", cookie, "csrf=\(csrf)&member=Claire&limit=PG")
        #expect(limit.status == 303)
        // Up is G, Totoro PG-13 in the stub's US: Claire's pick keeps Up alone.
        let picked = try await mustc("pick", "Claire", "--format", "json")
        let titles = (try picked.json()["picks"] as? [[String: Any]])?.compactMap { $0["title"] as? String }
        #expect(titles == ["Up"], "\(picked.all)")
        // And the command line's limit shows on the page.
        #expect(try await mustc("member", "Leo", "--age-limit", "G").status == 0)
        let leo = try await send("/settings", cookie, nil)
        #expect(leo.text.contains("<option value=\"G\" selected>G</option>"), "\(leo.text)")

        let services = try await send("/settings/services", cookie, "csrf=\(csrf)&service-8=on")
        #expect(services.status == 303)
        let providers = try await mustc("providers")
        #expect(providers.stdout.contains("Ours: chosen on the page's settings"), "\(providers.all)")
        let netflix = providers.stdout.split(separator: "\n").first { $0.contains("Netflix") } ?? ""
        #expect(netflix.hasSuffix("yes"), "\(providers.all)")
        let streaming = try await mustc("pick", "Claire", "Leo", "--streaming", "--format", "json")
        #expect(streaming.status == 0, "\(streaming.all)")
        // And back: `providers --ours` is the page's choice.
        #expect(try await mustc("providers", "--ours", "Disney Plus").status == 0)
        let chosen = try await send("/settings", cookie, nil)
        #expect(chosen.text.contains("name=\"service-337\" checked") && !chosen.text.contains("service-8\" checked"))
        #expect(try await mustc("providers", "--ours", "Nowhere").status == 64)

        // family.services in the config wins: --ours is refused, and the kept choice is named, not lost.
        let config = mustc.home.file("services.json")
        try #"{"family": {"services": ["Netflix"]}}"#.write(toFile: config, atomically: true, encoding: .utf8)
        mustc.environment["MUSTC_CONFIG"] = config
        let refused = try await mustc("providers", "--ours", "Netflix")
        #expect(refused.status == 78 && refused.stderr.contains("edit it there"), "\(refused.all)")
        let shown = try await mustc("providers")
        #expect(shown.stdout.contains("which is kept"), "\(shown.all)")
        #expect(try sqlite(mustc.databasePath, "SELECT value FROM setting WHERE name = 'family.services'") == "337")
    }
}
