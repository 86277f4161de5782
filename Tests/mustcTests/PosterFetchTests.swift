import Foundation
import TMDBStub
import Testing

/// Posters through mustc's commands against the stub: downloaded once, from the image host only, with no key; and
/// every kind of bad image host or bad `poster_path` leaves the fetch's result and exit code as they were.
/// One test at a time: twelve fetches with their stubs starting at once weigh on the rest of the suite.
@Suite(.serialized) struct PosterFetchTests {
    /// Ann keeps Amélie and Up, looked up (so resolved) with the stub's default posters.
    static func family(_ stub: TMDBStubServer, config: String = "") async throws -> MustcBinary {
        var mustc = MustcBinary(stub: stub, posters: true)
        let path = mustc.home.file("config.json")
        try #"{"tmdb": {"maxRequestsPerSecond": 2000, "requestTimeout": "3s", "maxRetries": 0}\#(config)}"#
            .write(toFile: path, atomically: true, encoding: .utf8)
        mustc.environment["MUSTC_CONFIG"] = path
        let added = try await mustc("add", "Ann", "Amélie", "Up")
        #expect(added.status == 0, "\(added.all)")
        return mustc
    }

    static func fetch(_ mustc: MustcBinary) async throws -> (Outcome, [String: Any], [String: Int]) {
        let outcome = try await mustc("fetch", "--force", "--json")
        let json = try outcome.json()
        return (outcome, json, json["posters"] as? [String: Int] ?? [:])
    }

    /// Every file under the posters directory, by size folder: only whole posters, never a partial one.
    static func files(_ mustc: MustcBinary) -> [String] {
        let directory = mustc.databasePath + ".posters"
        return ["w185", "w342"].flatMap { size in
            ((try? FileManager.default.contentsOfDirectory(atPath: directory + "/" + size)) ?? []).sorted().map {
                size + "/" + $0
            }
        }
    }

    /// Points `mustc` at a config whose `posters.maxBytes` is `bytes`.
    static func bound(_ bytes: Int, _ mustc: inout MustcBinary) throws {
        let path = mustc.home.file("config.json")
        try #"{"tmdb": {"maxRequestsPerSecond": 2000}, "posters": {"maxBytes": \#(bytes)}}"#
            .write(toFile: path, atomically: true, encoding: .utf8)
        mustc.environment["MUSTC_CONFIG"] = path
    }

    /// The bytes of the whole poster files on disk (a partial one left out).
    static func bytesOnDisk(_ mustc: MustcBinary) -> Int {
        files(mustc).filter { !$0.contains(".partial-") }.reduce(0) { total, file in
            let path = mustc.databasePath + ".posters/" + file
            return total + ((try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0)
        }
    }

    @Test func postersAreDownloadedOnceFromTheImageHostWithoutTheKey() async throws {
        let stub = TMDBStubServer(movies: StubMovie.classics)
        try stub.start()
        defer { stub.stop() }
        let mustc = try await Self.family(stub)
        let apiRequests = stub.requestCount
        let (outcome, json, posters) = try await Self.fetch(mustc)
        #expect(outcome.status == 0 && json["result"] as? String == "noData", "\(outcome.all)")
        #expect(posters == ["downloaded": 2, "failed": 0, "malformed": 0, "removed": 0])
        #expect(json["requests"] as? Int == 2, "posters cost no API request")
        // The two details, and the region's certification list, which the first fetch reads.
        #expect(stub.requestCount - apiRequests == 3)
        #expect(stub.requests.filter { $0.path == "/3/certification/movie/list" }.count == 1)
        #expect(
            Self.files(mustc)
                == ["w185/poster14160.png", "w185/poster194.png", "w342/poster14160.png", "w342/poster194.png"])
        let images = stub.imageRequests
        #expect(Set(images.map(\.path)).count == 4 && images.count == 4)
        for request in images {
            #expect(request.query["api_key"] == nil && request.headers["authorization"] == nil, "\(request)")
            #expect(!request.headers.values.contains { $0.contains(stub.apiKey) })
        }
        let file = mustc.databasePath + ".posters/w342/poster194.png"
        #expect(FileManager.default.contents(atPath: file) == StubPoster.png(id: 194, width: 342))
        // Kept: the next check asks the image host for nothing.
        let (_, _, again) = try await Self.fetch(mustc)
        #expect(again["downloaded"] == 0 && stub.imageRequestCount == 4)
        // A file gone (removed by hand) comes back at the movie's next check.
        try FileManager.default.removeItem(atPath: file)
        let (_, _, back) = try await Self.fetch(mustc)
        #expect(back["downloaded"] == 1 && stub.imageRequestCount == 5)
    }

    @Test func aBearerTokenIsNeverSentToTheImageHost() async throws {
        let stub = TMDBStubServer(movies: StubMovie.classics)
        try stub.start()
        defer { stub.stop() }
        var mustc = try await Self.family(stub)
        mustc.environment["TMDB_API_KEY"] = nil
        mustc.environment["TMDB_ACCESS_TOKEN"] = stub.accessToken
        let (outcome, _, posters) = try await Self.fetch(mustc)
        #expect(outcome.status == 0 && posters["downloaded"] == 2, "\(outcome.all)")
        #expect(stub.requests.last?.headers["authorization"] == "Bearer \(stub.accessToken)")
        #expect(!stub.imageRequests.isEmpty)
        #expect(stub.imageRequests.allSatisfy { $0.headers["authorization"] == nil && $0.query.isEmpty })
    }

    static let badHosts: [(String, StubFault?)] = [
        ("404", .notFound), ("500", .serverError(status: 500)), ("HTML", .htmlPage), ("truncated", .truncatedBody),
        ("50 MB", .oversizedBody(bytes: 50 << 20)), ("hang", .hang(seconds: 5)), ("nothing listening", nil),
    ]

    /// Each bad image host: the ratings change and are written as without posters (newData, exit 0), nothing is
    /// written to the posters directory, and the next check downloads them once the host is good again.
    @Test(arguments: badHosts.map(\.0))
    func aBadImageHostChangesNothingButThePosterCount(_ name: String) async throws {
        let stub = TMDBStubServer(movies: StubMovie.classics)
        try stub.start()
        defer { stub.stop() }
        var mustc = try await Self.family(stub)
        let fault = try #require(Self.badHosts.first { $0.0 == name }).1
        if let fault {
            stub.inject(fault, on: .images, times: nil)
        } else {
            mustc.environment["MUSTC_TMDB_IMAGE_BASE_URL"] = "http://127.0.0.1:1/t/p/"
        }
        stub.update(id: 194) { $0.voteCount += 1 }
        let (outcome, json, posters) = try await Self.fetch(mustc)
        #expect(outcome.status == 0 && json["result"] as? String == "newData", "\(outcome.all)")
        #expect(json["changed"] as? Int == 1 && json["failed"] as? Int == 0)
        #expect(posters["downloaded"] == 0 && posters["failed"] == 2, "\(posters)")
        #expect(Self.files(mustc).isEmpty, "\(Self.files(mustc))")
        let ratings = try await mustc("ratings", "--member", "Ann", "--format", "json")
        #expect(ratings.stdout.contains("11413"), "the change was written")
        // A hang (5 s, then the poster) ended at the request timeout (3 s; 1 s timed out the API itself under a
        // whole-suite load): both posters failed, none was kept.

        stub.clearFaults()
        mustc.environment["MUSTC_TMDB_IMAGE_BASE_URL"] = stub.imageBaseURL.absoluteString
        let (_, retried, again) = try await Self.fetch(mustc)
        #expect(retried["result"] as? String == "noData" && again["downloaded"] == 2 && again["failed"] == 0)
        #expect(Self.files(mustc).count == 4)
    }

    /// A hostile or malformed `poster_path` is ignored, never requested, and counted; the figures beside it count.
    @Test func hostilePosterPathsAreRefusedAndNeverRequested() async throws {
        let stub = TMDBStubServer(movies: StubMovie.classics)
        try stub.start()
        defer { stub.stop() }
        let mustc = try await Self.family(stub)
        stub.update(id: 194) {
            $0.posterPath = "/../../etc/passwd"
            $0.voteCount += 1
        }
        stub.update(id: 14160) { $0.posterPath = "http://elsewhere/x.jpg" }
        let (outcome, json, posters) = try await Self.fetch(mustc)
        #expect(outcome.status == 0 && json["result"] as? String == "newData", "\(outcome.all)")
        #expect(json["changed"] as? Int == 1 && json["failed"] as? Int == 0)
        #expect(posters["malformed"] == 2 && posters["downloaded"] == 0 && posters["failed"] == 0)
        #expect(stub.imageRequestCount == 0)
        for hostile in ["/x.svg", "42"] {
            stub.update(id: 14160) { $0.posterPath = hostile == "42" ? nil : hostile }
            if hostile == "42" { stub.inject(.field("poster_path", json: "42"), on: .details(id: 14160)) }
            let (again, _, refused) = try await Self.fetch(mustc)
            #expect(again.status == 0 && refused["malformed"] == 2, "\(hostile): \(again.all)")
        }
        #expect(stub.imageRequestCount == 0 && Self.files(mustc).isEmpty)
        #expect(outcome.stderr.contains("poster_path") && !outcome.stderr.contains("passwd"))
        // The paths the add stored stay; a refused one never replaced them.
        let stored = try sqlite(mustc.databasePath, "SELECT posterPath FROM movie ORDER BY id")
        #expect(stored == "/poster194.png\n/poster14160.png")
    }

    /// `posters.maxBytes` holds after a fetch of many movies: the directory ends within it.
    @Test func theBoundHoldsAfterAFetchOfManyMovies() async throws {
        let stub = TMDBStubServer(movies: StubMovie.synthetic(30))
        try stub.start()
        defer { stub.stop() }
        var mustc = MustcBinary(stub: stub, posters: true)
        let path = mustc.home.file("config.json")
        try #"{"tmdb": {"maxRequestsPerSecond": 2000}, "posters": {"maxBytes": 150000}}"#
            .write(toFile: path, atomically: true, encoding: .utf8)
        mustc.environment["MUSTC_CONFIG"] = path
        #expect(try await mustc.run(["add", "--no-lookup", "Bob"] + (1...30).map { "Movie \($0)" }).status == 0)
        let (outcome, _, posters) = try await Self.fetch(mustc)
        #expect(outcome.status == 0, "\(outcome.all)")
        #expect(posters["downloaded"] == 30 && posters["removed"] ?? 0 >= 25, "\(posters)")
        let directory = mustc.databasePath + ".posters"
        let bytes = Self.files(mustc).reduce(0) { total, file in
            total + ((try? FileManager.default.attributesOfItem(atPath: directory + "/" + file)[.size] as? Int) ?? 0)
        }
        #expect(bytes > 0 && bytes <= 150_000, "\(bytes) bytes kept")
        #expect(Self.files(mustc).count % 2 == 0, "both sizes of a poster go together")
    }

    /// A run that keeps no new poster skips the prune while the last one met the bound (a killed download's
    /// leftover then waits for a run that downloads); a bound lowered since then is pruned to at once.
    @Test func aRunWithoutDownloadsPrunesOnlyWhenTheBoundWasLowered() async throws {
        let stub = TMDBStubServer(movies: StubMovie.synthetic(6))
        try stub.start()
        defer { stub.stop() }
        var mustc = MustcBinary(stub: stub, posters: true)
        try Self.bound(10_000_000, &mustc)
        #expect(try await mustc.run(["add", "--no-lookup", "Bob"] + (1...6).map { "Movie \($0)" }).status == 0)
        let (first, _, downloads) = try await Self.fetch(mustc)
        #expect(first.status == 0 && downloads["downloaded"] == 6, "\(first.all)")
        let kept = Self.files(mustc)
        #expect(kept.count == 12)
        let leftover = mustc.databasePath + ".posters/w185/.partial-left-by-a-killed-run"
        try Data("half".utf8).write(to: URL(fileURLWithPath: leftover))

        let (second, _, none) = try await Self.fetch(mustc)
        #expect(second.status == 0 && none["downloaded"] ?? 0 == 0 && none["removed"] ?? 0 == 0, "\(none)")
        #expect(FileManager.default.fileExists(atPath: leftover), "a run without downloads pruned")
        #expect(Self.files(mustc) == (kept + ["w185/.partial-left-by-a-killed-run"]).sorted())

        // Room for about two posters' two sizes: the next run prunes though it downloads nothing.
        try Self.bound(Self.bytesOnDisk(mustc) / 3, &mustc)
        let (third, _, pruned) = try await Self.fetch(mustc)
        #expect(third.status == 0 && pruned["downloaded"] ?? 0 == 0 && pruned["removed"] ?? 0 >= 4, "\(pruned)")
        #expect(!FileManager.default.fileExists(atPath: leftover))
        #expect(Self.files(mustc).count < kept.count && Self.files(mustc).count % 2 == 0)
    }

    /// Posters a run adds within the bound are counted on in `kept` with no check of the whole directory (a partial
    /// file a killed run left stays); the run whose downloads would pass the bound checks it and prunes at once.
    @Test func newPostersWithinTheBoundAreCountedOnAndTheRunPastItPrunes() async throws {
        let stub = TMDBStubServer(movies: StubMovie.synthetic(9))
        try stub.start()
        defer { stub.stop() }
        var mustc = MustcBinary(stub: stub, posters: true)
        let keptFile = mustc.databasePath + ".posters/kept"
        func kept() -> Int? { (try? String(contentsOfFile: keptFile, encoding: .utf8)).flatMap { Int($0) } }
        func onDisk() -> Int { Self.bytesOnDisk(mustc) }
        try Self.bound(10_000_000, &mustc)
        #expect(try await mustc.run(["add", "--no-lookup", "Bob"] + (1...3).map { "Movie \($0)" }).status == 0)
        let (first, _, three) = try await Self.fetch(mustc)
        #expect(first.status == 0 && three["downloaded"] == 3, "\(first.all)")
        #expect(kept() == onDisk())
        let leftover = mustc.databasePath + ".posters/w185/.partial-left-by-a-killed-run"
        try Data("half".utf8).write(to: URL(fileURLWithPath: leftover))

        #expect(try await mustc.run(["add", "--no-lookup", "Bob"] + (4...6).map { "Movie \($0)" }).status == 0)
        let (second, _, added) = try await Self.fetch(mustc)
        #expect(second.status == 0 && added["downloaded"] == 3 && added["removed"] ?? 0 == 0, "\(added)")
        #expect(FileManager.default.fileExists(atPath: leftover), "the directory was checked though within the bound")
        #expect(kept() == onDisk(), "kept \(kept() ?? -1), on disk \(onDisk())")

        // Room for what is there and one poster more: the third run's downloads pass the bound, so it checks.
        let sixPosters = onDisk()
        try Self.bound(sixPosters + sixPosters / 6, &mustc)
        #expect(try await mustc.run(["add", "--no-lookup", "Bob"] + (7...9).map { "Movie \($0)" }).status == 0)
        let (third, _, pruned) = try await Self.fetch(mustc)
        #expect(third.status == 0 && pruned["downloaded"] == 3 && pruned["removed"] ?? 0 >= 1, "\(pruned)")
        #expect(!FileManager.default.fileExists(atPath: leftover))
        #expect(onDisk() <= sixPosters + sixPosters / 6 && kept() == onDisk())
    }

    /// mount and umount: they return at once.
    static func system(_ path: String, _ arguments: [String]) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        try ChildLaunch.run(process)
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// A full disk: the download fails, nothing half-written stays, the fetch's result is as without posters.
    @Test(.enabled(if: getuid() == 0, "needs root to mount a small tmpfs"))
    func aFullDiskFailsTheDownloadAndLeavesNothingHalfWritten() async throws {
        let stub = TMDBStubServer(movies: StubMovie.classics)
        try stub.start()
        defer { stub.stop() }
        let mustc = try await Self.family(stub)
        let directory = mustc.databasePath + ".posters"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        // Room for one w185 card (7 KB) and the folders, not for a w342 one (22 KB).
        try #require(try Self.system("/bin/mount", ["-t", "tmpfs", "-o", "size=16k", "tmpfs", directory]) == 0)
        defer { _ = try? Self.system("/bin/umount", [directory]) }
        let (outcome, json, posters) = try await Self.fetch(mustc)
        #expect(outcome.status == 0 && json["result"] as? String == "noData", "\(outcome.all)")
        #expect(posters["failed"] == 2 && posters["downloaded"] == 0, "\(posters)")
        #expect(Self.files(mustc).isEmpty, "\(Self.files(mustc))")
    }
}
