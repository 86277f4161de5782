import Foundation
import HTTPTypes
import HummingbirdTesting
import MustCore
import Testing

@testable import MustWeb

/// An evening on /night and a member page, in-process: empty and thin picks say what tonight's choices left out,
/// each with a link that relaxes that choice; the age menu and the line under the picks say which limit applies;
/// "We're watching this" and its Undo keep the evening; the picks and a card's edits stay in view.
@Suite struct WebEveningTests {
    /// The classic family, signed in, with the US certifications; Ann's Up is G and 96 minutes, her Amélie R and
    /// 122 minutes; Leo keeps Up and has his own limit, PG.
    static func family() throws -> WebFamily {
        let family = try WebSettingsTests.family()
        for (remoteId, runtime, certification) in [(14160, 96, "G"), (194, 122, "R")] {
            let id = try #require(try family.store.movieReport(.tmdb(remoteId))?.localId)
            let extras = MovieExtras(runtime: runtime, genres: ["Comedy"], certification: .some(certification))
            #expect(try family.store.apply([.extras(movieId: id, extras, region: "US")], now: family.now).isEmpty)
        }
        try family.keep(
            "Leo", RemoteMovie(id: 14160, title: "Up", voteAverage: 8.3, voteCount: 101, releaseDate: "2009-05-28"))
        _ = try family.store.setAgeLimit(member: "Leo", to: "PG")
        return family
    }

    /// The page's links that relax one choice, by what they say.
    static func showThem(_ page: String) -> [String: String] {
        let found = page.matches(of: #/<li><bdi>([^<]*)</bdi> <a href="([^"]*)">Show them/#).map {
            (String($0.output.1), String($0.output.2).replacingOccurrences(of: "&amp;", with: "&"))
        }
        return Dictionary(found, uniquingKeysWith: { first, _ in first })
    }

    @Test func anAgeLimitThatLeavesNothingSaysWhatWasLeftOutNeverWatchedEverything() async throws {
        let family = try Self.family()
        try await family.test { client in
            // Up is 96 minutes, Amélie 122 and R: nothing is left, and neither has been watched.
            let page = try await client.get("/night?member=Ann&age=G&minutes=90").text
            #expect(!page.contains("watched everything"), "\(page)")
            #expect(page.contains("Nothing to pick with tonight&#39;s choices."))
            #expect(page.contains("<p class=\"left-out\">2 movies left out:</p>"), "\(page)")
            let links = Self.showThem(page)
            #expect(
                links == [
                    "1 above G (tonight&#39;s limit)": "/night?member=Ann&minutes=90#picks",
                    "2 longer than 90 minutes": "/night?member=Ann&age=G#picks",
                ], "\(links)")
            // Relaxing the runtime brings Up back; Amélie is still left out, for its age alone.
            let relaxed = try await client.get("/night?member=Ann&age=G").text
            #expect(relaxed.contains(">Up</bdi>") && relaxed.contains("1 movie left out:"), "\(relaxed)")
            #expect(!relaxed.contains("longer than"))
            // Relaxing the age too shows it, and nothing is left out.
            let shown = try await client.get("/night?member=Ann&minutes=130").text
            #expect(shown.contains("Amélie") && !shown.contains("movie left out") && !shown.contains("movies left out"))
        }
    }

    @Test func aMembersOwnLimitIsNamedAndCannotBeRelaxedFromTheForm() async throws {
        let family = try Self.family()
        try await family.test { client in
            let page = try await client.get("/night?member=Ann&member=Leo&age=R").text
            #expect(
                page.contains("Age limit: PG, Leo&#39;s own limit, stricter than the R chosen."), "\(page)")
            #expect(page.contains("<li><bdi>1 above PG (Leo&#39;s limit)</bdi></li>"), "\(page)")
            #expect(page.contains("id=\"age-hint\">Stricter than the members' own limits</span>"))
            #expect(page.contains("aria-describedby=\"age-hint\""))
            let tonight = try await client.get("/night?member=Ann&member=Leo&age=G").text
            #expect(tonight.contains("Age limit: G, chosen tonight, stricter than Leo&#39;s own (PG)."), "\(tonight)")
        }
    }

    @Test func thePickFormAndItsResultsOpenAtThePicks() async throws {
        let family = try Self.family()
        try await family.test { client in
            let page = try await client.get("/night?member=Ann").text
            #expect(page.contains("<form method=\"get\" action=\"/night#picks\" class=\"night\">"))
            #expect(page.contains("<h2 id=\"picks\">"))
        }
    }

    @Test func undoReturnsToTheNightWithAnnAndLeoStillTicked() async throws {
        let family = try Self.family()
        try await family.test { client in
            let cookie = try await client.signIn()
            let evening = "/night?member=Ann&member=Leo&minutes=100"
            let page = try await client.get(evening, headers: [.cookie: cookie])
            let csrf = try #require(page.csrf)
            let watched = try await client.post(
                "/night/watching",
                form: [("csrf", csrf), ("movie", "tmdb:14160"), ("w0", "Ann"), ("w1", "Leo"), ("back", evening)],
                cookie: cookie, origin: "http://localhost")
            #expect(watched.status == .seeOther && watched.headers[.location] == evening)
            let notice = try await client.get(evening, headers: [.cookie: cookie]).text
            let undo = try #require(
                notice.firstMatch(of: #/<form method="post" action="(/nights/\d+/undo)">/#).map { String($0.output.1) })
            #expect(
                notice.contains(
                    "<input type=\"hidden\" name=\"back\" value=\"/night?member=Ann&amp;member=Leo&amp;minutes=100\">"))
            let back = try #require(
                notice.firstMatch(of: #/name="back" value="([^"]*)"><button type="submit"><bdi>Undo/#))
            let undone = try await client.post(
                undo,
                form: [("csrf", csrf), ("back", String(back.output.1).replacingOccurrences(of: "&amp;", with: "&"))],
                cookie: cookie, origin: "http://localhost")
            #expect(undone.status == .seeOther && undone.headers[.location] == evening)
            let again = try await client.get(evening, headers: [.cookie: cookie]).text
            #expect(again.contains("Took back the movie night"))
            #expect(again.contains("value=\"Ann\" checked") && again.contains("value=\"Leo\" checked"), "\(again)")
            #expect(again.contains("<h2 id=\"picks\">") && again.contains(">Up</bdi>"))
        }
    }

    @Test func removeFromASortedListReturnsWithTheSameSort() async throws {
        let family = try Self.family()
        try await family.test { client in
            let cookie = try await client.signIn()
            let answer = try await client.get("/members/Ann?sort=title", headers: [.cookie: cookie])
            let (list, csrf) = (answer.text, try #require(answer.csrf))
            let remove = try #require(
                list.firstMatch(of: #/<a class="button" href="([^"]*)"[^>]*>Remove/#).map {
                    String($0.output.1).replacingOccurrences(of: "&amp;", with: "&")
                })
            #expect(remove.hasSuffix("&back=%2Fmembers%2FAnn%3Fsort%3Dtitle"), "\(remove)")
            let confirm = try await client.get(remove, headers: [.cookie: cookie]).text
            #expect(confirm.contains("<input type=\"hidden\" name=\"back\" value=\"/members/Ann?sort=title\">"))
            #expect(confirm.contains("<a href=\"/members/Ann?sort=title\">Keep it</a>"))
            let removed = try await client.post(
                "/members/Ann/remove",
                form: [("csrf", csrf), ("movie", "tmdb:194"), ("back", "/members/Ann?sort=title")],
                cookie: cookie, origin: "http://localhost")
            #expect(removed.status == .seeOther && removed.headers[.location] == "/members/Ann?sort=title")
            // Elsewhere is no way back.
            let away = try await client.post(
                "/members/Ann/remove", form: [("csrf", csrf), ("movie", "tmdb:14160"), ("back", "//evil.example")],
                cookie: cookie, origin: "http://localhost")
            #expect(away.headers[.location] == "/")
        }
    }

    @Test func aRatingAndAMarkAnswerBesideTheirCardInTheSameSort() async throws {
        let family = try Self.family()
        try await family.test { client in
            let cookie = try await client.signIn()
            let answer = try await client.get("/members/Ann?sort=title", headers: [.cookie: cookie])
            let (list, csrf) = (answer.text, try #require(answer.csrf))
            // By title, Amélie is the first card and Up the second.
            #expect(list.contains("<input type=\"hidden\" name=\"card\" value=\"m1\">"))
            let rated = try await client.post(
                "/members/Ann/rating",
                form: [
                    ("csrf", csrf), ("movie", "tmdb:14160"), ("rating", "8"), ("back", "/members/Ann?sort=title"),
                    ("card", "m1"),
                ], cookie: cookie, origin: "http://localhost")
            #expect(rated.status == .seeOther && rated.headers[.location] == "/members/Ann?sort=title")
            let page = try await client.get("/members/Ann?sort=title", headers: [.cookie: cookie]).text
            let card = try #require(page.range(of: "<h2 id=\"m1\">"))
            let notice = try #require(page.range(of: "<section class=\"notice\""))
            #expect(notice.lowerBound > card.lowerBound, "the notice is under Up's heading")
            #expect(page[card.lowerBound...].prefix(400).contains(">Up</bdi>"))
            // A card that is gone: the notice opens the page, as before.
            _ = try await client.post(
                "/members/Ann/watched",
                form: [("csrf", csrf), ("movie", "tmdb:14160"), ("back", "/members/Ann"), ("card", "m99")],
                cookie: cookie, origin: "http://localhost")
            let top = try await client.get("/members/Ann", headers: [.cookie: cookie]).text
            let first = try #require(top.range(of: "<section class=\"notice\""))
            #expect(first.lowerBound < (top.range(of: "<h2 id=\"m0\">")?.lowerBound ?? top.endIndex))
        }
    }
}
