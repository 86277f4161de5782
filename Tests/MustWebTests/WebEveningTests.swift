import Foundation
import HTTPTypes
import HummingbirdTesting
import MustCore
import TMDBStub
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

    /// Each member's link to Up: watched, day, source, own rating.
    static func upMarks(_ family: WebFamily) throws -> String {
        try sqlite(
            family.store.path,
            """
            SELECT member.name, watched, coalesce(watchedOn, '-'), coalesce(watchedSource, '-'), coalesce(ownRating, '-')
            FROM memberMovie JOIN member ON member.id = memberId JOIN movie ON movie.id = movieId
            WHERE movie.remoteId = 14160 ORDER BY member.name
            """)
    }

    @Test func theFamilyPageTakesBackTodaysNightAndRestoresAKeptMoviesOwnMarks() async throws {
        let family = try Self.family()
        // Ann watched Up on 1 October, as her media server told; Leo keeps it, unwatched.
        _ = try sqlite(
            family.store.path,
            """
            UPDATE memberMovie SET watched = 1, watchedOn = '2026-10-01', watchedSource = 'jellyfin'
            WHERE memberId = (SELECT id FROM member WHERE name = 'Ann')
                AND movieId = (SELECT id FROM movie WHERE remoteId = 14160)
            """)
        let before = try Self.upMarks(family)
        #expect(before.contains("Ann|1|2026-10-01|jellyfin|-") && before.contains("Leo|0|-|-|-"), "\(before)")
        try await family.test { client in
            let cookie = try await client.signIn()
            let csrf = try #require(try await client.get("/night?member=Ann", headers: [.cookie: cookie]).csrf)
            _ = try await client.post(
                "/night/watching",
                form: [("csrf", csrf), ("movie", "tmdb:14160"), ("w0", "Ann"), ("w1", "Leo"), ("back", "/night")],
                cookie: cookie, origin: "http://localhost")
            #expect(try Self.upMarks(family) != before)
            let night = try #require(try family.store.nights().first)
            let home = try await client.get("/", headers: [.cookie: cookie]).text
            #expect(home.contains("<h3 id=\"n\(night.id)\"><bdi>Today: Up, with Ann and Leo</bdi></h3>"), "\(home)")
            #expect(home.contains("<form class=\"undo-night\" method=\"post\" action=\"/nights/\(night.id)/undo\">"))
            #expect(home.contains("aria-describedby=\"n\(night.id)\">Undo</button>"))
            let signedOut = try await client.get("/").text
            #expect(signedOut.contains("Today: Up, with Ann and Leo") && !signedOut.contains("undo-night"))
            let undone = try await client.post(
                "/nights/\(night.id)/undo", form: [("csrf", csrf), ("back", "/")], cookie: cookie,
                origin: "http://localhost")
            #expect(undone.status == .seeOther && undone.headers[.location] == "/")
            let after = try await client.get("/", headers: [.cookie: cookie]).text
            #expect(after.contains("Took back the movie night of “Up (2009)” with Ann and Leo"), "\(after)")
            #expect(!after.contains("Today: Up"))
        }
        // As `mustc night --undo` leaves them: Ann's own day and source, Leo unwatched.
        #expect(try Self.upMarks(family) == before)
        #expect(try family.store.nights().isEmpty)
    }

    @Test func aNightOfAnEarlierDayHasNoUndoAndThePageCannotTakeItBack() async throws {
        let family = try Self.family()
        let day = try #require(WatchDay.parse("2026-11-24"))
        guard
            case .recorded(let night) = try family.store.recordNight(
                movie: .tmdb(14160), members: ["Ann"], on: day, now: family.now)
        else { throw NightNotRecorded() }
        // The next day, in the pages' zone (UTC here).
        await family.clock.advance(by: .seconds(86_400))
        try await family.test { client in
            let cookie = try await client.signIn()
            let home = try await client.get("/", headers: [.cookie: cookie])
            #expect(home.text.contains("Yesterday: Up, with Ann") && !home.text.contains("undo-night"), "\(home.text)")
            let csrf = try #require(home.csrf)
            let refused = try await client.post(
                "/nights/\(night.id)/undo", form: [("csrf", csrf), ("back", "/")], cookie: cookie,
                origin: "http://localhost")
            #expect(refused.status == .seeOther)
            let after = try await client.get("/", headers: [.cookie: cookie]).text
            #expect(after.contains("a night can be taken back only on its day. Nothing was changed."), "\(after)")
        }
        #expect(try family.store.nights().map(\.id) == [night.id])
    }

    @Test func aRatingFromHowWasItAnswersBesideItsNight() async throws {
        let family = try Self.family()
        let day = try #require(WatchDay.parse("2026-11-24"))
        guard
            case .recorded(let night) = try family.store.recordNight(
                movie: .tmdb(14160), members: ["Ann", "Leo"], on: day, now: family.now)
        else { throw NightNotRecorded() }
        try await family.test { client in
            let cookie = try await client.signIn()
            let home = try await client.get("/", headers: [.cookie: cookie])
            let csrf = try #require(home.csrf)
            #expect(home.text.contains("<input type=\"hidden\" name=\"card\" value=\"n\(night.id)\">"))
            let rated = try await client.post(
                "/members/Ann/rating",
                form: [
                    ("csrf", csrf), ("movie", "tmdb:14160"), ("rating", "8"), ("back", "/"), ("card", "n\(night.id)"),
                ], cookie: cookie, origin: "http://localhost")
            #expect(rated.status == .seeOther && rated.headers[.location] == "/")
            let page = try await client.get("/", headers: [.cookie: cookie]).text
            let heading = try #require(page.range(of: "<h3 id=\"n\(night.id)\">"))
            let notice = try #require(page.range(of: "<section class=\"notice\""))
            #expect(notice.lowerBound > heading.lowerBound, "the notice is under the night's heading")
            let under = page[heading.upperBound...].prefix(600)
            #expect(under.contains("Ann rated “Up (2009)” 8/10."), "\(under)")
            // Leo is still asked; Ann's rating is shown.
            #expect(page.contains("Ann 8/10") && page.contains("How was Up?"))
        }
    }

    struct NightNotRecorded: Error {}

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
