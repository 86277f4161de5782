import Foundation
import TMDBStub
import Testing

/// Tonight's facts through mustc's commands against the stub: runtime, certification and providers ride on the one details
/// request, at first check and at their cadence; pick's filters and reasons; availability changes in `changes` and
/// the hook's input.
@Suite final class TonightTests {
    let stub: TMDBStubServer
    var mustc: MustcBinary
    let config: String

    /// Five movies in the US: G 95 min on Netflix, R 120 min on Disney Plus, one with no certification anywhere,
    /// PG-13 ("PG-13 " as sent) 150 min free on Plex, PG 100 min to rent only.
    /// Their order in `pick`, worked by hand: the library's prior is C = 35 / 5 = 7.0 and m = 4,000 (the median
    /// vote count), so (v·R + m·C) / (v + m) gives Rough 100,000 / 13,000 = 7.69, Unrated 65,500 / 9,000 = 7.28,
    /// Gentle 56,000 / 8,000 = 7.00, Rental 41,000 / 6,000 = 6.83, Long 46,000 / 7,000 = 6.57; a movie more of
    /// the named members keep comes before all of them (Gentle, with Cleo).
    static let movies = [
        StubMovie(id: 920_001, title: "Gentle", voteAverage: 7.0, voteCount: 4_000),
        StubMovie(id: 920_002, title: "Rough", voteAverage: 8.0, voteCount: 9_000),
        StubMovie(id: 920_003, title: "Unrated", voteAverage: 7.5, voteCount: 5_000),
        StubMovie(id: 920_004, title: "Long", voteAverage: 6.0, voteCount: 3_000),
        StubMovie(id: 920_005, title: "Rental", voteAverage: 6.5, voteCount: 2_000),
    ]

    static let ids: [String] = movies.map { "tmdb:\($0.id)" }

    init() throws {
        stub = TMDBStubServer(movies: Self.movies)
        stub.setExtras(
            id: 920_001,
            StubExtras(runtime: 95, genres: ["Family", "Comedy"], certification: "G", offers: ["flatrate": [.netflix]]))
        stub.setExtras(
            id: 920_002,
            StubExtras(
                runtime: 120, genres: ["Horror"], certification: "R",
                offers: ["flatrate": [.disneyPlus], "buy": [.appleTV]], releaseCountries: 50, providerCountries: 80))
        stub.setExtras(
            id: 920_003, StubExtras(runtime: 90, genres: ["Drama"], certification: nil, offers: ["ads": [.rokuChannel]])
        )
        stub.setExtras(
            id: 920_004, StubExtras(runtime: 150, genres: ["Drama"], certification: "PG-13 ", offers: ["free": [.plex]])
        )
        stub.setExtras(
            id: 920_005,
            StubExtras(
                runtime: 100, genres: ["Comedy"], certification: "PG", offers: ["rent": [.appleTV, .amazonVideo]]))
        try stub.start()
        mustc = MustcBinary(stub: stub)
        config = mustc.home.file("config.json")
        mustc.environment["MUSTC_CONFIG"] = config
        try writeConfig(services: #"["Netflix", 538, "the roku channel"]"#)
    }

    deinit { stub.stop() }

    func writeConfig(services: String, extra: String = "") throws {
        try """
        {"tmdb": {"maxRequestsPerSecond": 2000, "requestTimeout": "5s"},
         "family": {"region": "US", "services": \(services)}\(extra)}
        """.write(toFile: config, atomically: true, encoding: .utf8)
    }

    /// Ann keeps all five by TMDB id; Cleo keeps Gentle. One forced fetch reads the blocks.
    func family() async throws {
        let added = try await mustc.run(["add", "Ann"] + Self.ids)
        #expect(added.status == 0, "\(added.all)")
        #expect(try await mustc("add", "Cleo", "tmdb:920001").status == 0)
        let fetched = try await mustc("fetch", "--force", "--json")
        #expect(fetched.status == 0, "\(fetched.all)")
    }

    /// Every movie, and the run, due now: as if their time had come.
    func makeDue() throws {
        _ = try sqlite(
            mustc.databasePath,
            "UPDATE movieSchedule SET nextCheckAt = 0; UPDATE schedule SET nextFetchAt = '2000-01-01 00:00:00.000'")
    }

    var detailsRequests: [RecordedRequest] { stub.requests.filter { $0.path.hasPrefix("/3/movie/") } }

    func appended(_ request: RecordedRequest) -> Bool {
        request.query["append_to_response"] == "release_dates,watch/providers"
    }

    func picks(_ arguments: String...) async throws -> [[String: Any]] {
        let outcome = try await mustc.run(["pick", "--format", "json", "--count", "10"] + arguments)
        #expect(outcome.status == 0, "\(outcome.all)")
        return try #require(try outcome.json()["picks"] as? [[String: Any]], "\(outcome.all)")
    }

    func titles(_ picks: [[String: Any]]) -> [String] { picks.compactMap { $0["title"] as? String } }

    @Test func oneRequestPerMovieWithTheBlocksAtFirstCheckThenAtTheirCadence() async throws {
        let added = try await mustc.run(["add", "Ann"] + Self.ids)
        #expect(added.status == 0, "\(added.all)")
        // add looked each movie up by id (the small request); their first check, when it comes, asks for the blocks.
        try makeDue()
        stub.resetCounters()
        let first = try await mustc("fetch", "--json")
        #expect(first.status == 0, "\(first.all)")
        // Beside the details, the first fetch reads the region's certification list, once.
        #expect(detailsRequests.count == 5 && stub.requestCount == 6)
        #expect(stub.requests.filter { $0.path == "/3/certification/movie/list" }.count == 1)
        #expect(detailsRequests.allSatisfy(appended))
        let path = mustc.databasePath
        #expect(
            try sqlite(path, "SELECT remoteId, runtime, certification, genres FROM movie ORDER BY remoteId")
                == "920001|95|G|Family\nComedy\n920002|120|R|Horror\n920003|90||Drama\n920004|150|PG-13|Drama\n"
                + "920005|100|PG|Comedy")
        #expect(
            try sqlite(path, "SELECT kind, providerId, name FROM movieProvider WHERE movieId = 2 ORDER BY kind")
                == "buy|2|Apple TV\nflatrate|337|Disney Plus")

        // Due again a minute later: the small request, for every movie.
        try makeDue()
        stub.resetCounters()
        #expect(try await mustc("fetch", "--json").status == 0)
        #expect(detailsRequests.count == 5 && !detailsRequests.contains(where: appended))

        // One movie's data a day old: only its request asks for the blocks.
        _ = try sqlite(path, "UPDATE movieSchedule SET extrasCheckedAt = extrasCheckedAt - 86401 WHERE movieId = 2")
        try makeDue()
        stub.resetCounters()
        #expect(try await mustc("fetch", "--json").status == 0)
        #expect(detailsRequests.count == 5)
        #expect(detailsRequests.filter(appended).map(\.path) == ["/3/movie/920002"])

        // A forced run asks for them for every movie, still one request each.
        stub.resetCounters()
        #expect(try await mustc("fetch", "--force", "--json").status == 0)
        #expect(detailsRequests.count == 5 && detailsRequests.allSatisfy(appended) && stub.requestCount == 5)
    }

    @Test func aMalformedBlockLeavesItsDataUnknownAndTheRatingIsWritten() async throws {
        #expect(try await mustc("add", "Ann", "tmdb:920002", "tmdb:920001").status == 0)
        try makeDue()
        stub.update(id: 920_002) { $0.voteCount = 9_100 }
        stub.inject(.field("watch/providers", json: #"{"results": [1, 2]}"#), on: .details(id: 920_002))
        stub.inject(.field("release_dates", json: #""oops""#), on: .details(id: 920_001))
        let fetched = try await mustc("fetch", "--json")
        #expect(fetched.status == 0, "\(fetched.all)")
        let path = mustc.databasePath
        #expect(
            try sqlite(
                path, "SELECT remoteId, voteCount, certification, runtime, providersRegion FROM movie ORDER BY 1")
                == "920001|4000||95|US\n920002|9100|R|120|")
        #expect(try sqlite(path, "SELECT count(*) FROM movieProvider WHERE movieId = 1") == "0")
    }

    @Test func aMemberLimitedToPGLeavesOutRAndUnratedUnlessAsked() async throws {
        try await family()
        let limited = try await mustc("member", "Cleo", "--age-limit", "PG")
        #expect(limited.status == 0 && limited.stdout.contains("Cleo may watch up to PG (US)"), "\(limited.all)")
        #expect(stub.requests.filter { $0.path == "/3/certification/movie/list" }.count == 1)
        #expect(titles(try await picks("Ann")).count == 5)
        // With Cleo on the sofa: G and PG only.
        let capped = try await picks("Ann", "Cleo")
        #expect(titles(capped) == ["Gentle", "Rental"], "\(capped)")
        #expect((capped.first { $0["title"] as? String == "Gentle" }?["why"] as? String)?.hasSuffix("; G") == true)
        let unrated = try await picks("Ann", "Cleo", "--include-unrated")
        #expect(titles(unrated) == ["Gentle", "Unrated", "Rental"])
        #expect(
            (unrated.first { $0["title"] as? String == "Unrated" }?["why"] as? String)?.hasSuffix("; no certification")
                == true)
        // A stricter limit for tonight wins; a looser one does not lift Cleo's.
        #expect(titles(try await picks("Ann", "Cleo", "--age-limit", "G")) == ["Gentle"])
        #expect(titles(try await picks("Ann", "Cleo", "--age-limit", "R")) == ["Gentle", "Rental"])
        // The list was asked once and kept.
        #expect(stub.requests.filter { $0.path == "/3/certification/movie/list" }.count == 1)
        let wrong = try await mustc("pick", "Ann", "--age-limit", "PG12")
        #expect(wrong.status == 64 && wrong.stderr.contains("G, PG, PG-13, R, NC-17"), "\(wrong.all)")
        #expect(try await mustc("member", "Cleo", "--age-limit", "U").status == 64)
        #expect(try await mustc("member", "Zed", "--age-limit", "PG").status == 64)
        #expect(try await mustc("member", "Cleo", "--age-limit", "none").status == 0)
        #expect(titles(try await picks("Ann", "Cleo")).count == 5)
    }

    @Test func maxMinutesLeavesOutLongerMoviesAndRejectsNonsense() async throws {
        try await family()
        let short = try await picks("Ann", "--max-minutes", "100")
        #expect(titles(short) == ["Unrated", "Gentle", "Rental"])
        #expect(
            (short.first { $0["title"] as? String == "Gentle" }?["why"] as? String)?.hasSuffix("; 1 h 35 min") == true)
        #expect(short.first?["runtime"] is Int && short.first?["genres"] is [String])
        for bad in ["0", "-5", "abc"] {
            let outcome = try await mustc("pick", "Ann", "--max-minutes", bad)
            #expect(outcome.status == 64, "\(bad): \(outcome.all)")
        }
    }

    @Test func streamingKeepsTheFamilysServicesAndEachReasonNamesOne() async throws {
        try await family()
        let streaming = try await picks("Ann", "--streaming")
        // Netflix by name, Plex by id, The Roku Channel ignoring case; Disney Plus and rent-only are not ours.
        #expect(titles(streaming) == ["Unrated", "Gentle", "Long"])
        let reasons = Dictionary(
            uniqueKeysWithValues: streaming.map { ($0["title"] as? String ?? "", $0["why"] as? String ?? "") })
        #expect(reasons["Gentle"]?.hasSuffix("; on Netflix") == true)
        #expect(reasons["Long"]?.hasSuffix("; on Plex") == true)
        let providers = streaming.first { $0["title"] as? String == "Gentle" }?["providers"] as? [String: [String]]
        #expect(providers == ["flatrate": ["Netflix"]])
        let both = try await picks(
            "Ann", "--streaming", "--max-minutes", "100", "--genre", "comedy", "--genre", "Drama")
        #expect(titles(both) == ["Unrated", "Gentle"])
        // A service no movie has is a warning naming close matches, not an error.
        try writeConfig(services: #"["Netflx"]"#)
        let warned = try await mustc("pick", "Ann", "--streaming")
        #expect(warned.status == 0 && warned.stderr.contains("\"Netflix\""), "\(warned.all)")
        try writeConfig(services: "[]")
        #expect(try await mustc("pick", "Ann", "--streaming").status == 78)
        let providersList = try await mustc("providers", "--format", "json")
        let seen = try providersList.jsonArray()
        #expect(seen.first { $0["name"] as? String == "Apple TV" }?["movies"] as? Int == 2)
        #expect(seen.first { $0["id"] as? Int == 8 }?["name"] as? String == "Netflix")
    }

    @Test func aProviderArrivingOrLeavingShowsInChangesAndTheHookInput() async throws {
        let script = mustc.home.file("hook.sh")
        try writeScript("#!/bin/sh\ncat > \"$HOME/input.json\"\n", to: script)
        try writeConfig(
            services: #"["Netflix", "Disney Plus"]"#, extra: #", "fetch": {"onNewData": ["\#(script)"]}"#)
        try await family()
        // No rating moves; Netflix starts offering Rough, as the stub's tick does.
        stub.update(id: 920_002) { _ in }
        stub.updateExtras(id: 920_002) { $0.offers["flatrate"] = [.disneyPlus, .netflix] }
        let arrived = try await mustc("fetch", "--force", "--json")
        #expect(try arrived.json()["result"] as? String == "newData", "\(arrived.all)")
        #expect(try arrived.json()["availability"] as? Int == 1 && arrived.json()["changed"] as? Int == 0)
        let input = try #require(
            try JSONSerialization.jsonObject(
                with: Data(String(contentsOfFile: mustc.home.file("input.json"), encoding: .utf8).utf8))
                as? [String: Any])
        let entries = input["changes"] as? [[String: Any]] ?? []
        #expect(entries.count == 1, "\(entries)")
        #expect(entries.first?["kind"] as? String == "availability")
        #expect(entries.first?["provider"] as? String == "Netflix" && entries.first?["change"] as? String == "arrived")
        #expect(entries.first?["title"] as? String == "Rough")
        // Disney Plus leaves; a new rental alone is not listed.
        stub.updateExtras(id: 920_002) { $0.offers = ["flatrate": [.netflix], "rent": [.amazonVideo]] }
        stub.updateExtras(id: 920_005) { $0.offers["buy"] = [.appleTV] }
        let left = try await mustc("fetch", "--force", "--json")
        #expect(try left.json()["result"] as? String == "newData")
        let table = try await mustc("changes", "--since", "1d")
        #expect(table.stdout.contains("now on Netflix") && table.stdout.contains("left Disney Plus"), "\(table.all)")
        #expect(!table.stdout.contains("Rental"))
        let json = try await mustc("changes", "--since", "1d", "--format", "json")
        let listed = try json.json()["changes"] as? [[String: Any]] ?? []
        #expect(listed.map { $0["change"] as? String } == ["left", "arrived"])
        // Nothing moved: noData.
        let quiet = try await mustc("fetch", "--force", "--json")
        #expect(try quiet.json()["result"] as? String == "noData")
    }

    @Test func aRegionThatIsNotTwoCapitalsExits78NamingTheKey() async throws {
        try """
        {"family": {"region": "usa"}}
        """.write(toFile: config, atomically: true, encoding: .utf8)
        let outcome = try await mustc("pick", "Ann")
        #expect(outcome.status == 78 && outcome.stderr.contains("family.region"), "\(outcome.all)")
    }
}

/// `/night` with tonight's choices, in headless Chromium at 360 px: the same picks as the command, the members'
/// limit shown; and the movie page's "Where to watch" with the JustWatch credit.
@Suite(.serialized) struct TonightPageTests {
    @Test func thePageWithTheSameChoicesGivesTheCommandsPicks() async throws {
        let tonight = try TonightTests()
        try await tonight.family()
        #expect(try await tonight.mustc("member", "Cleo", "--age-limit", "PG").status == 0)
        let server = try await ServeProcess.start(tonight.mustc)
        defer { server.ensureStopped() }
        let command = try await tonight.picks("Ann", "Cleo", "--max-minutes", "100", "--include-unrated")
        let expected = tonight.titles(command)
        #expect(expected == ["Gentle", "Unrated", "Rental"])
        let result = try await ServeBrowserTests.browse(
            String(server.url.dropLast()), ["Ann", "Cleo", "--minutes", "100", "--unrated"], script: "night.py")
        let picks = try #require(result["picks"] as? [String], "\(result)")
        #expect(picks.count == expected.count, "\(picks)")
        for (pick, title) in zip(picks, expected) {
            #expect(pick.hasPrefix(title + " (2001)"), "\(pick) is not \(title)")
        }
        #expect(
            (result["limit"] as? [String])?.first?.contains("Age limit: PG, Cleo's own limit.") == true, "\(result)")
        #expect((result["url"] as? String)?.contains("minutes=100") == true)
        // Pick opens the answer at the picks: the first one's top is on a phone's first screen.
        let top = try #require(result["firstPickTop"] as? Double, "\(result)")
        #expect(top >= 0 && top <= 500, "the first pick starts \(top) px down")
        for key in ["before", "after"] {
            let page = try #require(result[key] as? [String: Any])
            #expect(page["dialog"] as? Bool == false && (page["consoleErrors"] as? [String])?.isEmpty == true)
            #expect((page["scrollWidth"] as? Int ?? .max) <= (page["clientWidth"] as? Int ?? 0))
        }
        let streaming = try await HTTP.get(server.url + "night?member=Ann&streaming=on&genre=Comedy")
        #expect(
            streaming.status == 200 && streaming.body.contains("<p class=\"where\"><bdi>On Netflix</bdi>"),
            "\(streaming.body)")
        #expect(try await HTTP.get(server.url + "night?member=Ann&minutes=abc").status == 400)
        let movie = try await HTTP.get(server.url + "movies/920002")
        #expect(movie.body.contains("Where to watch in US") && movie.body.contains("Disney Plus"))
        #expect(movie.body.contains("Streaming data from JustWatch, through TMDB."))
        #expect(movie.body.contains("https://www.themoviedb.org/movie/920002/watch?locale=US"))
        #expect(movie.body.contains("2 h · R · Horror"))
        // Netflix arrives for Rough: /changes lists it beside the ratings.
        tonight.stub.updateExtras(id: 920_002) { $0.offers["flatrate"] = [.disneyPlus, .netflix] }
        #expect(try await tonight.mustc("fetch", "--force").status == 0)
        let changes = try await HTTP.get(server.url + "changes?since=1d")
        #expect(changes.body.contains("On our services") && changes.body.contains("now on Netflix"), "\(changes.body)")
    }

    /// Ann alone, at most 100 minutes and G tonight: only Gentle is left, and the page says what each choice left
    /// out, each count with a "Show them" that relaxes that one choice; at both widths, in both schemes, axe-core
    /// finds nothing, nothing scrolls sideways and every link is a 44 px target.
    @Test func theLeftOutListPassesAxeAtBothWidthsAndSchemesAndEachShowThemRelaxesItsChoice() async throws {
        try SharedBrowser.shared.warm()
        let tonight = try TonightTests()
        try await tonight.family()
        let server = try await ServeProcess.start(tonight.mustc)
        defer { server.ensureStopped() }
        let path = "/night?member=Ann&minutes=100&age=G"
        let result = try await ServeBrowserTests.browse(String(server.url.dropLast()), [path], script: "leftout.py")
        let rules = result["rules"] as? [String] ?? []
        let axe = (result["axeSeconds"] as? Double).map { String(format: "%.2f", $0) } ?? "?"
        print("leftout.py: axe-core \(result["axeVersion"] ?? "?") checked \(rules.count) rules in \(axe) s")
        #expect(rules.contains("target-size") && rules.contains("color-contrast"), "\(rules)")
        let visits = try #require(result["visits"] as? [[String: Any]], "\(result)")
        #expect(Set(visits.map { "\($0["width"] ?? "") \($0["scheme"] ?? "")" }).count == 4, "\(visits)")
        for visit in visits {
            let name = "\(visit["width"] ?? "?") px, \(visit["scheme"] ?? "?")"
            #expect(visit["error"] is NSNull || visit["error"] == nil, "\(name): axe failed \(visit["error"] ?? "")")
            #expect((visit["violations"] as? [[String: Any]])?.isEmpty == true, "\(name): \(visit["violations"] ?? "")")
            #expect((visit["small"] as? [String]) == [], "\(name): targets under 44 px: \(visit["small"] ?? "")")
            #expect((visit["scrollWidth"] as? Int ?? .max) <= (visit["clientWidth"] as? Int ?? 0), "\(name)")
            #expect((visit["consoleErrors"] as? [String])?.isEmpty == true, "\(name)")
        }
        #expect(result["picks"] as? [String] == ["Gentle (2001)"], "\(result)")
        let expected = [
            "3 above G (tonight's limit)": "age", "2 longer than 100 minutes": "minutes",
            "1 with no certification": "unrated",
        ]
        for width in ["360", "1280"] {
            let list = try #require((result["leftOut"] as? [String: Any])?[width] as? [String: Any], "\(result)")
            #expect(list["line"] as? String == "4 movies left out:", "\(width): \(list)")
            let items = list["items"] as? [[String: Any]] ?? []
            #expect(Set(items.compactMap { $0["text"] as? String }) == Set(expected.keys), "\(width): \(items)")
            #expect(items.allSatisfy { ($0["link"] as? String)?.hasPrefix("Show them") == true }, "\(items)")
        }
        // Each link is tonight's night less that one choice: its page no longer counts that choice, and keeps
        // Gentle.
        let shown = result["shown"] as? [[String: Any]] ?? []
        #expect(shown.count == expected.count, "\(shown)")
        let words = ["age": "above G", "minutes": "longer than", "unrated": "no certification"]
        for followed in shown {
            let (text, url) = (followed["text"] as? String ?? "", followed["url"] as? String ?? "")
            let choice = expected[text] ?? "?"
            #expect(url.hasSuffix("#picks") && url.contains("member=Ann"), "\(text): \(url)")
            #expect(choice == "unrated" ? url.contains("unrated=include") : !url.contains("\(choice)="), "\(url)")
            let left = ((followed["leftOut"] as? [String: Any])?["items"] as? [[String: Any]] ?? [])
                .compactMap { $0["text"] as? String }
            #expect(!left.contains { $0.contains(words[choice] ?? "?") }, "\(text): \(left)")
            #expect((followed["picks"] as? [String])?.contains("Gentle (2001)") == true, "\(text): \(followed)")
        }
    }
}
