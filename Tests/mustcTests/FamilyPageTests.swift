import Foundation
import TMDBStub
import Testing

/// The family's pages as a family member meets them, through the built binary
/// and a real headless Chromium: `Tests/browser/family.py` sweeps every page at 360 and 1280 px, light and dark,
/// signed out and in, with axe-core, reads the cards, pages through 200 movies, and beside that edits from the cards
/// on a copy of the database served apart. This test judges what it found against `mustc ratings --format json`.
@Suite(.serialized) struct FamilyPageTests {
    static let hostileId = 900_010
    static let hostileTitle = "Evil\u{202E}gnp.exe"
    static let password = "popcorn on sunday"

    /// Ann keeps five classics and Dune (2021); Bob keeps Dune (1984), Up (loved: 9) and a title with a U+202E;
    /// Cy keeps 200 movies. Up moves by 0.001 and Spirited Away by 0.2 in a later fetch. TMDB recommends three
    /// movies nobody keeps from Up: the suggestions on /night.
    static func family(_ stub: TMDBStubServer) async throws -> MustcBinary {
        var mustc = MustcBinary(stub: stub)
        // The fetch below asks for some 220 movies, and this test is about the pages, not the pace: at TMDB's 40 a
        // second, the default, the family took 6.7 seconds to make on a quiet machine, 1.4 without the wait, and
        // this is the suite's longest test.
        let config = mustc.home.file("config.json")
        try #"{"tmdb": {"maxRequestsPerSecond": 2000}}"#.write(toFile: config, atomically: true, encoding: .utf8)
        mustc.environment["MUSTC_CONFIG"] = config
        let cy = (0..<200).map { "tmdb:\(100_000 + $0)" }
        for arguments in [
            ["add", "Ann", "Up", "Amélie", "Spirited Away", "My Neighbor Totoro", "Dune (2021)"],
            ["add", "Bob", "Dune (1984)", "Up", "tmdb:\(hostileId)"],
            // Cy's 200 are looked up once, by the fetch below, not also one by one as they are added.
            ["add", "--no-lookup", "Cy"] + cy,
            // A movie night this week: signed in, the family page asks "How was My Neighbor Totoro?".
            ["night", "My Neighbor Totoro", "Ann"],
            // Bob loved Up: the fetch gathers its recommendations, /night's "Something new".
            ["watched", "Bob", "tmdb:14160", "--rating", "9"],
        ] {
            let outcome = try await mustc.run(arguments)
            #expect(outcome.status == 0, "\(outcome.all)")
        }
        stub.update(id: 14160) { $0.voteAverage = 7.901 }
        stub.update(id: 129) { $0.voteAverage = 8.7 }
        let fetch = try await mustc("fetch", "--force")
        #expect(fetch.status == 0, "\(fetch.all)")
        let set = try await mustc.run(["password"], input: password + "\n")
        #expect(set.status == 0, "\(set.all)")
        return mustc
    }

    static let suggested = [
        StubMovie(id: 931_001, title: "Something <i>New</i> & \"Odd\"", voteAverage: 7.7, voteCount: 700),
        StubMovie(id: 931_002, title: "Quiet Lake", voteAverage: 7.1, voteCount: 300),
        StubMovie(
            id: 931_003, title: "The Long Road Home of the Very Patient Travelling Family", voteAverage: 6.9,
            voteCount: 90),
    ]

    static let pages = [
        "/", "/members/Ann", "/members/Cy", "/movies/14160", "/movies/\(hostileId)", "/night?member=Ann&member=Bob",
        "/changes", "/status", "/members/Nobody", "/settings",
    ]

    @Test func everyPagePassesAxeFitsAPhoneAndEditsFromTheCards() async throws {
        var run = try await Self.run()
        // Only when Chromium itself was lost during the edits (a bare WebDriverException, seen once on a machine
        // at load 35) does it run once more, from scratch; a failed check is never retried.
        if let error = (run.result["edits"] as? [String: Any])?["error"] as? String,
            error.hasPrefix("WebDriverException(")
        {
            print("family.py lost its Chromium during the edits, so it runs once more: \(error)")
            run.stop()
            run = try await Self.run()
        }
        let result = run.result
        defer { run.stop() }
        let rules = result["rules"] as? [String] ?? []
        print("axe-core \(result["axeVersion"] ?? "?") checked \(rules.count) rules: \(rules.joined(separator: " "))")
        print("family.py seconds: \(result["timing"] ?? "?")")
        print("FamilyPageTests seconds: the family made in \(run.made), family.py run in \(run.browsed)")
        #expect(rules.contains("target-size") && rules.contains("color-contrast"), "\(rules)")
        try Self.expectEveryVisit(result)
        try Self.expectCards(result, equal: run.before)
        try Self.expectPaging(result)
        try Self.expectBdi(result)
        try await Self.expectEdits(result, run.editor)
        for server in [run.server, run.editServer] {
            let (stopped, exited) = await server.stop()
            #expect(exited && stopped.status == 0, "\(stopped.all)")
        }
    }

    /// The family served, and what family.py found on its pages; `stop()` ends the server and the stub.
    struct Run {
        let stub: TMDBStubServer
        let mustc: MustcBinary
        let server: ServeProcess
        /// The edits' family: a copy of `mustc`'s database, served apart, so the edits need not wait for the sweeps.
        let editor: MustcBinary
        let editServer: ServeProcess
        let before: Outcome
        let result: [String: Any]
        /// How long the family's commands took, and family.py (with its wait for a shared Chromium).
        let made: Duration
        let browsed: Duration

        func stop() {
            server.ensureStopped()
            editServer.ensureStopped()
            stub.stop()
        }
    }

    static func run() async throws -> Run {
        let stub = TMDBStubServer(
            movies: StubMovie.classics + StubMovie.identity + StubMovie.synthetic(200)
                + [StubMovie(id: Self.hostileId, title: Self.hostileTitle, voteAverage: 6.6, voteCount: 66)]
                + Self.suggested)
        stub.setRecommendations(id: 14160, Self.suggested.map(\.id))
        try stub.start()
        var servers: [ServeProcess] = []
        do {
            let started = ContinuousClock.now
            try SharedBrowser.shared.warm()
            let mustc = try await Self.family(stub)
            let before = try await mustc("ratings", "--member", "Ann", "--format", "json")
            let editor = MustcBinary(stub: stub)
            try FileManager.default.createDirectory(
                atPath: editor.home.file("data/mustc"), withIntermediateDirectories: true)
            _ = try sqlite(mustc.databasePath, ".backup '\(editor.databasePath)'")
            let serving = try await ServeProcess.start(mustc)
            servers.append(serving)
            let editServing = try await ServeProcess.start(editor)
            servers.append(editServing)
            let plan: [String: Any] = [
                "base": String(serving.url.dropLast()), "editBase": String(editServing.url.dropLast()),
                "password": Self.password, "pages": Self.pages,
                "read": ["/members/Ann"], "big": "/members/Cy",
                "hostile": ["/movies/\(Self.hostileId)", "/members/Bob"], "member": "/members/Ann", "watch": "Up",
                "rate": ["title": "Amélie", "rating": 8], "remove": "Spirited Away", "ask": "Dune",
                "answer": "Dune (1984)", "night": "/night?member=Ann&member=Bob",
                "howWas": "How was My Neighbor Totoro?",
            ]
            let json = String(decoding: try JSONSerialization.data(withJSONObject: plan), as: UTF8.self)
            let made = started.duration(to: .now)
            let result = try await ServeBrowserTests.browse(json, [], script: "family.py", deadline: 540)
            return Run(
                stub: stub, mustc: mustc, server: serving, editor: editor, editServer: editServing, before: before,
                result: result, made: made, browsed: started.duration(to: .now) - made)
        } catch {
            for server in servers { server.ensureStopped() }
            stub.stop()
            throw error
        }
    }

    static func expectEveryVisit(_ result: [String: Any]) throws {
        let visits = try #require(result["visits"] as? [[String: Any]])
        #expect(visits.count == pages.count * 8)
        // Each page at each width, in each scheme, signed out and in: every one of the eight, once.
        let seen = Set(
            visits.map { "\($0["url"] ?? "") \($0["width"] ?? "") \($0["scheme"] ?? "") \($0["signedIn"] ?? "")" })
        #expect(seen.count == pages.count * 8, "\(seen.sorted())")
        for visit in visits {
            let name =
                "\(visit["url"] ?? "?") at \(visit["width"] ?? 0) px, \(visit["scheme"] ?? ""), "
                + ((visit["signedIn"] as? Bool) == true ? "signed in" : "signed out")
            #expect(visit["error"] is NSNull || visit["error"] == nil, "\(name): axe failed \(visit["error"] ?? "")")
            let violations = visit["violations"] as? [[String: Any]] ?? [["id": "unread"]]
            #expect(violations.isEmpty, "\(name): \(violations)")
            #expect(
                (visit["scrollWidth"] as? Int ?? .max) <= (visit["clientWidth"] as? Int ?? 0),
                "\(name) scrolls sideways")
            #expect((visit["small"] as? [String]) == [], "\(name): targets under 44 px: \(visit["small"] ?? "")")
            #expect(visit["dialog"] as? Bool == false, "\(name): a dialog opened")
            let console = visit["consoleErrors"] as? [String] ?? ["unread"]
            #expect(console.isEmpty, "\(name): console errors \(console)")
            if visit["scheme"] as? String == "dark" {
                // family.py runs only axe-core's colour rules in the dark scheme: it must change only colours.
                let dark = visit["darkChanges"] as? [String: Any] ?? [:]
                #expect(
                    dark["blocks"] as? Int ?? 0 > 0 && dark["others"] as? [String] == [],
                    "\(name): the dark scheme changes more than colours: \(dark)")
                let rules = visit["darkRules"] as? [String] ?? []
                #expect(rules.contains("color-contrast"), "\(name): axe-core's colour rules \(rules)")
            }
            let title = visit["title"] as? String ?? ""
            #expect(title.hasSuffix(" · mustc") && !title.hasPrefix(" ·"), "\(name): title \(title)")
            #expect((visit["bytes"] as? Int ?? .max) <= 100_000, "\(name): \(visit["bytes"] ?? 0) bytes")
            let url = visit["url"] as? String ?? ""
            if url == "/" {
                let asked = (visit["text"] as? String ?? "").contains("How was My Neighbor Totoro?")
                #expect(asked == (visit["signedIn"] as? Bool == true), "\(name): the prompt is for the signed-in")
            }
            if url == "/settings", visit["signedIn"] as? Bool == true {
                #expect((visit["text"] as? String ?? "").contains("The family's services"), "\(name)")
            }
            if url.hasPrefix("/night") {
                // The sweep saw "Something new": three cards; signed in, "We're watching this", "Add to Ann's",
                // "Add to Bob's" and "Not for us" on each.
                #expect(visit["newCards"] as? Int == suggested.count, "\(name): \(visit["newCards"] ?? "")")
                let buttons = (visit["signedIn"] as? Bool) == true ? suggested.count * 4 : 0
                #expect(visit["newButtons"] as? Int == buttons, "\(name): \(visit["newButtons"] ?? "")")
                // "Add to Ann's list" keeps its space before the name, drawn at least 2 px wide.
                let gaps = (visit["addGaps"] as? [Any] ?? []).compactMap { ($0 as? NSNumber)?.doubleValue }
                #expect(gaps.count == buttons / 2, "\(name): \(gaps)")
                #expect(gaps.allSatisfy { $0 >= 2 }, "\(name): the space before the name is \(gaps) px")
            }
            if ["/", "/members/Ann", "/movies/14160"].contains(url) || url.hasPrefix("/night") {
                #expect((visit["internal"] as? [String]) == [], "\(name) shows \(visit["internal"] ?? "")")
            }
        }
    }

    /// Each card's rating is Ann's movie's vote average to one decimal, written out here: Up's 7.901 reads 7.9.
    /// Up moved by 0.001 this week and reads steady.
    static func expectCards(_ result: [String: Any], equal ratings: Outcome) throws {
        let members = try #require(try ratings.json()["members"] as? [[String: Any]])
        let movies = try #require(members.first?["movies"] as? [[String: Any]])
        let cards = try #require((result["cards"] as? [String: Any])?["/members/Ann"] as? [[String: Any]])
        #expect(cards.count == movies.count)
        for movie in movies {
            let title = try #require(movie["title"] as? String)
            let card = try #require(cards.first { $0["title"] as? String == title }, "no card for \(title)")
            let rating = [
                "Up": "7.9", "Amélie": "7.9", "Spirited Away": "8.7", "My Neighbor Totoro": "8.1", "Dune": "7.8",
            ]
            #expect(card["rating"] as? String == rating[title], "\(title): \(card)")
            #expect(card["year"] as? String == (movie["year"] as? Int).map(String.init), "\(title): \(card)")
        }
        let up = try #require(cards.first { $0["title"] as? String == "Up" })
        #expect(up["move"] as? String == "steady", "\(up)")
        let spirited = try #require(cards.first { $0["title"] as? String == "Spirited Away" })
        #expect((spirited["move"] as? String)?.hasSuffix("up 0.2") == true, "\(spirited)")
        #expect((spirited["votes"] as? String)?.hasPrefix("16.9k votes") == true, "\(spirited)")
    }

    static func expectPaging(_ result: [String: Any]) throws {
        let pages = try #require(result["paging"] as? [[String: Any]])
        #expect(pages.map { $0["cards"] as? Int ?? 0 } == [48, 48, 48, 48, 8], "\(pages)")
        #expect(pages.map { $0["previous"] as? Bool ?? true } == [false, true, true, true, true])
        #expect((pages.first?["count"] as? String)?.hasPrefix("200 movies, 0 watched.") == true, "\(pages)")
    }

    /// The U+202E in a TMDB title shows as `\u202E`, inside `<bdi>`, and is nowhere in the DOM raw.
    static func expectBdi(_ result: [String: Any]) throws {
        let found = try #require(result["bdi"] as? [String: [String: Any]])
        for (path, dom) in found {
            #expect(dom["raw"] as? Bool == false, "\(path) holds a raw control character")
            #expect((dom["shown"] as? [String])?.contains { $0.contains("Evil\\u202Egnp.exe") } == true, "\(path)")
            #expect((dom["outside"] as? [String]) == [], "\(path): shown outside <bdi>: \(dom)")
        }
    }

    static func expectEdits(_ result: [String: Any], _ mustc: MustcBinary) async throws {
        let edits = try #require(result["edits"] as? [String: Any])
        for step in ["watched", "rated", "removed", "asked", "answered", "watchedNew", "ratedNight", "undone"] {
            let notice = try #require(edits[step] as? [String: Any], "no notice after \(step): \(edits)")
            #expect(notice["text"] is String, "\(step): \(notice)")
            let (bottom, screen) = (notice["bottom"] as? Double ?? .infinity, notice["screen"] as? Double ?? 0)
            #expect(bottom <= screen, "\(step): the notice ends at \(bottom), below the first screen (\(screen))")
            #expect(notice["focused"] as? Bool == true, "\(step): the notice is not focused")
        }
        let answers = edits["answers"] as? [String] ?? []
        #expect(answers.contains("Dune (1984)") && answers.contains("Dune (2021)"), "\(answers)")
        #expect(answers.contains { $0.hasPrefix("Another movie") }, "\(answers)")
        #expect((edits["confirmation"] as? String)?.hasPrefix("Remove Spirited Away") == true, "\(edits)")

        let after = try await mustc("ratings", "--member", "Ann", "--format", "json")
        let movies = try #require(
            (try after.json()["members"] as? [[String: Any]])?.first?["movies"] as? [[String: Any]])
        func movie(_ title: String, _ id: Int? = nil) -> [String: Any]? {
            movies.first { $0["title"] as? String == title && (id == nil || $0["remoteId"] as? Int == id) }
        }
        let today = ISO8601DateFormatter.string(
            from: Date(), timeZone: .current, formatOptions: [.withFullDate, .withDashSeparatorInDate])
        #expect(movie("Up")?["watched"] as? Bool == true && movie("Up")?["watchedOn"] as? String == today, "\(movies)")
        #expect(movie("Amélie")?["ownRating"] as? Int == 8, "\(movies)")
        #expect(movie("Spirited Away") == nil, "\(movies)")
        #expect(movie("Dune", 841) != nil && movie("Dune", 438631) != nil, "\(movies)")
        try await expectEvening(edits, mustc)
    }

    /// A suggestion watched from /night went on Ann's and Bob's lists; its night, taken back from the family page,
    /// takes it off them again and leaves only Totoro's, which Ann rated 8 from "How was it?", answered beside that
    /// night.
    static func expectEvening(_ edits: [String: Any], _ mustc: MustcBinary) async throws {
        let new = try #require(edits["newTitle"] as? String, "\(edits)")
        let watched = (edits["watchedNew"] as? [String: Any])?["text"] as? String ?? ""
        #expect(watched.contains("Movie night: “\(new)") && watched.contains("with Ann and Bob"), "\(watched)")
        #expect((edits["ratedNight"] as? [String: Any])?["afterHeading"] as? Bool == true, "\(edits)")
        #expect((edits["undoneLine"] as? String)?.hasPrefix("Today: \(new)") == true, "\(edits)")
        let undone = (edits["undone"] as? [String: Any])?["text"] as? String ?? ""
        #expect(undone.contains("Took back the movie night of “\(new)"), "\(undone)")
        let nights = try #require(try await mustc("nights", "--format", "json").json()["nights"] as? [[String: Any]])
        #expect(nights.map { $0["title"] as? String } == ["My Neighbor Totoro"], "\(nights)")
        let watchers = nights.first?["watchers"] as? [[String: Any]] ?? []
        #expect(watchers.first?["name"] as? String == "Ann" && watchers.first?["rating"] as? Int == 8, "\(watchers)")
        let lists = try #require(
            try await mustc("ratings", "--format", "json").json()["members"] as? [[String: Any]])
        // The Undo took the suggestion off both lists again.
        for name in ["Ann", "Bob"] {
            let movies = lists.first { $0["name"] as? String == name }?["movies"] as? [[String: Any]] ?? []
            #expect(!movies.isEmpty && !movies.contains { $0["title"] as? String == new }, "\(name): \(movies)")
        }
    }
}
