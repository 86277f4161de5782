import Foundation
import TMDBStub
import TestSupport
import Testing

/// The core issue's done-when scenario, through mustc's commands and a loopback TMDB stub.
@Suite struct AddAndRatingsTests {
    let stub: TMDBStubServer
    let mustc: MustcBinary

    init() throws {
        stub = TMDBStubServer(movies: StubMovie.classics)
        try stub.start()
        mustc = MustcBinary(stub: stub)
    }

    @Test func threeSpellingsOfAmelieBecomeOneRatedMovieForTwoMembers() async throws {
        let first = try await mustc("add", "Alice", "Amélie")
        #expect(first.status == 0, "\(first.all)")
        #expect(first.stdout.contains("Alice now has \"Amélie\""))
        #expect(first.stdout.contains("Amélie (2001), id 194"))
        #expect(first.stdout.contains("id 194"))
        #expect(try await mustc("add", "Bob", "AMELIE").status == 0)
        let third = try await mustc("add", "bob", "ame\u{301}lie")
        #expect(third.status == 0)
        #expect(third.stdout.contains("Bob already has \"Amélie (2001)\"; nothing changed."))

        let report = try await mustc("ratings", "--format", "json")
        #expect(report.status == 0)
        let members = try #require(try report.json()["members"] as? [[String: Any]])
        #expect(members.map { $0["name"] as? String } == ["Alice", "Bob"])
        for member in members {
            let movies = try #require(member["movies"] as? [[String: Any]])
            #expect(movies.count == 1)
            let movie = try #require(movies.first)
            #expect(movie["title"] as? String == "Amélie")
            #expect(movie["year"] as? Int == 2001)
            #expect(movie["remoteId"] as? Int == 194)
            #expect(movie["popularity"] as? Double == 7.248)
            #expect(movie["voteAverage"] as? Double == 7.9)
            #expect(movie["voteCount"] as? Int == 11_412)
            #expect((movie["updatedAt"] as? String)?.hasSuffix("Z") == true)
        }
        let movies = try await mustc("movies")
        #expect(movies.stdout.split(separator: "\n").filter { $0.contains("Amélie") }.count == 1)
        // One search for the first add, none after: the movie already had its id.
        #expect(stub.requests.filter { $0.path.hasSuffix("/search/movie") }.count == 1)
    }

    @Test func tableAndCSVShowTheSameRows() async throws {
        try await mustc("add", "Alice", "Up", "Amélie")
        try await mustc("add", "Zoë", "--no-lookup", "Unknown Film")
        let table = try await mustc("ratings")
        let csv = try await mustc("ratings", "--format", "csv")
        let lines = csv.stdout.components(separatedBy: "\r\n").filter { !$0.isEmpty }
        #expect(
            lines.first
                == "member,title,year,remoteId,popularity,voteAverage,voteCount,updatedAt,"
                + "trendSince,trendPopularity,trendVoteAverage,trendVoteCount,watched,watchedOn,ownRating")
        // The same rows both ways: member, movie as shown, popularity to one decimal, rating, votes, updated.
        let fromCSV = lines.dropFirst().map { line -> [String] in
            let field = line.components(separatedBy: ",")
            let shown = field[2].isEmpty ? field[1] : "\(field[1]) (\(field[2]))"
            let popularity = field[4].isEmpty ? "–" : field[4]
            return [field[0], shown, popularity, field[5].isEmpty ? "–" : field[5], field[6].isEmpty ? "–" : field[6]]
        }
        var fromTable: [[String]] = []
        var member = ""
        for line in table.stdout.split(separator: "\n") where !line.isEmpty {
            guard line.hasPrefix("  ") else {
                member = String(line)
                continue
            }
            let cells = line.split(separator: "  ", omittingEmptySubsequences: true)
                .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            guard cells.first != "Movie" else { continue }
            fromTable.append([member] + cells.prefix(4))
        }
        #expect(fromTable == fromCSV, "\(table.stdout)")
        #expect(fromTable.count == 3)
        #expect(fromTable.contains(["Alice", "Up (2009)", "80.3", "7.9", "19300"]))
        #expect(lines.contains { $0.hasPrefix("Zoë,Unknown Film,") })
        let alice = try await mustc("ratings", "--member", "ALICE", "--format", "json")
        let members = try #require(try alice.json()["members"] as? [[String: Any]])
        #expect(members.count == 1)
        #expect((members.first?["movies"] as? [Any])?.count == 2)
    }

    @Test func unreachableTMDBStillSavesTheLinkAndExitsZero() async throws {
        var offline = mustc
        offline.environment["MUSTC_TMDB_BASE_URL"] = "http://127.0.0.1:1/3"
        let outcome = try await offline("add", "Alice", "Amélie")
        #expect(outcome.status == 0)
        #expect(outcome.stderr.contains("next fetch"))
        let report = try await offline("ratings", "--format", "json")
        let movie = try #require(
            ((try report.json()["members"] as? [[String: Any]])?.first?["movies"] as? [[String: Any]])?.first)
        #expect(movie["title"] as? String == "Amélie")
        #expect(movie["remoteId"] is NSNull)
        #expect(movie["updatedAt"] is NSNull)
    }

    @Test func nothingFoundStillSavesTheLink() async throws {
        let outcome = try await mustc("add", "Alice", "No Such Film Anywhere")
        #expect(outcome.status == 0)
        #expect(outcome.stderr.contains("TMDB found nothing"))
        #expect(try await mustc("movies").stdout.contains("No Such Film Anywhere"))
    }

    @Test func aTypoTMDBFindsNothingForIsKeptAndNamesTheCloseMovie() async throws {
        #expect(try await mustc("add", "Alice", "Spirited Away").status == 0)
        let typo = try await mustc("add", "Alice", "spirted away")
        #expect(typo.status == 0, "\(typo.all)")
        #expect(typo.stderr.contains("TMDB found nothing for \"spirted away\""), "\(typo.all)")
        #expect(typo.stdout.contains("  Did you mean Spirited Away (2001)?\n"), "\(typo.all)")
        #expect(typo.stdout.contains("    mustc resolve Alice \"spirted away\" tmdb:129    # Spirited Away (2001)"))
        // The command asks nobody: the title is kept as typed, as before.
        let movies = try await mustc("movies")
        #expect(movies.stdout.contains("spirted away") && movies.stdout.contains("Spirited Away"), "\(movies.all)")
        // Nothing close: no question.
        let far = try await mustc("add", "Alice", "No Such Film Anywhere")
        #expect(far.status == 0 && far.stderr.contains("TMDB found nothing") && !far.all.contains("Did you mean"))
    }

    @Test func removeUnlinksAndDeletesOrphans() async throws {
        try await mustc("add", "Alice", "Up")
        try await mustc("add", "Bob", "up")
        #expect(try await mustc("remove", "BOB", "UP").status == 0)
        #expect(try await mustc("movies", "--member", "alice").stdout.contains("Up"))
        let last = try await mustc("remove", "alice", "up")
        #expect(last.status == 0)
        #expect(!(try await mustc("movies").stdout.contains("Up")))
        let members = try await mustc("members")
        #expect(members.stdout.contains("Alice"))
        #expect(members.stdout.contains("Bob"))
    }

    @Test func theBinaryWorksCopiedAloneToAnotherDirectory() async throws {
        let elsewhere = TemporaryDirectory("mustc-alone")
        let copy = elsewhere.file("mustc")
        try MustcBinary.copy(to: copy)
        var alone = mustc
        alone.executable = URL(fileURLWithPath: copy)
        #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere.path) == ["mustc"])
        try await Self.waitUntilNotBusy(alone)
        #expect(try await alone("add", "Alice", "Up").status == 0)
        let report = try await alone("ratings", "--format", "json")
        #expect(report.status == 0)
        #expect(report.stdout.contains("\"remoteId\" : 14160"))
    }

    /// A copy made a moment ago can be "busy" (ETXTBSY): a child another test forked while the copy's write
    /// descriptor was open keeps that descriptor until it execs (`MustcBinary.copy` closes it on exec). The launch
    /// throws `POSIXError` (`SpawnedChild`) after its own 2 s of retries; this waits at most 10 s in all.
    static func waitUntilNotBusy(_ binary: MustcBinary) async throws {
        var ran = false
        try await Poll.until(within: .seconds(10), every: .milliseconds(100)) {
            do {
                _ = try await binary("--version")
                ran = true
            } catch let error as POSIXError where error.code == .ETXTBSY {}
            return ran
        }
        if !ran { _ = try await binary("--version") }
    }
}
