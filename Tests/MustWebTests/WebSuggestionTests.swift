import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import MustCore
import TMDBStub
import Testing

@testable import MustWeb

/// /night's "Something new" row, in-process over a real store whose suggestions a real `SuggestionWork`
/// gathered from the stub over loopback: the cards under tonight's limits, signed in and out; "Add to Claire's list"
/// through the member page's add; "Not for us" across a following fetch; forms without the token refused.
@Suite final class WebSuggestionTests {
    let stub: TMDBStubServer
    var family: WebFamily
    static let night = "/night?member=Claire&member=Sofia"

    /// Kind (G, 95 min, on Netflix), Scary (R, 120 min, on Disney Plus), and a title written to break the page.
    static let movies = [
        StubMovie(id: 930_001, title: "Kind", voteAverage: 8.5, voteCount: 4_000, releaseDate: "2019-01-01"),
        StubMovie(id: 930_002, title: "Scary", voteAverage: 8.0, voteCount: 9_000),
        StubMovie(id: 930_003, title: "<b>Bold</b> & \"Co\"", voteAverage: 7.0, voteCount: 3_000),
    ]

    init() throws {
        stub = TMDBStubServer(movies: StubMovie.classics + Self.movies)
        stub.setExtras(
            id: 930_001,
            StubExtras(runtime: 95, genres: ["Family"], certification: "G", offers: ["flatrate": [.netflix]]))
        stub.setExtras(
            id: 930_002,
            StubExtras(runtime: 120, genres: ["Horror"], certification: "R", offers: ["flatrate": [.disneyPlus]]))
        stub.setExtras(id: 930_003, StubExtras(runtime: 100, genres: ["Comedy"], certification: "PG"))
        stub.setRecommendations(id: 129, [930_002, 930_001, 930_003])
        stub.setRecommendations(id: 8392, [930_001])
        try stub.start()
        family = try WebFamily()
        family.config.family.services = ["Netflix"]
        try family.setPassword()
        // Claire loved Spirited Away (9), Sofia My Neighbor Totoro (10).
        for (member, id, title, rating) in [
            ("Claire", 129, "Spirited Away", 9), ("Sofia", 8392, "My Neighbor Totoro", 10),
        ] {
            try family.keep(member, RemoteMovie(id: id, title: title, voteAverage: 8.3, voteCount: 10_000))
            _ = try family.store.markWatched(
                member: member, [.tmdb(id)], mark: WatchMark(watched: true, rating: rating), now: family.now)
        }
    }

    deinit { stub.stop() }

    /// One fetch's suggestion work, on the family's clock.
    func gather() async {
        var config = Config()
        config.family.region = "US"
        let stack = CurlTransport.stack(time: .system)
        let client = TMDBClient(
            baseURL: stub.baseURL, credentials: .apiKey(stub.apiKey), timeout: 5,
            retry: RetryPolicy(maxRetries: 0, baseDelay: 0.01, maxDelay: 0.1), transport: stack.transport,
            executor: stack.executor, time: .system, logger: WebFamily.logger)
        // The whole day's budget at once: this is about the page, not the fetch's pace.
        var settings = SuggestionWork.Settings(config)
        settings.pace.capacity = Double(settings.requestsPerDay)
        let work = SuggestionWork(store: family.store, client: client, settings: settings, logger: WebFamily.logger)
        _ = await work.run(time: family.time, ownRequests: 10_000)
    }

    var recommendationAsks: Int { stub.requests.filter { $0.path.hasSuffix("/recommendations") }.count }

    /// The titles of the "Something new" cards, in order.
    static func cards(_ page: String) -> [String] {
        guard let row = page.range(of: "<h2 id=\"something-new\">") else { return [] }
        return page[row.upperBound...].matches(
            of: #/<h3 id="new-\d+"><a href="[^"]*" rel="external"><bdi>([^<]*)</bdi>/#
        )
        .map { String($0.output.1) }
    }

    @Test func theRowSignedOutHasCardsWithoutButtonsUnderTonightsLimits() async throws {
        await gather()
        try family.store.keepCertificationOrder(
            ["G", "PG", "PG-13", "R"].enumerated().map { RegionCertification(certification: $1, order: $0 + 1) },
            region: "US", now: family.now)
        let asked = stub.requests.count
        try await family.test { client in
            let page = try await client.get(Self.night)
            #expect(page.status == .ok)
            #expect(Self.cards(page.text) == ["Kind", "Scary", "&lt;b&gt;Bold&lt;/b&gt; &amp; &quot;Co&quot;"])
            #expect(!page.text.contains("<b>Bold"), "escaped")
            #expect(page.text.contains("1 h 35 min · G · Family"))
            #expect(page.text.contains("On Netflix"))
            #expect(page.text.contains("On Disney Plus, not one of ours"))
            #expect(
                page.text.contains(
                    "Because Claire loved Spirited Away (9) and Sofia loved My Neighbor Totoro (10) · 8.5 from"))
            #expect(page.csrf == nil && !page.text.contains("Not for us") && !page.text.contains("Add to"))
            // Tonight's limits, as `mustc suggest` applies them.
            #expect(Self.cards(try await client.get(Self.night + "&minutes=100").text).count == 2)
            #expect(Self.cards(try await client.get(Self.night + "&streaming=on").text) == ["Kind"])
            #expect(Self.cards(try await client.get(Self.night + "&genre=Horror").text) == ["Scary"])
            #expect(Self.cards(try await client.get(Self.night + "&age=PG").text).count == 2)
            // Sofia alone: only Totoro's.
            #expect(Self.cards(try await client.get("/night?member=Sofia").text) == ["Kind"])
        }
        // A member's own limit applies as in `pick` and `suggest`.
        _ = try family.store.setAgeLimit(member: "Sofia", to: "G")
        try await family.test { client in
            let page = try await client.get(Self.night)
            #expect(Self.cards(page.text) == ["Kind"] && page.text.contains("Age limit: G, Sofia&#39;s own limit."))
        }
        #expect(stub.requests.count == asked, "a page request never asks TMDB")
    }

    @Test func beforeAnyFetchOneQuietSentenceAndNoTMDBRequest() async throws {
        try await family.test { client in
            let page = try await client.get(Self.night)
            #expect(page.status == .ok && Self.cards(page.text).isEmpty)
            #expect(page.text.contains("<p class=\"quiet\">Nothing new for them yet.</p>"))
            let ann = try await client.get("/night?member=Claire&minutes=90")
            #expect(ann.text.contains("Nothing new for them yet that tonight&#39;s choices allow."))
        }
        #expect(stub.requests.isEmpty, "a page request never asks TMDB")
    }

    @Test func addToClairesListGoesThroughTheAddAndLeavesTheSuggestions() async throws {
        await gather()
        let family = family
        try await family.test { client in
            let cookie = try await client.signIn()
            let page = try await client.get(Self.night, headers: [.cookie: cookie])
            let csrf = try #require(page.csrf)
            #expect(page.text.contains("action=\"/members/Claire/movies\""))
            #expect(page.text.contains("<span>Add to <bdi>Claire</bdi>'s list</span></button>"))
            #expect(page.text.contains("Add to <bdi>Sofia</bdi>"))
            #expect(page.text.contains("action=\"/night/not-for-us\""))
            let added = try await client.post(
                "/members/Claire/movies", form: [("csrf", csrf), ("movie", "tmdb:930001"), ("back", Self.night)],
                cookie: cookie, origin: "http://localhost")
            #expect(added.status == .seeOther && added.headers[.location] == Self.night)
            let claire = try family.store.ratings(member: "Claire").members.first?.movies.compactMap(\.remoteId) ?? []
            #expect(claire.contains(930_001), "\(claire)")
            #expect(try family.store.ratings(member: "Sofia").members.first?.movies.compactMap(\.remoteId) == [8392])
            let after = try await client.get(Self.night, headers: [.cookie: cookie])
            // The notice names the film in words; the card's facts are the movie's own at once, before any fetch.
            let title = try sqlite(
                family.store.path, "SELECT title || ' (' || year || ')' FROM suggestionMovie WHERE remoteId = 930001")
            let notice =
                after.text.components(separatedBy: "aria-label=\"What happened\">").dropFirst().first?
                .components(separatedBy: "</section>").first ?? ""
            #expect(notice.contains("\(title) is on Claire&#39;s list."), "\(notice)")
            #expect(!notice.contains("tmdb:") && !notice.contains("now has"), "\(notice)")
            let facts = "SELECT runtime, certification, genres FROM %@ WHERE remoteId = 930001"
            let card = try sqlite(family.store.path, facts.replacingOccurrences(of: "%@", with: "suggestionMovie"))
            let kept = try sqlite(family.store.path, facts.replacingOccurrences(of: "%@", with: "movie"))
            #expect(!card.hasPrefix("|") && card == kept, "\(card) against \(kept)")
            let offers = try sqlite(
                family.store.path,
                "SELECT count(*) FROM movieProvider JOIN movie ON movie.id = movieId WHERE remoteId = 930001")
            let cardOffers = try sqlite(
                family.store.path, "SELECT count(*) FROM suggestionProvider WHERE remoteId = 930001")
            #expect(offers == cardOffers && offers != "0", "\(offers) offers against \(cardOffers)")
            #expect(Self.cards(after.text) == ["Scary", "&lt;b&gt;Bold&lt;/b&gt; &amp; &quot;Co&quot;"])
        }
    }

    @Test func wereWatchingASuggestionPutsItOnBothListsWithItsFactsAndRecordsOneNight() async throws {
        await gather()
        let family = family
        try await family.test { client in
            let cookie = try await client.signIn()
            let page = try await client.get(Self.night, headers: [.cookie: cookie])
            let csrf = try #require(page.csrf)
            let row = try #require(page.text.components(separatedBy: "<h2 id=\"something-new\">").last)
            #expect(row.contains("<form method=\"post\" action=\"/night/new/watching\">"), "\(row)")
            #expect(row.contains("<input type=\"hidden\" name=\"w0\" value=\"Claire\">"))
            #expect(row.contains("<input type=\"hidden\" name=\"w1\" value=\"Sofia\">"))
            #expect(row.contains("aria-describedby=\"new-1\">We're watching this</button>"))
            let form = [
                ("csrf", csrf), ("movie", "tmdb:930001"), ("w0", "Claire"), ("w1", "Sofia"), ("back", Self.night),
            ]
            var notices: [String] = []
            // A double tap: two identical POSTs.
            for _ in 0..<2 {
                let watched = try await client.post(
                    "/night/new/watching", form: form, cookie: cookie, origin: "http://localhost")
                #expect(watched.status == .seeOther && watched.headers[.location] == Self.night)
                let after = try await client.get(Self.night, headers: [.cookie: cookie]).text
                notices.append(
                    after.components(separatedBy: "aria-label=\"What happened\">").dropFirst().first?
                        .components(separatedBy: "</section>").first ?? "")
            }
            let nights = try family.store.nights()
            #expect(nights.count == 1, "\(nights)")
            #expect(
                nights.first?.watchers.map(\.name) == ["Claire", "Sofia"] && nights.first?.day.text == "2026-11-24")
            // The notice names the film in words, as its card did: no TMDB key here, so the library's title is
            // still its id.
            #expect(notices[0].contains("Kind (2019) is on Claire and Sofia&#39;s lists."), "\(notices[0])")
            #expect(notices[0].contains("Movie night: “Kind (2019)” today"), "\(notices[0])")
            #expect(notices[0].contains("action=\"/nights/\(nights[0].id)/undo\""), "\(notices[0])")
            #expect(!notices[1].contains("is on") && notices[1].contains("Movie night: “Kind (2019)” today"))
            #expect(!notices.joined().contains("tmdb:"), "\(notices)")
            for member in ["Claire", "Sofia"] {
                let kind = try #require(
                    try family.store.ratings(member: member).members.first?.movies.first { $0.remoteId == 930_001 })
                #expect(kind.mark.watched && kind.mark.on?.text == "2026-11-24", "\(member): \(kind.mark)")
            }
            // The card's facts are the movie's own at once.
            let facts = "SELECT runtime, certification, genres FROM %@ WHERE remoteId = 930001"
            let card = try sqlite(family.store.path, facts.replacingOccurrences(of: "%@", with: "suggestionMovie"))
            let kept = try sqlite(family.store.path, facts.replacingOccurrences(of: "%@", with: "movie"))
            #expect(!card.hasPrefix("|") && card == kept, "\(card) against \(kept)")
            #expect(!Self.cards(try await client.get(Self.night, headers: [.cookie: cookie]).text).contains("Kind"))
            // Its Undo takes the night back and the movie off both lists: a suggestion again.
            let undone = try await client.post(
                "/nights/\(nights[0].id)/undo", form: [("csrf", csrf), ("back", Self.night)], cookie: cookie,
                origin: "http://localhost")
            #expect(undone.status == .seeOther && undone.headers[.location] == Self.night)
            let again = try await client.get(Self.night, headers: [.cookie: cookie]).text
            #expect(again.contains("Took back the movie night of “Kind (2019)” with Claire and Sofia"), "\(again)")
            #expect(Self.cards(again).contains("Kind"), "\(Self.cards(again))")
        }
        #expect(try family.store.nights().isEmpty)
        #expect(try family.store.ratings(member: "Claire").members.first?.movies.compactMap(\.remoteId) == [129])
        #expect(try family.store.ratings(member: "Sofia").members.first?.movies.compactMap(\.remoteId) == [8392])
        #expect(try sqlite(family.store.path, "SELECT count(*) FROM movie WHERE remoteId = 930001") == "0")
    }

    @Test func wereWatchingASuggestionWithSomeoneWhoIsNoMemberChangesNothing() async throws {
        await gather()
        let family = family
        try await family.test { client in
            let cookie = try await client.signIn()
            let csrf = try #require(try await client.get(Self.night, headers: [.cookie: cookie]).csrf)
            for form in [
                [("csrf", csrf), ("movie", "tmdb:930001"), ("w0", "Claire"), ("w1", "Nobody"), ("back", Self.night)],
                [("csrf", csrf), ("movie", "tmdb:930001"), ("back", Self.night)],
                [("csrf", csrf), ("movie", "Kind"), ("w0", "Claire"), ("back", Self.night)],
            ] {
                let answer = try await client.post(
                    "/night/new/watching", form: form, cookie: cookie, origin: "http://localhost")
                #expect(answer.status == .seeOther)
                let after = try await client.get(Self.night, headers: [.cookie: cookie]).text
                #expect(after.contains("class=\"notice error\""), "\(form)")
            }
            let signedOut = try await client.post(
                "/night/new/watching", form: [("movie", "tmdb:930001"), ("w0", "Claire")], origin: "http://localhost")
            #expect(signedOut.status == .forbidden)
        }
        #expect(try family.store.nights().isEmpty)
        #expect(try !family.store.hasMember("Nobody"))
        #expect(try family.store.ratings(member: "Claire").members.first?.movies.compactMap(\.remoteId) == [129])
    }

    @Test func notForUsSticksAcrossAFollowingFetch() async throws {
        await gather()
        let asked = recommendationAsks
        try await family.test { client in
            let cookie = try await client.signIn()
            let csrf = try #require(try await client.get(Self.night, headers: [.cookie: cookie]).csrf)
            let hidden = try await client.post(
                "/night/not-for-us", form: [("csrf", csrf), ("movie", "tmdb:930002"), ("back", Self.night)],
                cookie: cookie, origin: "http://localhost")
            #expect(hidden.status == .seeOther && hidden.headers[.location] == Self.night)
            let after = try await client.get(Self.night, headers: [.cookie: cookie])
            #expect(after.text.contains("Not for us: “Scary (2001)” is never suggested again."))
            #expect(!Self.cards(after.text).contains("Scary"))
            // The notice's Undo takes it back, and comes back to the same night.
            let undo = try #require(after.text.firstMatch(of: #/<form method="post" action="([^"]*undo[^"]*)">/#))
            let action = String(undo.output.1).replacingOccurrences(of: "&amp;", with: "&")
            #expect(action == "/night/not-for-us/undo?back=/night%3Fmember%3DClaire%26member%3DSofia")
            let undone = try await client.post(
                action, form: [("csrf", csrf), ("movie", "tmdb:930002")], cookie: cookie, origin: "http://localhost")
            #expect(undone.status == .seeOther && undone.headers[.location] == Self.night)
            let back = try await client.get(Self.night, headers: [.cookie: cookie])
            #expect(Self.cards(back.text).contains("Scary"))
            #expect(back.text.contains("Took back “not for us”: “Scary” may be suggested again."))
            let again = try await client.post(
                "/night/not-for-us", form: [("csrf", csrf), ("movie", "tmdb:930002"), ("back", Self.night)],
                cookie: cookie, origin: "http://localhost")
            #expect(again.status == .seeOther)
            #expect(!Self.cards(try await client.get(Self.night, headers: [.cookie: cookie]).text).contains("Scary"))
        }
        // Eight days on, the seeds' recommendations are asked again, Scary among them: it stays hidden.
        await family.clock.advance(by: .seconds(8 * 86_400))
        await gather()
        #expect(recommendationAsks == asked + 2)
        try await family.test { client in
            let cards = Self.cards(try await client.get(Self.night).text)
            #expect(cards.first == "Kind" && !cards.contains("Scary"))
        }
        // `mustc suggest --forget`'s write brings it back.
        #expect(try family.store.forgetHiddenSuggestions() == 1)
        try await family.test { client in
            let cards = Self.cards(try await client.get(Self.night).text)
            #expect(cards.contains("Scary"))
        }
    }

    @Test func formsWithoutTheTokenOrSignedOutAreRefusedAndChangeNothing() async throws {
        await gather()
        try await family.test { client in
            let cookie = try await client.signIn()
            let csrf = try #require(try await client.get(Self.night, headers: [.cookie: cookie]).csrf)
            for (path, movie) in [("/night/not-for-us", "tmdb:930002"), ("/members/Claire/movies", "tmdb:930002")] {
                for (form, origin, who) in [
                    ([("movie", movie)], nil, cookie), ([("csrf", "not-the-token"), ("movie", movie)], nil, cookie),
                    ([("csrf", csrf), ("movie", movie)], "http://evil.example", cookie),
                    ([("csrf", csrf), ("movie", movie)], nil, nil),
                ] as [([(String, String)], String?, String?)] {
                    let answer = try await client.post(path, form: form, cookie: who, origin: origin)
                    #expect(answer.status == .forbidden, "\(path) \(form) from \(origin ?? "no origin")")
                }
            }
            #expect(Self.cards(try await client.get(Self.night).text).contains("Scary"))
        }
        #expect(try family.store.ratings(member: "Claire").members.first?.movies.compactMap(\.remoteId) == [129])
    }
}
