import Foundation
import TMDBStub
import Testing

/// The family's page through the built binary and a real headless Chromium (Debian's Chromium headless shell and
/// chromedriver, driven by Selenium from Tests/browser/pages.py).
@Suite(.serialized) struct ServeBrowserTests {
    static let hostile = [
        StubMovie(id: 900_001, title: "<img src=x onerror=alert(1)>", voteAverage: 6.6, voteCount: 66),
        StubMovie(id: 900_002, title: "<script>alert(2)</script> & \"Friends\"", voteAverage: 5.5, voteCount: 55),
    ]

    /// Ann keeps Up, Amélie and the two hostile titles; Bob keeps Spirited Away and Up. Up's rating moves twice,
    /// so it has a history with three figures.
    static func family(_ stub: TMDBStubServer) async throws -> MustcBinary {
        let mustc = MustcBinary(stub: stub)
        for arguments in [
            ["add", "Ann", "Up", "Amélie", "tmdb:900001", "tmdb:900002"], ["add", "Bob", "Spirited Away", "Up"],
        ] {
            let outcome = try await mustc.run(arguments)
            #expect(outcome.status == 0, "\(outcome.all)")
        }
        for (rating, votes) in [(8.0, 19_400), (8.2, 19_650)] {
            stub.update(id: 14160) {
                $0.voteAverage = rating
                $0.voteCount = votes
            }
            let fetch = try await mustc("fetch", "--force")
            #expect(fetch.status == 0, "\(fetch.all)")
        }
        return mustc
    }

    static func files(_ mustc: MustcBinary) -> [Data?] {
        [mustc.databasePath, mustc.databasePath + "-wal"].map { FileManager.default.contents(atPath: $0) }
    }

    /// The scripts that run in the test run's shared Chromiums (SharedBrowser): every one (posters.py draws its
    /// borrowed Chromium at twice the pixels); any other would start its own.
    static let shared: Set = ["pages.py", "night.py", "links.py", "family.py", "leftout.py", "posters.py"]

    /// Runs a script of Tests/browser (pages.py unless named) with a deadline and returns its JSON.
    static func browse(
        _ base: String, _ paths: [String], screenshots: String? = nil, script name: String = "pages.py",
        deadline: Double = 240
    ) async throws -> [String: Any] {
        if shared.contains(name) {
            let arguments = [base] + paths + (screenshots.map { ["--screenshots", $0] } ?? [])
            return try await SharedBrowser.shared.run(name, arguments, deadline: deadline)
        }
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appending(path: "browser/\(name)").path
        try BrowserTools.require()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments =
            [BrowserTools.python, script, base] + paths + (screenshots.map { ["--screenshots", $0] } ?? [])
        let directory = TemporaryDirectory("mustc-browser")
        let (out, err) = (directory.file("stdout"), directory.file("stderr"))
        for path in [out, err] { _ = FileManager.default.createFile(atPath: path, contents: nil) }
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: out))
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: err))
        try ChildLaunch.run(process)
        let running = Running(process: process, stdoutPath: out, stderrPath: err)
        // Chromium starting on a loaded 2-core machine takes seconds; a run past this is a hang.
        let (outcome, exited) = await running.wait(orKillAfter: deadline)
        guard exited, outcome.status == 0 else { throw ServeError.browser(outcome.all) }
        return try outcome.json()
    }

    @Test func theBrowserSeesTheListsChartsAndHostileTitlesAsText() async throws {
        let stub = TMDBStubServer(movies: StubMovie.classics + Self.hostile)
        try stub.start()
        defer { stub.stop() }
        let mustc = try await Self.family(stub)
        let ratings = try await mustc("ratings", "--member", "Ann", "--format", "json")
        let before = Self.files(mustc)

        let server = try await ServeProcess.start(mustc)
        defer { server.ensureStopped() }
        let base = String(server.url.dropLast())
        let screenshots = ProcessInfo.processInfo.environment["MUSTC_SCREENSHOTS"]
        let result = try await Self.browse(
            base, ["/members/Ann", "/movies/14160", "/movies/900001", "/movies/900002"], screenshots: screenshots)
        let pages = try #require(result["pages"] as? [[String: Any]])
        #expect(pages.count == 8)

        for page in pages {
            let url = page["url"] as? String ?? "?"
            #expect(page["dialog"] as? Bool == false, "a dialog opened on \(url)")
            #expect(page["consoleErrors"] as? [String] == [], "\(url): \(page["consoleErrors"] ?? "")")
            let (scroll, client) = (page["scrollWidth"] as? Int ?? .max, page["clientWidth"] as? Int ?? 0)
            #expect(scroll <= client, "\(url) scrolls sideways at 360 px: \(scroll) > \(client)")
            #expect(page["images"] as? Int == 0, "\(url) has an <img>")
            #expect(page["scripts"] as? Int == 0, "\(url) has a <script>")
        }
        try Self.expectMemberPage(pages[1], equals: ratings)
        try Self.expectChart(pages[3])
        #expect(pages[6]["h1"] as? String == "<img src=x onerror=alert(1)> (2001)")
        #expect(pages[7]["h1"] as? String == "<script>alert(2)</script> & \"Friends\" (2001)")

        let (stopped, exited) = await server.stop()
        #expect(exited, "serve did not stop on SIGTERM")
        #expect(stopped.status == 0, "\(stopped.all)")
        #expect(!stopped.all.contains(stub.apiKey))
        #expect(Self.files(mustc) == before, "the database changed while the pages were read")
        let after = try await mustc("ratings", "--member", "Ann", "--format", "json")
        #expect(Self.withoutTrendStart(after.stdout) == Self.withoutTrendStart(ratings.stdout))
    }

    /// Each card shows the movie's title, year, rating to one decimal and votes as `ratings --format json` has
    /// them.
    static func expectMemberPage(_ page: [String: Any], equals ratings: Outcome) throws {
        let members = try #require(try ratings.json()["members"] as? [[String: Any]])
        let movies = try #require(members.first?["movies"] as? [[String: Any]])
        let rows = try #require(page["rows"] as? [[String: Any]])
        #expect(rows.count == movies.count)
        for movie in movies {
            let title = try #require(movie["title"] as? String)
            let row = try #require(rows.first { $0["title"] as? String == title }, "no card for \(title)")
            #expect(row["year"] as? String == (movie["year"] as? Int).map(String.init))
            // Written out, not worked out as the page does: Up 8.2, Amélie 7.9, the hostile titles 6.6 and 5.5.
            let rating = ["Up": "8.2", "Amélie": "7.9", Self.hostile[0].title: "6.6", Self.hostile[1].title: "5.5"]
            #expect(row["rating"] as? String == rating[title], "\(row) for \(movie["voteAverage"] ?? "?")")
            let votes = try #require(movie["voteCount"] as? Int)
            #expect((row["votes"] as? String)?.hasPrefix(votes < 1000 ? "\(votes) votes" : "") == true, "\(row)")
            let labels = try #require(row["sparkLabel"] as? [String])
            #expect(labels.count == 1 && labels[0].hasPrefix("Rating this week: "), "\(labels)")
        }
        // Up moved from 7.9 to 8.2 this week: its sparkline says so, and its move is shown.
        let up = try #require(rows.first { $0["title"] as? String == "Up" })
        #expect((up["sparkLabel"] as? [String])?.first == "Rating this week: 7.9, 8.0, 8.2")
        #expect((up["move"] as? String)?.hasSuffix("up 0.3") == true, "\(up)")
    }

    static func expectChart(_ page: [String: Any]) throws {
        let charts = try #require(page["charts"] as? [[String: Any]])
        #expect(charts.count == 3)
        let rating = try #require(charts.first)
        #expect(rating["caption"] as? String == "Rating")
        #expect((rating["points"] as? String)?.split(separator: " ").count == 3)
        let alternative = try #require(rating["alternative"] as? String)
        #expect(alternative.contains("7.9 8.0 8.2"), "\(alternative)")
        #expect(rating["detailsOpen"] as? Bool == false, "the figures are in a closed <details>")
        #expect((rating["label"] as? String)?.hasSuffix("from 7.9 to 8.2") == true, "\(rating)")
        #expect((rating["ticks"] as? [String])?.isEmpty == false, "the x axis has dates")
        #expect((rating["height"] as? Double ?? 0) > 50)
    }

    /// The JSON without each trend's `since`, which moves with the clock.
    static func withoutTrendStart(_ json: String) -> String {
        json.split(separator: "\n").filter { !$0.contains("\"since\"") }.joined(separator: "\n")
    }
}
