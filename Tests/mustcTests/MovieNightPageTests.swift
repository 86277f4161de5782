import Foundation
import TMDBStub
import Testing

/// "We're watching this" and its Undo through `mustc serve`, plain HTTP over loopback with the session
/// cookie and the CSRF token a browser would send: the POST marks the watchers and records the night, the page it
/// returns to says so with an Undo, and the Undo puts back exactly what was there.
@Suite(.serialized) struct MovieNightPageTests {
    /// Sends one request with the session cookie; `form` makes it a POST.
    static func send(
        _ path: String, port: Int, cookie: String?, form: String? = nil, origin: Bool = true
    ) async throws -> RawAnswer {
        let host = "127.0.0.1:\(port)"
        var extra = cookie.map { "Cookie: \($0)\r\n" } ?? ""
        if let form {
            if origin { extra += "Origin: http://\(host)\r\n" }
            extra +=
                "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: \(form.utf8.count)\r\n\r\n\(form)"
        } else {
            extra += "\r\n"
        }
        let method = form == nil ? "GET" : "POST"
        return try await RawConnection.exchange(
            port: port, "\(method) \(path) HTTP/1.1\r\nHost: \(host)\r\nConnection: close\r\n\(extra)", method: method)
    }

    static func encoded(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? text
    }

    /// The value of the first hidden field `name` in `html`.
    static func field(_ name: String, in html: String) -> String? {
        guard let start = html.range(of: "name=\"\(name)\" value=\"") else { return nil }
        let rest = html[start.upperBound...]
        return rest.firstIndex(of: "\"").map { String(rest[..<$0]).replacingOccurrences(of: "&amp;", with: "&") }
    }

    @Test func weAreWatchingThisMarksTheWatchersAndUndoPutsBackExactlyWhatWasThere() async throws {
        let stub = TMDBStubServer(movies: StubMovie.classics)
        try stub.start()
        defer { stub.stop() }
        let mustc = MustcBinary(stub: stub)
        for arguments in [
            ["add", "Ann", "Up", "Amélie"], ["add", "Bob", "Amélie"],
            ["watched", "Bob", "Amélie", "--on", "2026-01-02", "--rating", "8"], ["fetch", "--force"],
        ] {
            #expect(try await mustc.run(arguments).status == 0)
        }
        #expect(try await mustc.run(["password"], input: "popcorn on sunday\n").status == 0)
        let server = try await ServeProcess.start(mustc)
        defer { server.ensureStopped() }
        let port = try #require(Int(server.url.split(separator: ":").last?.filter(\.isNumber) ?? ""))
        let database = mustc.databasePath
        let links = "SELECT * FROM memberMovie ORDER BY memberId, movieId"
        let before = try sqlite(database, links)

        // Signed out: the cards have no button, and a POST is refused.
        let signedOut = try await Self.send("/night?member=Ann&member=Bob", port: port, cookie: nil)
        #expect(signedOut.status == 200 && !signedOut.text.contains("We're watching this"))
        #expect(signedOut.text.contains("<li class=\"pick\">") && signedOut.text.contains("An overview of"))
        let refused = try await Self.send(
            "/night/watching", port: port, cookie: nil, form: "movie=tmdb%3A14160&w0=Ann")
        #expect(refused.status == 403)

        let signIn = try await Self.send("/signin", port: port, cookie: nil, form: "password=popcorn+on+sunday")
        let cookie = try #require(signIn.header("Set-Cookie")?.split(separator: ";").first.map(String.init))
        let page = try await Self.send("/night?member=Ann&member=Bob", port: port, cookie: cookie)
        #expect(page.status == 200 && page.text.contains("We're watching this"), "\(page.text)")
        let csrf = try #require(Self.field("csrf", in: page.text))
        let movie = try #require(Self.field("movie", in: page.text))
        #expect(movie == "tmdb:14160", "Up is the first pick: Amélie is watched by Bob")
        #expect(Self.field("w0", in: page.text) == "Ann" && Self.field("w1", in: page.text) == "Bob")
        let back = try #require(Self.field("back", in: page.text))

        // Without the token: refused, nothing written.
        let forged = try await Self.send(
            "/night/watching", port: port, cookie: cookie, form: "movie=tmdb%3A14160&w0=Ann&w1=Bob")
        #expect(forged.status == 403)
        #expect(try sqlite(database, links) == before)

        let form = "csrf=\(Self.encoded(csrf))&movie=\(Self.encoded(movie))&w0=Ann&w1=Bob&back=\(Self.encoded(back))"
        let posted = try await Self.send("/night/watching", port: port, cookie: cookie, form: form)
        #expect(posted.status == 303 && posted.header("Location") == back, "\(posted.headers)")
        #expect(try sqlite(database, "SELECT count(*) FROM movieNight") == "1")
        #expect(try sqlite(database, "SELECT count(*) FROM memberMovie WHERE watched = 1") == "3")
        let result = try await Self.send(back, port: port, cookie: cookie)
        #expect(result.text.contains("Movie night: “Up (2009)” today"), "\(result.text)")
        #expect(!result.text.contains("<li class=\"pick\"><a href=\"/movies/14160\""), "Up is watched now")
        let undoAction = try #require(
            result.text.range(of: #"/nights/[0-9]+/undo"#, options: .regularExpression).map { String(result.text[$0]) })

        let undone = try await Self.send(
            undoAction, port: port, cookie: cookie, form: "csrf=\(Self.encoded(csrf))&movie=1")
        #expect(undone.status == 303)
        #expect(try sqlite(database, links) == before, "Bob kept Up? He never did; Ann is unwatched again")
        #expect(try sqlite(database, "SELECT count(*) FROM movieNight") == "0")
        let after = try await Self.send("/night", port: port, cookie: cookie)
        #expect(after.text.contains("Took back the movie night of “Up (2009)”"), "\(after.text)")
        let again = try await Self.send(
            undoAction, port: port, cookie: cookie, form: "csrf=\(Self.encoded(csrf))&movie=1")
        #expect(again.status == 303)
        #expect(try sqlite(database, links) == before)
    }

    @Test func theFamilyPageAsksHowItWasUntilEveryWatcherHasRated() async throws {
        let stub = TMDBStubServer(movies: StubMovie.classics)
        try stub.start()
        defer { stub.stop() }
        let mustc = MustcBinary(stub: stub)
        #expect(try await mustc.run(["add", "Ann", "Up"]).status == 0)
        #expect(try await mustc.run(["add", "Bob", "Amélie"]).status == 0)
        #expect(try await mustc.run(["night", "Up", "Ann", "Bob"]).status == 0)
        #expect(try await mustc.run(["password"], input: "popcorn on sunday\n").status == 0)
        let server = try await ServeProcess.start(mustc)
        defer { server.ensureStopped() }
        let port = try #require(Int(server.url.split(separator: ":").last?.filter(\.isNumber) ?? ""))

        let signedOut = try await Self.send("/", port: port, cookie: nil)
        #expect(signedOut.text.contains("Today: Up, with Ann and Bob"), "\(signedOut.text)")
        #expect(!signedOut.text.contains("How was Up?"))

        let signIn = try await Self.send("/signin", port: port, cookie: nil, form: "password=popcorn+on+sunday")
        let cookie = try #require(signIn.header("Set-Cookie")?.split(separator: ";").first.map(String.init))
        let home = try await Self.send("/", port: port, cookie: cookie)
        #expect(home.text.contains("How was Up?"))
        #expect(
            home.text.contains(#"action="/members/Ann/rating""#) && home.text.contains(#"action="/members/Bob/rating""#)
        )
        let csrf = try #require(Self.field("csrf", in: home.text))

        for (member, rating) in [("Ann", 9), ("Bob", 6)] {
            let rated = try await Self.send(
                "/members/\(member)/rating", port: port, cookie: cookie,
                form: "csrf=\(Self.encoded(csrf))&movie=tmdb%3A14160&back=%2F&rating=\(rating)")
            #expect(rated.status == 303 && rated.header("Location") == "/")
            let after = try await Self.send("/", port: port, cookie: cookie)
            #expect(!after.text.contains(#"action="/members/\#(member)/rating""#), "\(member) has rated")
        }
        let done = try await Self.send("/", port: port, cookie: cookie)
        #expect(!done.text.contains("How was Up?"), "everyone has rated: no prompt")
        #expect(done.text.contains("Ann 9/10, Bob 6/10"))
        let nights = try await mustc.run(["nights", "--format", "json"])
        let watchers = try #require(
            (try nights.json()["nights"] as? [[String: Any]])?.first?["watchers"] as? [[String: Any]])
        #expect(watchers.map { $0["rating"] as? Int } == [9, 6])
        let out = try await Self.send("/", port: port, cookie: nil)
        #expect(out.text.contains("Ann 9/10, Bob 6/10"), "signed out, the ratings given show")
    }
}
