import Foundation
import TMDBStub
import TestSupport
import Testing

/// Posters on the family's page in a real headless Chromium at 360 px (Tests/browser/posters.py), and from a
/// `serve` that may only read.
@Suite(.serialized) struct PostersBrowserTests {
    /// A movie TMDB has no poster for: the page draws its placeholder.
    static let posterless: StubMovie = {
        var movie = StubMovie(id: 900_003, title: "No Poster Yet", voteAverage: 6.1, voteCount: 61)
        movie.posterPath = nil
        return movie
    }()

    /// Ann keeps Amélie, Up, Spirited Away and the posterless movie; one forced fetch downloads the posters.
    static func family(_ stub: TMDBStubServer, environment: [String: String] = [:]) async throws -> MustcBinary {
        var mustc = MustcBinary(stub: stub, posters: true)
        for (name, value) in environment { mustc.environment[name] = value }
        let added = try await mustc("add", "Ann", "Amélie", "Up", "Spirited Away", "tmdb:900003")
        #expect(added.status == 0, "\(added.all)")
        let fetch = try await mustc("fetch", "--force", "--json")
        #expect(fetch.status == 0, "\(fetch.all)")
        #expect((try fetch.json()["posters"] as? [String: Int])?["downloaded"] == 3, "\(fetch.all)")
        return mustc
    }

    @Test func thePhoneShowsEveryPosterFromThisServerOnly() async throws {
        let stub = TMDBStubServer(movies: StubMovie.classics + [Self.posterless])
        try stub.start()
        defer { stub.stop() }
        let mustc = try await Self.family(stub)
        let server = try await ServeProcess.start(mustc)
        defer { server.ensureStopped() }
        let base = String(server.url.dropLast())
        let result = try await ServeBrowserTests.browse(base, ["/members/Ann", "/movies/194"], script: "posters.py")
        let pages = try #require(result["pages"] as? [[String: Any]])
        try #require(pages.count == 2)
        for page in pages {
            let url = page["url"] as? String ?? "?"
            #expect(page["consoleErrors"] as? [String] == [], "\(url): \(page["consoleErrors"] ?? "")")
            let resources = try #require(page["resources"] as? [String])
            #expect(resources.allSatisfy { $0.hasPrefix(base + "/") }, "\(url) asked elsewhere: \(resources)")
            let images = try #require(page["images"] as? [[String: Any]])
            for image in images {
                #expect((image["naturalWidth"] as? Int ?? 0) > 0, "\(url): \(image)")
                #expect((image["current"] as? String)?.hasPrefix(base + "/posters/") == true, "\(image)")
                #expect(image["loading"] as? String == "lazy" && image["width"] != nil && image["height"] != nil)
            }
        }
        let list = try #require(pages[0]["images"] as? [[String: Any]])
        #expect(list.count == 3)
        // The phone is 2x: the list's srcset gives it w342.
        #expect(list.allSatisfy { ($0["current"] as? String)?.contains("/posters/w342/poster") == true }, "\(list)")
        #expect(pages[0]["placeholders"] as? [String] == ["Poster of No Poster Yet (2001)"])
        let movie = try #require(pages[1]["images"] as? [[String: Any]])
        #expect(movie.count == 1 && (movie.first?["src"] as? String) == "/posters/w342/poster194.png")
        #expect((movie.first?["alt"] as? String) == "Poster of Amélie (2001)")
        let (stopped, exited) = await server.stop()
        #expect(exited && stopped.status == 0, "\(stopped.all)")
    }

    /// A `serve` running as another user, who may read the database and the posters but write neither, shows the
    /// posters the fetch downloaded.
    @Test(.enabled(if: getuid() == 0, "needs root to run mustc as another user"))
    func aReadOnlyServeShowsThePostersTheFetchKept() async throws {
        let stub = TMDBStubServer(movies: StubMovie.classics + [Self.posterless])
        try stub.start()
        defer { stub.stop() }
        let scratch = TemporaryDirectory("posters-readonly")
        let directory = scratch.file("db")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let database = directory + "/mustc.sqlite"
        var mustc = try await Self.family(stub, environment: ["MUSTC_DATABASE": database])
        let binary = scratch.file("mustc")
        try MustcBinary.link(to: binary)
        for file in [database, database + "-wal", database + "-shm"] {
            try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: file)
        }
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: directory)
        for path in [scratch.path, directory + "/mustc.sqlite.posters"] {
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
        }
        mustc.executable = URL(fileURLWithPath: "/usr/bin/setpriv")
        let server = try await Self.startBusyAware(
            mustc, prefix: ["--reuid=65534", "--regid=65534", "--clear-groups", binary])
        defer { server.ensureStopped() }
        let page = try await HTTP.get(server.url + "members/Ann")
        #expect(page.status == 200, "\(page.body)")
        #expect(page.body.components(separatedBy: "<img class=\"poster\"").count == 4, "three posters")
        for id in [194, 129, 14160] {
            let poster = try await HTTP.get(server.url + "posters/w342/poster\(id).png")
            #expect(poster.status == 200 && poster.data == StubPoster.png(id: id, width: 342))
        }
        let (stopped, exited) = await server.stop()
        #expect(exited && stopped.status == 0, "\(stopped.all)")
    }

    /// The fresh copy can still be open for writing in a child another test thread forked before its exec (see
    /// `MustcBinary.start`); setpriv then fails with "Text file busy". Try again briefly (2 s at most), as
    /// `ReadOnlyTests` does; any other failure is the test's.
    static func startBusyAware(_ mustc: MustcBinary, prefix: [String]) async throws -> ServeProcess {
        var started: ServeProcess?
        try await Poll.until(within: .seconds(2), every: .milliseconds(50)) {
            do {
                started = try await ServeProcess.start(mustc, prefix: prefix)
            } catch ServeError.noURL(let output) where output.contains("Text file busy") {}
            return started != nil
        }
        if let started { return started }
        return try await ServeProcess.start(mustc, prefix: prefix)
    }
}
