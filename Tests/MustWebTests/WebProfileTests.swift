import Foundation
import HTTPTypes
import HummingbirdTesting
import MustCore
import Testing

@testable import MustWeb

/// "Who's watching?" in-process over a real database: what a signed-out browser meets once a PIN or a kid is set
/// (and what it meets when neither is), choosing a profile with and without its PIN, the PIN's lockout on the test
/// clock, sessions ended by a PIN or kind change, a grown-up's own controls, and the family password's rights.
@Suite struct WebProfileTests {
    static let everyone = ["Ann", "Bob", "Leo"]

    @Test(arguments: ["kid", "pin"])
    func signedOutEveryPageAsksWhosWatchingFirst(_ setting: String) async throws {
        let family = try ProfileFamily.make()
        if setting == "kid" {
            _ = try family.store.setKid(member: "Leo", true)
        } else {
            _ = try family.store.setPin(member: "Ann", hash: ProfilePin.hash("2468"))
        }
        try await family.test { client in
            for path in ["/", "/profiles"] {
                let page = try await client.get(path)
                #expect(page.status == .ok && page.isChooser(offering: Self.everyone), "\(path): \(page.text)")
                #expect(page.text.contains("href=\"/signin\""), "the family password's way in")
                for title in ["Up", "Paddington", "Alien", "Mystery Reel", "Not On TMDB"] {
                    #expect(!page.text.contains(">\(title)<") && !page.text.contains(title + " ("), "\(path): \(title)")
                }
                #expect(!page.text.contains("/members/"), "\(path) links a list")
            }
            for path in ["/members/Ann", "/night?member=Ann", "/changes", "/movies/14160", "/status", "/settings"] {
                let answer = try await client.get(path)
                #expect(answer.status == .seeOther && answer.headers[.location] == "/profiles", "\(path)")
                #expect(!answer.text.contains("Alien") && !answer.text.contains("Paddington"))
            }
            let api = try await client.get("/api/ratings")
            #expect(api.status == .forbidden && !api.text.contains("Paddington"), "\(api.text)")
            #expect(api.headers[.contentType]?.hasPrefix("application/json") == true)
            #expect(try await client.get("/posters/w185/paddington.png").status == .forbidden)
            // A form without a session changes nothing.
            let post = try await client.post("/members/Ann/movies", form: [("movie", "Dune (2021)")])
            #expect(post.status == .forbidden)
            #expect(try family.store.ratings(member: "Ann").members.first?.movies.count == 4)
            // The password's sign-in is still open.
            let signIn = try await client.get("/signin")
            #expect(signIn.status == .ok && signIn.text.contains("name=\"password\""))
        }
    }

    /// A family with neither a PIN nor a kid keeps today's page exactly: the signed-out family page is the same
    /// bytes before a kid is set and after he is a grown-up again, and mentions no profile.
    @Test func aFamilyWithoutPinsOrKidsKeepsTodaysPage() async throws {
        let family = try ProfileFamily.make()
        try await family.test { client in
            let today = try await client.get("/")
            #expect(today.status == .ok && today.text.contains("Paddington") && today.text.contains("Alien"))
            #expect(!today.text.contains("Who's watching") && !today.text.contains("/profiles"), "\(today.text)")
            #expect(!today.text.contains("Watching as"))
            #expect(try await client.get("/api/ratings").text.contains("Alien"))
            #expect(try await client.get("/posters/w185/alien.png").status == .ok)
            #expect(try await client.get("/members/Ann").status == .ok)

            _ = try family.store.setKid(member: "Leo", true)
            #expect(try await client.get("/").isChooser(offering: Self.everyone))
            _ = try family.store.setKid(member: "Leo", false)
            let again = try await client.get("/")
            #expect(again.status == .ok && again.text == today.text)

            // "Who's watching?" itself chooses nothing without the family password: a profile would be a way past
            // it.
            let chooser = try await client.get("/profiles")
            #expect(chooser.status == .ok && !chooser.text.contains("action=\"/profiles/"))
            // The form's token as the chooser's cookie makes it: the post is refused for what it asks, not its form.
            let cookie = String(try #require(chooser.headers[.setCookie]).prefix { $0 != ";" })
            let csrf = try #require(SessionToken(cookie: String(cookie.drop { $0 != "=" }.dropFirst()))?.csrfToken)
            let chosen = try await client.post("/profiles/Ann", form: [("csrf", csrf)], cookie: cookie)
            #expect(chosen.status == .forbidden && WebFamily.sessionCookie(chosen) == nil)
            #expect(chosen.text.contains("Sign in with the family password first."), "\(chosen.text)")
        }
    }

    @Test func aWrongPinAdmitsNobodyTheRightOneAdmitsAndFiveWrongLockForFifteenMinutes() async throws {
        let family = try ProfileFamily.withKid()
        _ = try family.store.setPin(member: "Ann", hash: ProfilePin.hash("2468"))
        // The PIN is kept only as its hash.
        let file = try Data(contentsOf: URL(fileURLWithPath: family.store.path))
        #expect(file.range(of: Data("2468".utf8)) == nil)
        try await family.test { client in
            // The chooser links Ann to her PIN's page; the PIN page asks for it.
            let chooser = try await client.get("/profiles")
            #expect(chooser.text.contains("href=\"/profiles/Ann\""))
            let pinPage = try await client.get("/profiles/Ann")
            #expect(pinPage.status == .ok && pinPage.text.contains("name=\"pin\""))

            for pin in ["", "1357", "24680", "abcd"] {
                let (answer, cookie) = try await client.choose("Ann", pin: pin)
                #expect(answer.status == .forbidden && cookie == nil, "\(pin): \(answer.status)")
                #expect(answer.text.contains("That PIN was wrong."))
            }
            let (right, cookie) = try await client.choose("Ann", pin: "2468")
            #expect(right.status == .seeOther && right.headers[.location] == "/")
            let session = try #require(cookie)
            let page = try await client.get("/members/Ann", headers: [.cookie: session])
            #expect(page.text.contains("Watching as <bdi>Ann</bdi>") && page.csrf != nil, "\(page.text)")

            // Five wrong within 15 minutes: the right PIN is refused, with the wait, until 15 minutes later.
            for attempt in 1...5 {
                let (wrong, _) = try await client.choose("Ann", pin: "000\(attempt)")
                #expect(wrong.status == .forbidden, "attempt \(attempt)")
                await family.clock.advance(by: .seconds(60))
            }
            let locked = try await client.choose("Ann", pin: "2468")
            #expect(locked.answer.status == .tooManyRequests && locked.cookie == nil)
            #expect(locked.answer.headers[.retryAfter] == "840", "locked at the fifth, 60 s ago")
            #expect(locked.answer.text.contains("Try again in 14 minutes"), "\(locked.answer.text)")
            // Counted per profile: Leo is chosen meanwhile.
            #expect(try await client.choose("Leo").cookie != nil)
            await family.clock.advance(by: .seconds(839))
            #expect(try await client.choose("Ann", pin: "2468").answer.status == .tooManyRequests)
            await family.clock.advance(by: .seconds(1))
            let open = try await client.choose("Ann", pin: "2468")
            #expect(open.answer.status == .seeOther && open.cookie != nil)
            // The family password needs no PIN, even for a locked profile.
        }
    }

    @Test func aPinOrKindChangeEndsThatMembersSessionsOnly() async throws {
        let family = try ProfileFamily.withKid()
        try await family.test { client in
            let ann = try #require(try await client.choose("Ann").cookie)
            let leo = try #require(try await client.choose("Leo").cookie)
            let parent = try await client.signIn()
            for cookie in [ann, leo, parent] {
                #expect(try await client.get("/members/Ann", headers: [.cookie: cookie]).csrf != nil)
            }
            let hash = { (cookie: String) in
                SessionToken(cookie: String(cookie.dropFirst(WebEdits.cookieName.count + 1)))?.hash ?? ""
            }
            #expect(try family.store.setPin(member: "ann", hash: ProfilePin.hash("1111"))?.ended == 1)
            #expect(try family.store.session(tokenHash: hash(ann)) == nil)
            let signedOut = try await client.get("/members/Ann", headers: [.cookie: ann])
            #expect(signedOut.status == .seeOther && signedOut.headers[.location] == "/profiles")
            #expect(try await client.get("/", headers: [.cookie: leo]).text.contains("Watching as <bdi>Leo</bdi>"))

            #expect(try family.store.setKid(member: "Leo", false)?.ended == 1)
            #expect(try await client.get("/", headers: [.cookie: leo]).isChooser(offering: Self.everyone))
            // The password's session stays.
            #expect(try await client.get("/members/Ann", headers: [.cookie: parent]).csrf != nil)

            // Switch ends a session, and opens "Who's watching?".
            let bob = try #require(try await client.choose("Bob").cookie)
            let csrf = try #require(try await client.get("/", headers: [.cookie: bob]).csrf)
            let switched = try await client.post("/switch", form: [("csrf", csrf)], cookie: bob)
            #expect(switched.status == .seeOther && switched.headers[.location] == "/profiles")
            #expect(try family.store.session(tokenHash: hash(bob)) == nil)
        }
    }

    /// A grown-up's page: "How was it?" asks only them, and only their own list has controls.
    @Test func aGrownUpIsAskedAndEditsOnlyForThemselves() async throws {
        let family = try ProfileFamily.withKid()
        let today = WatchDay.of(family.now, in: TimeZone(identifier: "UTC")!)
        _ = try family.store.recordNight(movie: .tmdb(14160), members: ["Ann", "Leo"], on: today, now: family.now)
        try await family.test { client in
            let parent = try await client.signIn()
            let all = try await client.get("/", headers: [.cookie: parent])
            #expect(all.text.contains("action=\"/members/Ann/rating\""), "\(all.text)")
            #expect(all.text.contains("action=\"/members/Leo/rating\""))

            let ann = try #require(try await client.choose("Ann").cookie)
            let home = try await client.get("/", headers: [.cookie: ann])
            #expect(home.text.contains("How was Up?"), "\(home.text)")
            #expect(home.text.contains("action=\"/members/Ann/rating\""))
            #expect(!home.text.contains("action=\"/members/Leo/rating\""))
            #expect(!home.text.contains("href=\"/settings\""), "settings are the password's")
            let own = try await client.get("/members/Ann", headers: [.cookie: ann])
            #expect(own.text.contains("Add a movie") && own.text.contains("action=\"/members/Ann/"))
            let other = try await client.get("/members/Leo", headers: [.cookie: ann])
            #expect(other.status == .ok && !other.text.contains("Add a movie"))
            #expect(!other.text.contains("action=\"/members/Leo/"), "\(other.text)")
            // The night's buttons are a grown-up's; the settings are not.
            let night = try await client.get("/night?member=Ann&member=Leo", headers: [.cookie: ann])
            #expect(night.text.contains("action=\"/night/watching\""), "\(night.text)")
            #expect(try await client.get("/settings", headers: [.cookie: ann]).status == .forbidden)
            let csrf = try #require(own.csrf)
            let rated = try await client.post(
                "/members/Leo/rating", form: [("csrf", csrf), ("movie", "tmdb:14160"), ("rating", "5")], cookie: ann)
            #expect(rated.status == .forbidden)
        }
    }

    /// The family password keeps every right: every list, the settings, an age limit saved.
    @Test func theFamilyPasswordStillReadsEverythingAndOpensTheSettings() async throws {
        let family = try ProfileFamily.withKid()
        try await family.test { client in
            let parent = try await client.signIn()
            let home = try await client.get("/", headers: [.cookie: parent])
            #expect(home.status == .ok && home.text.contains("href=\"/settings\""))
            let json = try await client.get("/api/ratings", headers: [.cookie: parent]).text
            for title in ["Up", "Paddington", "Alien", "Mystery Reel", "Not On TMDB"] {
                #expect(json.contains("\"\(title)\""), "\(title)")
            }
            let settings = try await client.get("/settings", headers: [.cookie: parent])
            #expect(settings.status == .ok && settings.text.contains("<select"))
            let csrf = try #require(settings.csrf)
            let saved = try await client.post(
                "/settings/age-limit", form: [("csrf", csrf), ("member", "Leo"), ("limit", "G")], cookie: parent)
            #expect(saved.status == .seeOther)
            #expect(try family.store.ageLimits().first { $0.name == "Leo" }?.limit == "G")
            let added = try await client.post(
                "/members/Bob/movies", form: [("csrf", csrf), ("movie", "Dune (2021)")], cookie: parent)
            #expect(added.status == .seeOther)
            #expect(try await client.get("/status", headers: [.cookie: parent]).status == .ok)
            // The password may watch as a kid too, and keeps its rights (Leo's PIN is not asked).
            let chooser = try await client.get("/profiles", headers: [.cookie: parent])
            let chosen = try await client.post(
                "/profiles/Leo", form: [("csrf", try #require(chooser.csrf))], cookie: parent)
            let both = try #require(WebFamily.sessionCookie(chosen))
            let page = try await client.get("/members/Ann", headers: [.cookie: both])
            #expect(page.text.contains("Watching as <bdi>Leo</bdi>, with the family password"), "\(page.text)")
            #expect(page.text.contains("Alien") && page.text.contains("Add a movie"))
        }
    }

    @Test func thePasswordMakesAKidOnTheSettingsPageAndThatSignsTheKidOut() async throws {
        let family = try ProfileFamily.withKid()
        try await family.test { client in
            let parent = try await client.signIn()
            let settings = try await client.get("/settings", headers: [.cookie: parent])
            #expect(settings.text.contains("has a kid's profile"))
            // The boxes as the page lists them: members in order, Leo's ticked.
            let names = try family.store.ageLimits().map(\.name)
            let kids = try family.store.profiles().filter(\.kid).map(\.name)
            #expect(kids == ["Leo"])
            let leo = try #require(names.firstIndex(of: "Leo"))
            let bob = try #require(names.firstIndex(of: "Bob"))
            #expect(settings.text.contains("name=\"kid-\(leo)\" value=\"1\" checked"))
            var form: [(String, String)] = [("csrf", try #require(settings.csrf)), ("kinds", "1")]
            for (index, name) in names.enumerated() {
                form += [("member-\(index)", name), ("limit-\(index)", name == "Leo" ? "PG" : "none")]
            }
            form.append(("kid-\(bob)", "1"))
            let saved = try await client.post("/settings/age-limits", form: form, cookie: parent)
            #expect(saved.status == .seeOther)
            // Bob becomes a kid and Leo (box not ticked) a grown-up; the limits stay as they were sent.
            #expect(try family.store.profiles().filter(\.kid).map(\.name) == ["Bob"])
            #expect(try family.store.ageLimits().first { $0.name == "Leo" }?.limit == "PG")

            // A grown-up may not do it: 403, nothing written.
            let annCookie = try #require(try await client.choose("Ann").cookie)
            let annForm = try #require(try await client.get("/members/Ann", headers: [.cookie: annCookie]).csrf)
            let refused = try await client.post(
                "/settings/age-limits", form: form.map { $0.0 == "csrf" ? ($0.0, annForm) : $0 }, cookie: annCookie)
            #expect(refused.status == .forbidden)
            #expect(try family.store.profiles().filter(\.kid).map(\.name) == ["Bob"])
        }
    }
}

extension WebFamily {
    static func sessionCookie(_ answer: TestResponse) -> String? {
        guard let set = answer.headers[.setCookie], set.hasPrefix(WebEdits.cookieName + "="),
            !set.hasPrefix(WebEdits.cookieName + "=;")
        else { return nil }
        return String(set.prefix { $0 != ";" })
    }
}
