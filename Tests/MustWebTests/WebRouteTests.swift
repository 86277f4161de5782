import Foundation
import HTTPTypes
import HummingbirdTesting
import MustCore
import Testing

@testable import MustWeb

/// The pages, the JSON and the middleware of the application `mustc serve` runs, opened in-process over a real
/// database: security headers, escaped names, error pages (400, 404, 405, 421).
@Suite struct WebRouteTests {
    static let zoe = "/members/Zo%C3%AB%20%26%20%3Cb%3ECo%3C%2Fb%3E"

    @Test func pagesCarryTheSecurityHeadersAndEscapeNames() async throws {
        let family = try WebFamily.classic()
        try await family.test { client in
            let home = try await client.get("/")
            #expect(home.status == .ok)
            let policy = try #require(home.headers[.contentSecurityPolicy])
            #expect(policy.contains("frame-ancestors 'none'"))
            #expect(policy.contains("script-src 'self'") && !policy.contains("unsafe-inline"))
            #expect(home.headers[.xContentTypeOptions] == "nosniff")
            #expect(home.headers[HTTPField.Name("Referrer-Policy")!] == "same-origin")
            #expect(home.headers[HTTPField.Name("X-Frame-Options")!] == "DENY")
            #expect(home.text.contains("<html lang=\"en\">"))
            // The name goes into the link percent-encoded, and into the text escaped.
            #expect(home.text.contains("href=\"\(Self.zoe)\""))
            #expect(home.text.contains("Zoë &amp; &lt;b&gt;Co&lt;/b&gt;"))
            #expect(!home.text.contains("<b>"))
            #expect(home.text.contains("Up (2009)"), "Up changed this week")

            let member = try await client.get(Self.zoe)
            #expect(member.status == .ok)
            #expect(member.text.contains("<h1><bdi>Zoë &amp; &lt;b&gt;Co&lt;/b&gt;</bdi></h1>"))
            #expect(member.headers[.contentSecurityPolicy] == policy)

            let movie = try await client.get("/movies/14160")
            #expect(movie.status == .ok)
            #expect(movie.text.contains("href=\"https://www.themoviedb.org/movie/14160\" rel=\"noreferrer noopener\""))
            #expect(movie.text.contains("<svg"))

            // A movie without a TMDB id has a page under /movies/local/, linked from its member's list.
            let bob = try await client.get("/members/Bob")
            let local = try #require(bob.text.firstMatch(of: #/href="(/movies/local/\d+)"/#)?.output.1)
            let unlinked = try await client.get(String(local))
            #expect(unlinked.status == .ok)
            #expect(unlinked.text.contains("<h1><bdi>Not On TMDB</bdi></h1>"))

            let css = try await client.get("/static/site.css")
            #expect(css.status == .ok && css.headers[.contentType] == "text/css; charset=utf-8")
            #expect(css.headers[.cacheControl] == "public, max-age=86400")
        }
    }

    @Test(arguments: [
        ("/members/Nobody", 404, "There is no member"), ("/movies/999999", 404, "No movie"),
        ("/movies/abc", 404, "TMDB id"), ("/nowhere", 404, "no page at this address"),
        ("/changes?since=abc", 400, "since=abc is neither a duration"),
        ("/api/changes?since=abc", 400, "since=abc is neither a duration"),
        ("/members/Ann?sort=%3Cscript%3E", 400, "sort=&lt;script&gt; is not a way to sort"),
        ("/members/Ann%00", 400, "control character"), ("/members/Ann%0A", 400, "control character"),
        ("/members/An%09n", 400, "control character"), ("/members/Ann%7F", 400, "control character"),
        ("/members/Ann%C2%85", 400, "control character"),
    ])
    func unknownNamesAre404AndBadQueries400Pages(_ path: String, _ status: Int, _ text: String) async throws {
        let family = try WebFamily.classic()
        try await family.test { client in
            let page = try await client.get(path)
            #expect(page.status.code == status)
            #expect(page.headers[.contentType] == "text/html; charset=utf-8")
            #expect(page.text.contains(text), "\(page.text)")
            #expect(page.headers[.contentSecurityPolicy] != nil)
            #expect(!page.text.contains("Amélie"))
        }
    }

    @Test func aKnownAddressAskedWithAnotherMethodIs405NamingWhatItTakes() async throws {
        let family = try WebFamily.classic()
        try await family.test { client in
            for (method, path, allowed) in [
                (HTTPRequest.Method.post, "/status", "GET, HEAD"), (.delete, "/members/Ann", "GET, HEAD"),
                (.put, "/signin", "GET, HEAD, POST"), (.patch, "/static/site.css", "GET, HEAD"),
                (.put, "/members/Ann/movies", "POST"),
            ] {
                let answer = try await client.executeRequest(uri: path, method: method, headers: [:], body: nil)
                #expect(answer.status == .methodNotAllowed, "\(method) \(path)")
                #expect(answer.headers[.allow] == allowed, "\(method) \(path)")
                #expect(answer.text.contains("This address takes \(allowed), not \(method.rawValue)."))
            }
            let nowhere = try await client.executeRequest(uri: "/nowhere", method: .post, headers: [:], body: nil)
            #expect(nowhere.status == .notFound && nowhere.headers[.allow] == nil)
            // HEAD is GET without the body.
            let head = try await client.executeRequest(uri: "/members/Ann", method: .head, headers: [:], body: nil)
            #expect(head.status == .ok && head.body.readableBytes == 0)
            #expect(head.headers[.contentType] == "text/html; charset=utf-8")
        }
    }

    /// Behind a proxy, the name the browser used (X-Forwarded-Host) must be one of the server's; the raw `Host`
    /// header's checks are in ServeHardeningTests, as only the real channel turns it into the request's authority.
    @Test func aForwardedHostThatIsNotThisServersIs421NamingTheKey() async throws {
        var family = try WebFamily.classic()
        family.config.serve.hosts = ["movies.example.org"]
        try await family.test { client in
            for host in ["movies.example.org", "Movies.Example.ORG.:443", "localhost", "127.0.0.1:8080"] {
                let answer = try await client.get("/api/ratings", headers: [.xForwardedHost: host])
                #expect(answer.status == .ok, "X-Forwarded-Host: \(host)")
            }
            for host in ["evil.example", "localhost, evil.example", "movies.example.org.evil", "[::2]"] {
                let answer = try await client.get("/members/Ann", headers: [.xForwardedHost: host])
                #expect(answer.status == .misdirectedRequest, "X-Forwarded-Host: \(host)")
                #expect(answer.text.contains("serve.hosts"), "\(answer.text)")
                #expect(!answer.text.contains("Amélie"))
                #expect(answer.headers[.contentSecurityPolicy] != nil)
            }
        }
    }

    /// The times on a page are the time source's, in `serve.timeZone`: the movie page says when it was checked,
    /// and that moves with the clock, not with the machine's.
    @Test func thePagesTellTimeByTheTimeSource() async throws {
        let family = try WebFamily.classic()
        try await family.test { client in
            let status = try await client.get("/api/status")
            #expect(status.status == .ok)
            let first = try await client.get("/movies/14160")
            #expect(first.text.contains("<dd>24 Nov 2026, 10:20 (just now)</dd>"), "\(first.text)")
            await family.clock.advance(by: .seconds(3 * 3600))
            let later = try await client.get("/movies/14160")
            #expect(later.text.contains("<dd>24 Nov 2026, 10:20 (3 hours ago)</dd>"), "\(later.text)")
            // The week's window moves too: eight days on, Up's move is no longer this week's.
            let moved = #/No rating moved by 0.1 or more this week./#
            #expect(try await client.get("/").text.firstMatch(of: moved) == nil)
            await family.clock.advance(by: .seconds(8 * 86400))
            #expect(try await client.get("/").text.firstMatch(of: moved) != nil)
        }
    }
}
