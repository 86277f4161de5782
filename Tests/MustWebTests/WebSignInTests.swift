import Foundation
import HTTPTypes
import HummingbirdTesting
import MustCore
import TMDBStub
import Testing

@testable import MustWeb

/// Sign-in, sign-out, the CSRF check, session expiry and the sign-in limiter, in-process over a real database;
/// sessions and the limiter take their time from the test clock, turned instead of waited for.
@Suite struct WebSignInTests {
    @Test func withoutAPasswordThePageIsReadOnlyAndSaysWhy() async throws {
        let family = try WebFamily.classic()
        try await family.test { client in
            let page = try await client.get("/signin")
            #expect(page.status == .ok)
            #expect(page.text.contains("no password is set"), "\(page.text)")
            #expect(!page.text.contains("name=\"password\""))
            let post = try await client.post("/members/Ann/movies", form: [("movie", "Dune")])
            #expect(post.status == .forbidden && post.text.contains("Edits from this page are off"))
            #expect(try family.store.ratings(member: "Ann").members.first?.movies.count == 2)
        }
    }

    @Test func signInAddAndSignOut() async throws {
        let family = try WebFamily.classic()
        try family.setPassword()
        try await family.test { client in
            let form = try await client.get("/signin")
            #expect(form.status == .ok && form.text.contains("name=\"password\""))
            let signedOut = try await client.get("/members/Ann")
            #expect(signedOut.csrf == nil && !signedOut.text.contains("Add a movie"))

            let wrong = try await client.post("/signin", form: [("password", "popcorn on monday")])
            #expect(wrong.status == .forbidden && wrong.text.contains("That password was wrong."))
            #expect(wrong.headers[.setCookie] == nil)

            let right = try await client.post("/signin", form: [("password", WebFamily.password)])
            #expect(right.status == .seeOther && right.headers[.location] == "/")
            let setCookie = try #require(right.headers[.setCookie])
            #expect(setCookie.hasPrefix("mustc_session=") && setCookie.contains("HttpOnly"))
            #expect(setCookie.contains("SameSite=Strict") && setCookie.contains("Max-Age=2592000"))
            #expect(!setCookie.contains("Secure"), "not over HTTPS")
            let cookie = String(setCookie.prefix { $0 != ";" })

            let page = try await client.get("/members/Ann", headers: [.cookie: cookie])
            let csrf = try #require(page.csrf)
            #expect(page.text.contains("Add a movie"))
            let added = try await client.post(
                "/members/Ann/movies", form: [("csrf", csrf), ("movie", "Dune (2021)")], cookie: cookie,
                origin: "http://localhost")
            #expect(added.status == .seeOther && added.headers[.location] == "/members/Ann")
            let titles = try family.store.ratings(member: "Ann").members.first?.movies.map(\.title) ?? []
            #expect(titles.contains("Dune"), "\(titles)")
            // The edit's notice, once, on the page it went to.
            let notice = try await client.get("/members/Ann", headers: [.cookie: cookie])
            #expect(notice.text.contains("Ann now has"), "\(notice.text)")
            #expect(!(try await client.get("/members/Ann", headers: [.cookie: cookie]).text.contains("Ann now has")))

            let out = try await client.post("/signout", form: [("csrf", csrf)], cookie: cookie)
            #expect(out.status == .seeOther)
            #expect(out.headers[.setCookie]?.hasPrefix("mustc_session=; Path=/; Max-Age=0") == true)
            let after = try await client.get("/members/Ann", headers: [.cookie: cookie])
            #expect(after.csrf == nil && !after.text.contains("Add a movie"))
        }
    }

    @Test func aTypoOfAKeptTitleAsksWhichWasMeantAndKeepsNothingUntilAnswered() async throws {
        let family = try WebFamily.classic()
        try family.setPassword()
        try await family.test { client in
            let cookie = try await client.signIn()
            let csrf = try #require(try await client.get("/members/Ann", headers: [.cookie: cookie]).csrf)
            let movies = { try sqlite(family.store.path, "SELECT count(*) FROM movie") }
            let before = try movies()
            let asked = try await client.post(
                "/members/Ann/movies", form: [("csrf", csrf), ("movie", "spirted away")], cookie: cookie,
                origin: "http://localhost")
            #expect(asked.status == .seeOther)
            let page = try await client.get("/members/Ann", headers: [.cookie: cookie])
            #expect(page.text.contains("Did you mean Spirited Away (2001)? Nothing was added yet."), "\(page.text)")
            #expect(page.text.contains("<input type=\"hidden\" name=\"movie\" value=\"tmdb:129\">"))
            #expect(page.text.contains("Add “spirted away” as typed"))
            #expect(try movies() == before)
            // Answered "as typed": kept as typed, and asked no more.
            let typed = try await client.post(
                "/members/Ann/movies", form: [("csrf", csrf), ("movie", "spirted away"), ("typed", "1")],
                cookie: cookie, origin: "http://localhost")
            #expect(typed.status == .seeOther)
            #expect(try movies() != before)
            // A title far from every kept one is not asked about.
            _ = try await client.post(
                "/members/Ann/movies", form: [("csrf", csrf), ("movie", "Paddington")], cookie: cookie,
                origin: "http://localhost")
            #expect(!(try await client.get("/members/Ann", headers: [.cookie: cookie]).text.contains("Did you mean")))
        }
    }

    @Test func aFormWithoutTheTokenOrFromAnotherSiteIsRefusedAndChangesNothing() async throws {
        let family = try WebFamily.classic()
        try family.setPassword()
        try await family.test { client in
            let cookie = try await client.signIn()
            let csrf = try #require(try await client.get("/members/Ann", headers: [.cookie: cookie]).csrf)
            for (form, origin) in [
                ([("movie", "Dune")], nil), ([("csrf", "not-the-token"), ("movie", "Dune")], nil),
                ([("csrf", csrf), ("movie", "Dune")], "http://evil.example"),
            ] as [([(String, String)], String?)] {
                let answer = try await client.post("/members/Ann/movies", form: form, cookie: cookie, origin: origin)
                #expect(answer.status == .forbidden, "\(form) from \(origin ?? "no origin")")
                #expect(answer.text.contains("Refused"))
            }
            // Without a session, the token alone is nothing.
            let stranger = try await client.post("/members/Ann/movies", form: [("csrf", csrf), ("movie", "Dune")])
            #expect(stranger.status == .forbidden && stranger.text.contains("sign in first"))
            // Sign-in itself refuses another site's form.
            let elsewhere = try await client.post(
                "/signin", form: [("password", WebFamily.password)], origin: "http://evil.example")
            #expect(elsewhere.status == .forbidden && elsewhere.headers[.setCookie] == nil)
            #expect(try family.store.ratings(member: "Ann").members.first?.movies.count == 2)
        }
    }

    /// A session lives 30 days from its last use, and a use moves that at most hourly: a browser used every 29 days
    /// stays signed in; one left for 30 days is signed out and its session ended.
    @Test func aSessionExpiresThirtyDaysAfterItsLastUse() async throws {
        let family = try WebFamily.classic()
        try family.setPassword()
        try await family.test { client in
            let cookie = try await client.signIn()
            let token = try #require(SessionToken(cookie: String(cookie.dropFirst("mustc_session=".count))))
            for _ in 0..<2 {
                await family.clock.advance(by: .seconds(29 * 86400))
                #expect(try await client.get("/members/Ann", headers: [.cookie: cookie]).csrf != nil)
            }
            let session = try #require(try family.store.session(tokenHash: token.hash))
            #expect(session.createdAt == WebFamily.start)
            #expect(session.lastUsedAt == WebFamily.start.addingTimeInterval(58 * 86400))

            await family.clock.advance(by: .seconds(30 * 86400 - 1))
            #expect(try await client.get("/members/Ann", headers: [.cookie: cookie]).csrf != nil)
            // Used a second before the end: touched again, so the 30 days start over from here.
            await family.clock.advance(by: .seconds(30 * 86400))
            let expired = try await client.get("/members/Ann", headers: [.cookie: cookie])
            #expect(expired.status == .ok && expired.csrf == nil)
            #expect(try family.store.session(tokenHash: token.hash) == nil)
        }
    }

    /// Five wrong passwords in a minute from one address; the sixth is refused (429) without being checked, until
    /// the first failure is a minute old.
    @Test func theSixthWrongPasswordInAMinuteIs429UntilTheMinuteHasPassed() async throws {
        let family = try WebFamily.classic()
        try family.setPassword()
        try await family.test { client in
            for attempt in 1...5 {
                let answer = try await client.post("/signin", form: [("password", "wrong password \(attempt)")])
                #expect(answer.status == .forbidden, "attempt \(attempt)")
                await family.clock.advance(by: .seconds(10))
            }
            // 50 s after the first failure: refused, even with the right password, for the 10 s left.
            let refused = try await client.post("/signin", form: [("password", WebFamily.password)])
            #expect(refused.status == .tooManyRequests)
            #expect(refused.headers[.retryAfter] == "10")
            #expect(refused.headers[.setCookie] == nil)
            await family.clock.advance(by: .seconds(10))
            let right = try await client.post("/signin", form: [("password", WebFamily.password)])
            #expect(right.status == .seeOther && right.headers[.setCookie] != nil)
        }
    }
}
