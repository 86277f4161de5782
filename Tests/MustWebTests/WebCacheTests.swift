import Foundation
import HTTPTypes
import HummingbirdTesting
import MustCore
import Testing

@testable import MustWeb

/// Validators and the page cache, in-process on a test clock: an unchanged page is 304 while the minute holds,
/// the minute's turn and a write each make a new tag, and a kept page is the page.
@Suite struct WebCacheTests {
    @Test func anUnchangedPageIs304UntilTheMinuteTurnsOrAWriteComes() async throws {
        let family = try WebFamily.classic()
        try await family.test { client in
            let first = try await client.get("/members/Ann")
            #expect(first.status == .ok)
            let tag = try #require(first.headers[.eTag])
            #expect(tag.hasPrefix("W/\"") && tag.hasSuffix("-\(Int(WebFamily.start.timeIntervalSince1970) / 60)\""))
            #expect(first.headers[.lastModified]?.hasSuffix(" GMT") == true)
            #expect(first.headers[.cacheControl] == "no-cache")

            // 59 seconds on, the same minute: 304 without a body.
            await family.clock.advance(by: .seconds(59))
            let again = try await client.get("/members/Ann", headers: [.ifNoneMatch: tag])
            #expect(again.status == .notModified)
            #expect(again.body.readableBytes == 0)
            #expect(again.headers[.eTag] == tag)

            // The minute turns ("in 3 hours" may read otherwise now): a 200 under a new tag.
            await family.clock.advance(by: .seconds(1))
            let turned = try await client.get("/members/Ann", headers: [.ifNoneMatch: tag])
            #expect(turned.status == .ok)
            let minuteTag = try #require(turned.headers[.eTag])
            #expect(minuteTag != tag)
            #expect(turned.text == first.text)

            // A write: a 200 under a new tag, with the new movie, in the same minute.
            try family.keep("Ann", RemoteMovie(id: 129, title: "Spirited Away", voteAverage: 8.5, voteCount: 300))
            let changed = try await client.get("/members/Ann", headers: [.ifNoneMatch: minuteTag])
            #expect(changed.status == .ok)
            #expect(changed.headers[.eTag] != minuteTag)
            #expect(changed.text.contains("Spirited Away"))
            // Several tags, one of them current.
            let current = try #require(changed.headers[.eTag])
            let list = try await client.get("/members/Ann", headers: [.ifNoneMatch: "\(tag), \(current)"])
            #expect(list.status == .notModified)
        }
    }

    /// Answers are kept while the database and the minute are unchanged (`PageCache`); none of that may show.
    @Test func aKeptPageIsTheSamePageAndAWriteShowsOnTheNextLoad() async throws {
        let family = try WebFamily.classic()
        try await family.test { client in
            let first = try await client.get("/members/Ann")
            let second = try await client.get("/members/Ann")
            #expect(first.headers[.eTag] == second.headers[.eTag])
            #expect(second.status == .ok && second.text == first.text)
            #expect(second.text.contains("Amélie") && !second.text.contains("Spirited Away"))

            // Names stay escaped in a page sent again.
            for _ in 0..<2 {
                let zoe = try await client.get(WebRouteTests.zoe)
                #expect(
                    zoe.text.contains("<h1><bdi>Zoë &amp; &lt;b&gt;Co&lt;/b&gt;</bdi></h1>")
                        && !zoe.text.contains("<b>"))
            }

            // A write shows on the very next load, without If-None-Match: the kept page's validator no longer holds.
            try family.keep("Ann", RemoteMovie(id: 129, title: "Spirited Away", voteAverage: 8.5, voteCount: 300))
            let after = try await client.get("/members/Ann")
            #expect(after.status == .ok && after.text.contains("Spirited Away"))
            #expect(after.headers[.eTag] != second.headers[.eTag])
            let cookie = try await client.get("/members/Ann", headers: [.cookie: "session=ann"])
            #expect(cookie.status == .ok && cookie.text.contains("Spirited Away"))

            // Two answers that differ only in their query are two answers, in either order.
            for member in ["Ann", "Bob", "Ann"] {
                let ratings = try await client.get("/api/ratings?member=\(member)")
                #expect(ratings.text.contains("\"Amélie\"") == (member == "Ann"), "\(member): \(ratings.text)")
                #expect(ratings.text.contains("\"Not On TMDB\"") == (member == "Bob"), "\(member): \(ratings.text)")
            }
        }
    }

    /// A signed-in page is never a 304 and never kept for the browser: its forms carry the session's token.
    @Test func aSignedInPageIsNever304() async throws {
        let family = try WebFamily.classic()
        try family.setPassword()
        try await family.test { client in
            let tag = try #require(try await client.get("/members/Ann").headers[.eTag])
            let cookie = try await client.signIn()
            let page = try await client.get("/members/Ann", headers: [.cookie: cookie, .ifNoneMatch: tag])
            #expect(page.status == .ok)
            #expect(page.headers[.eTag] == nil && page.headers[.cacheControl] == "no-store")
            #expect(page.csrf != nil)
            #expect(page.headers[.vary] == "Cookie")
        }
    }
}
