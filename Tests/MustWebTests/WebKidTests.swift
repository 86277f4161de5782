import Foundation
import HTTPTypes
import HummingbirdTesting
import MustCore
import Testing

@testable import MustWeb

/// A kid's profile in-process over a real database: Leo (limit PG, US certifications kept) sees on no page, JSON
/// answer or poster a movie above his limit or one with no certification, whoever keeps it; and changes only his own
/// list. The family password, on the same server, still reads everything: what the kid misses is there to miss.
@Suite struct WebKidTests {
    static func post(_ client: any TestClientProtocol, _ path: String, _ form: [(String, String)], _ cookie: String)
        async throws -> TestResponse
    {
        try await client.post(path, form: form, cookie: cookie, origin: "http://localhost")
    }

    @Test func aKidSeesNoTitleAboveHisLimitNorAnUncertifiedOneOnAnyPage() async throws {
        let family = try ProfileFamily.withKid()
        let unknown = try #require(try family.store.ratings(member: "Bob").members.first?.movies.first?.localId)
        try await family.test { client in
            let pages = [
                "/", "/members/Ann", "/members/Bob", "/members/Ann?q=Ali", "/night?member=Ann&member=Bob",
                "/night?member=Ann&unrated=include", "/night?member=Ann&age=NC-17", "/changes", "/changes?since=30d",
                "/api/ratings",
                "/api/ratings?member=Ann", "/api/changes",
            ]
            // The family password: every title is there to be left out.
            let parent = try await client.signIn()
            var seen = ""
            for path in pages {
                let answer = try await client.get(path, headers: [.cookie: parent])
                #expect(answer.status == .ok, "\(path): \(answer.status)")
                seen += answer.text
            }
            for title in ProfileFamily.hidden { #expect(seen.contains(title), "the password sees \(title)") }
            #expect(try await client.get("/changes", headers: [.cookie: parent]).text.contains("Alien"))
            #expect(try await client.get("/movies/\(ProfileFamily.alien)", headers: [.cookie: parent]).status == .ok)
            #expect(try await client.get("/posters/w185/alien.png", headers: [.cookie: parent]).status == .ok)

            let (chosen, kid) = try await client.choose("Leo")
            #expect(chosen.status == .seeOther && chosen.headers[.location] == "/")
            let cookie = try #require(kid, "choosing Leo starts a session")
            for path in pages {
                let answer = try await client.get(path, headers: [.cookie: cookie])
                #expect(answer.status == .ok, "\(path): \(answer.status)")
                for title in ProfileFamily.hidden {
                    #expect(!answer.text.contains(title), "\(path) shows \(title) to Leo:\n\(answer.text)")
                }
            }
            // What is within his limit shows: Paddington (PG) on Ann's list, its page and its poster.
            let ann = try await client.get("/members/Ann", headers: [.cookie: cookie])
            #expect(ann.text.contains("Paddington") && ann.text.contains("Watching as <bdi>Leo</bdi>"), "\(ann.text)")
            #expect(try await client.get("/api/ratings", headers: [.cookie: cookie]).text.contains("Paddington"))
            #expect(
                try await client.get("/movies/\(ProfileFamily.paddington)", headers: [.cookie: cookie]).status == .ok)
            #expect(try await client.get("/posters/w185/paddington.png", headers: [.cookie: cookie]).status == .ok)
            // Above it, or uncertified: no movie page, no poster.
            for path in [
                "/movies/\(ProfileFamily.alien)", "/movies/\(ProfileFamily.mystery)", "/movies/local/\(unknown)",
            ] {
                let answer = try await client.get(path, headers: [.cookie: cookie])
                #expect(answer.status == .notFound || answer.status == .forbidden, "\(path): \(answer.status)")
                #expect(!answer.text.contains("Alien") && !answer.text.contains("Mystery Reel"))
            }
            let poster = try await client.get("/posters/w185/alien.png", headers: [.cookie: cookie])
            #expect(poster.status == .notFound || poster.status == .forbidden, "\(poster.status)")
            // The fetch's status names every movie: for grown-ups.
            #expect(try await client.get("/status", headers: [.cookie: cookie]).status == .forbidden)
            #expect(try await client.get("/api/status", headers: [.cookie: cookie]).status == .forbidden)
            // The password's session, beside his, still sees it all.
            #expect(try await client.get("/members/Ann", headers: [.cookie: parent]).text.contains("Alien"))
        }
    }

    @Test func aKidChangesOnlyHisOwnList() async throws {
        let family = try ProfileFamily.withKid()
        try await family.test { client in
            let cookie = try #require(try await client.choose("Leo").cookie)
            let own = try await client.get("/members/Leo", headers: [.cookie: cookie])
            let csrf = try #require(own.csrf)
            #expect(own.text.contains("Add a movie"), "\(own.text)")
            // Another member's list shows no control and takes no change.
            let other = try await client.get("/members/Ann", headers: [.cookie: cookie])
            #expect(!other.text.contains("Add a movie") && !other.text.contains("action=\"/members/Ann/"))
            let annBefore = try family.store.ratings(member: "Ann").members.first?.movies.count
            for (path, form) in [
                ("/members/Ann/movies", [("movie", "Dune (2021)")]),
                ("/members/Ann/watched", [("movie", "tmdb:\(ProfileFamily.paddington)")]),
                ("/members/Ann/rating", [("movie", "tmdb:\(ProfileFamily.paddington)"), ("rating", "5")]),
                ("/members/Ann/remove", [("movie", "tmdb:\(ProfileFamily.paddington)")]),
                ("/members", [("member", "Ann"), ("movie", "Dune (2021)")]),
            ] {
                let answer = try await Self.post(client, path, [("csrf", csrf)] + form, cookie)
                #expect(answer.status == .forbidden, "\(path): \(answer.status)")
                #expect(answer.text.contains("Not yours to change"), "\(path)")
            }
            #expect(try family.store.ratings(member: "Ann").members.first?.movies.count == annBefore)
            // The removal's confirmation names the movie: not for another member's list, least of all one he may
            // not see.
            let confirm = try await client.get(
                "/members/Ann/remove?movie=tmdb:\(ProfileFamily.alien)", headers: [.cookie: cookie])
            #expect(confirm.status == .forbidden && !confirm.text.contains("Alien"), "\(confirm.text)")
            let mine = try await client.get("/members/Leo/remove?movie=tmdb:14160", headers: [.cookie: cookie])
            #expect(mine.status == .ok && mine.text.contains("Up"), "\(mine.text)")
            #expect(
                try family.store.ratings(member: "Ann").members.first?.movies.allSatisfy { !$0.mark.watched } == true)
            // Nor the age limits, nor the settings, nor a movie night.
            let limit = try await Self.post(
                client, "/settings/age-limit", [("csrf", csrf), ("member", "Leo"), ("limit", "R")], cookie)
            #expect(limit.status == .forbidden)
            let limits = try await Self.post(
                client, "/settings/age-limits", [("csrf", csrf), ("member-0", "Leo"), ("limit-0", "none")], cookie)
            #expect(limits.status == .forbidden)
            #expect(try family.store.ageLimits().first { $0.name == "Leo" }?.limit == "PG")
            #expect(try await client.get("/settings", headers: [.cookie: cookie]).status == .forbidden)
            let night = try await Self.post(
                client, "/night/watching",
                [("csrf", csrf), ("movie", "tmdb:14160"), ("w0", "Ann"), ("w1", "Leo")], cookie)
            #expect(night.status == .forbidden)
            #expect(try family.store.nights().isEmpty)
            let picks = try await client.get("/night?member=Ann&member=Leo", headers: [.cookie: cookie])
            #expect(picks.status == .ok && !picks.text.contains("action=\"/night/watching\""))

            // His own list takes the add.
            let added = try await Self.post(
                client, "/members/Leo/movies", [("csrf", csrf), ("movie", "Dune (2021)")], cookie)
            #expect(added.status == .seeOther && added.headers[.location] == "/members/Leo")
            let titles = try family.store.ratings(member: "Leo").members.first?.movies.map(\.title) ?? []
            #expect(titles.contains("Dune"), "\(titles)")
            // And his own mark.
            let watched = try await Self.post(
                client, "/members/Leo/watched", [("csrf", csrf), ("movie", "tmdb:14160")], cookie)
            #expect(watched.status == .seeOther)
            let up = try family.store.ratings(member: "Leo").members.first?.movies.first { $0.title == "Up" }
            #expect(up?.mark.watched == true)
        }
    }

    /// The kid's filter follows his limit as the password changes it: no stale copy of his pages or of what he
    /// may see is served.
    @Test func aKidsPagesFollowHisLimitWhenThePasswordChangesIt() async throws {
        let family = try ProfileFamily.withKid()
        try await family.test { client in
            let kid = try #require(try await client.choose("Leo").cookie)
            #expect(!(try await client.get("/members/Ann", headers: [.cookie: kid]).text.contains("Alien")))
            _ = try family.store.setAgeLimit(member: "Leo", to: "R")
            let raised = try await client.get("/members/Ann", headers: [.cookie: kid])
            #expect(raised.text.contains("Alien") && !raised.text.contains("Mystery Reel"), "\(raised.text)")
            // "none": nothing is left out, uncertified included.
            _ = try family.store.setAgeLimit(member: "Leo", to: nil)
            let none = try await client.get("/members/Ann", headers: [.cookie: kid])
            #expect(none.text.contains("Alien") && none.text.contains("Mystery Reel"), "\(none.text)")
        }
    }

    /// /night's "Something new" for a kid: a suggestion above his limit is no card, whoever is ticked.
    @Test func aKidsSomethingNewLeavesOutSuggestionsAboveHisLimit() async throws {
        let suggestions = try WebSuggestionTests()
        await suggestions.gather()
        let family = suggestions.family
        try family.store.keepCertificationOrder(WebSettingsTests.usOrder, region: "US", now: family.now)
        try family.keep("Leo", RemoteMovie(id: 8392, title: "My Neighbor Totoro", voteAverage: 8.3, voteCount: 10))
        _ = try family.store.setAgeLimit(member: "Leo", to: "PG")
        _ = try family.store.setKid(member: "Leo", true)
        try await family.test { client in
            let parent = try await client.signIn()
            let all = try await client.get(WebSuggestionTests.night, headers: [.cookie: parent])
            #expect(WebSuggestionTests.cards(all.text).contains("Scary"), "\(all.text)")
            let kid = try #require(try await client.choose("Leo").cookie)
            let page = try await client.get(WebSuggestionTests.night, headers: [.cookie: kid])
            let cards = WebSuggestionTests.cards(page.text)
            #expect(cards.contains("Kind") && !cards.contains("Scary"), "\(cards)")
            #expect(!page.text.contains("Scary") && !page.text.contains("Not for us"), "\(page.text)")
        }
    }
}
