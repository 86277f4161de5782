import Foundation
import TMDBStub
import Testing

/// Which movie: remakes side by side, ids, no fuzzy guesses, resolve, merges and old databases, through the built
/// binary and the loopback stub.
@Suite struct IdentityTests {
    let stub: TMDBStubServer
    let mustc: MustcBinary

    init() throws {
        stub = TMDBStubServer(movies: StubMovie.classics + StubMovie.identity)
        try stub.start()
        mustc = MustcBinary(stub: stub)
    }

    /// The movies of each member in `ratings --format json`, by member name.
    func ratings() async throws -> [String: [[String: Any]]] {
        let report = try await mustc("ratings", "--format", "json")
        #expect(report.status == 0, "\(report.all)")
        let members = try #require(try report.json()["members"] as? [[String: Any]])
        var result: [String: [[String: Any]]] = [:]
        for member in members {
            result[try #require(member["name"] as? String)] = try #require(member["movies"] as? [[String: Any]])
        }
        return result
    }

    var searches: [RecordedRequest] { stub.requests.filter { $0.path == "/3/search/movie" } }

    @Test func twoMembersKeepTheTwoDunesAsTwoRatedMovies() async throws {
        let ann = try await mustc("add", "Ann", "Dune (1984)")
        #expect(ann.status == 0, "\(ann.all)")
        #expect(ann.stdout.contains("Ann now has \"Dune (1984)\".") && ann.stdout.contains("id 841"))
        let bob = try await mustc("add", "Bob", "dune", "--year", "2021")
        #expect(bob.status == 0, "\(bob.all)")
        #expect(bob.stdout.contains("Bob now has \"dune (2021)\".") && bob.stdout.contains("id 438631"))
        #expect(searches.map { $0.query["year"] } == ["1984", "2021"])

        let movies = try await ratings()
        #expect(movies["Ann"]?.map { $0["remoteId"] as? Int } == [841])
        #expect(movies["Ann"]?.map { $0["year"] as? Int } == [1984])
        #expect(movies["Ann"]?.first?["voteCount"] as? Int == 2_900)
        #expect(movies["Bob"]?.map { $0["remoteId"] as? Int } == [438631])
        #expect(movies["Bob"]?.map { $0["year"] as? Int } == [2021])
        let table = try await mustc("ratings")
        #expect(table.stdout.contains("Dune (1984)") && table.stdout.contains("Dune (2021)"))
        let csv = try await mustc("ratings", "--format", "csv")
        #expect(csv.stdout.contains("Ann,Dune,1984,841,"))
        let list = try await mustc("movies")
        #expect(list.stdout.contains("Dune (1984)") && list.stdout.contains("Dune (2021)"))
    }

    @Test func remakesWithoutAYearSayWhichWasTakenAndHowToPickAnother() async throws {
        let added = try await mustc("add", "Ann", "Dune")
        #expect(added.status == 0, "\(added.all)")
        #expect(added.stdout.contains("took the most popular, Dune (2021), tmdb:438631"))
        let pick = "mustc resolve Ann \"Dune (2021)\" tmdb:841    # Dune (1984), tmdb:841"
        #expect(added.stdout.contains(pick), "\(added.stdout)")
        let resolved = try await mustc("resolve", "Ann", "Dune (2021)", "tmdb:841")
        #expect(resolved.status == 0, "\(resolved.all)")
        #expect(resolved.stdout.contains("is now Dune (1984), tmdb:841"))
        let movies = try await ratings()
        #expect(movies["Ann"]?.map { $0["remoteId"] as? Int } == [841])
        #expect(movies["Ann"]?.map { $0["year"] as? Int } == [1984])
    }

    @Test func addByTMDBAndIMDbIdsAndURLs() async throws {
        let byTMDB = try await mustc("add", "Ann", "tmdb:438631")
        #expect(byTMDB.status == 0, "\(byTMDB.all)")
        #expect(byTMDB.stdout.contains("Ann now has tmdb:438631.\n  TMDB: Dune (2021), id 438631"))
        stub.resetCounters()
        // Details gave the IMDb id too, so naming it that way finds the same movie without asking TMDB.
        let byIMDb = try await mustc("add", "Bob", "imdb:tt1160419")
        #expect(byIMDb.stdout.contains("Bob now has \"Dune (2021)\"."), "\(byIMDb.all)")
        #expect(stub.requestCount == 0)
        let imdbURL = try await mustc("add", "Cleo", "https://www.imdb.com/title/tt0087182/")
        #expect(imdbURL.status == 0 && imdbURL.stdout.contains("TMDB: Dune (1984), id 841"), "\(imdbURL.all)")
        #expect(stub.requests.map(\.path) == ["/3/find/tt0087182"])
        let tmdbURL = try await mustc("add", "Dan", "https://www.themoviedb.org/movie/8587-the-lion-king")
        #expect(tmdbURL.status == 0 && tmdbURL.stdout.contains("id 8587"), "\(tmdbURL.all)")

        let movies = try await ratings()
        #expect(movies["Ann"]?.map { $0["remoteId"] as? Int } == [438631])
        #expect(movies["Bob"]?.map { $0["remoteId"] as? Int } == [438631])
        #expect(movies["Cleo"]?.map { $0["remoteId"] as? Int } == [841])
        #expect(movies["Dan"]?.map { $0["title"] as? String } == ["The Lion King"])
        #expect(movies["Dan"]?.map { $0["year"] as? Int } == [1994])
    }

    @Test func idsTMDBDoesNotKnowAreNotesAndKeepTheLink() async throws {
        let tmdb = try await mustc("add", "Ann", "tmdb:99999999")
        #expect(tmdb.status == 0 && tmdb.stderr.contains("TMDB has no movie tmdb:99999999"), "\(tmdb.all)")
        let imdb = try await mustc("add", "Ann", "imdb:tt9999999")
        #expect(imdb.status == 0 && imdb.stderr.contains("TMDB knows no movie with IMDb id tt9999999"), "\(imdb.all)")
        let movies = try await ratings()
        #expect(movies["Ann"]?.compactMap { $0["title"] as? String }.sorted() == ["imdb:tt9999999", "tmdb:99999999"])
    }

    @Test func aFuzzyQueryLinksNothingListsCandidatesAndResolveSettlesIt() async throws {
        let added = try await mustc("add", "Ann", "Disney")
        #expect(added.status == 0, "\(added.all)")
        #expect(added.stdout.contains("No TMDB title is exactly \"Disney\""))
        let pick = "mustc resolve Ann Disney tmdb:1027159    # Andor: A Disney+ Day Special Look (2022), tmdb:1027159"
        #expect(added.stdout.contains(pick), "\(added.stdout)")
        #expect(added.stdout.contains("mustc resolve Ann Disney tmdb:603692    # Disneyland Dream, tmdb:603692"))
        #expect(try await ratings()["Ann"]?.first?["remoteId"] is NSNull)

        let status = try await mustc("status")
        #expect(status.stdout.contains("Movies that need a choice"), "\(status.all)")
        #expect(status.stdout.contains("    mustc resolve Ann Disney tmdb:603692    # Disneyland Dream"))
        let json = try await mustc("status", "--json").json()
        let waiting = try #require(json["needsChoice"] as? [[String: Any]])
        #expect(waiting.first?["title"] as? String == "Disney")
        #expect(
            (waiting.first?["candidates"] as? [[String: Any]])?.map { $0["remoteId"] as? Int } == [1_027_159, 603_692])

        let resolved = try await mustc("resolve", "ann", "DISNEY", "tmdb:603692")
        #expect(resolved.status == 0, "\(resolved.all)")
        #expect(resolved.stdout.contains("\"Disney\" is now Disneyland Dream, tmdb:603692 for everyone who keeps it."))
        #expect(try await ratings()["Ann"]?.first?["remoteId"] as? Int == 603_692)
        #expect(!(try await mustc("status").stdout.contains("Movies that need a choice")))
    }

    @Test func aFetchSearchesWithTheYearAndNeverResolvesByAFuzzyMatch() async throws {
        #expect(try await mustc("add", "--no-lookup", "Ann", "Disney", "Up", "Dune (1984)").status == 0)
        let fetch = try await mustc("fetch", "--force")
        #expect(fetch.status == 0, "\(fetch.all)")
        let movies = try await ratings()
        // The year given at add reaches the fetch's search: the 1984 film, not its more popular remake.
        #expect(movies["Ann"]?.map { $0["remoteId"] as? Int } == [nil, 841, 14160])
        let status = try await mustc("status")
        #expect(status.stdout.contains("no TMDB title matches \"Disney\" exactly"), "\(status.all)")
    }

    @Test func aMergedSpellingStillWorksForRemoveAndAdd() async throws {
        #expect(try await mustc("add", "--no-lookup", "Ann", "Amélie").status == 0)
        #expect(try await mustc("add", "--no-lookup", "Bob", "Le Fabuleux Destin d'Amélie Poulain").status == 0)
        let fetch = try await mustc("fetch", "--force")
        #expect(fetch.status == 0, "\(fetch.all)")
        let listed = try await mustc("movies", "--format", "json")
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]])
        #expect(rows.count == 1 && rows.first?["members"] as? [String] == ["Ann", "Bob"])
        stub.resetCounters()
        let again = try await mustc("add", "Cleo", "LE FABULEUX DESTIN D'AMELIE POULAIN")
        #expect(again.stdout.contains("Cleo now has \"Amélie (2001)\"."), "\(again.all)")
        #expect(stub.requestCount == 0)
        let removed = try await mustc("remove", "Bob", "le fabuleux destin d'amelie poulain")
        #expect(removed.status == 0, "\(removed.all)")
        #expect(removed.stdout.contains("Bob no longer has \"Amélie (2001)\"."))
    }

    @Test func addingAnotherSpellingOfAResolvedMovieSaysWhatWasMerged() async throws {
        #expect(try await mustc("add", "Ann", "Amélie").status == 0)
        let bob = try await mustc("add", "Bob", "Le Fabuleux Destin d'Amélie Poulain")
        #expect(bob.stdout.contains("are the same TMDB movie: merged into one"), "\(bob.all)")
        #expect(try await mustc("remove", "Bob", "le fabuleux destin d'amelie poulain").status == 0)
        #expect(try await ratings()["Bob"]?.isEmpty == true)
    }

    @Test func removeAsksWhichRemakeAMemberMeans() async throws {
        #expect(try await mustc("add", "Ann", "Dune (1984)", "Dune (2021)").status == 0)
        let vague = try await mustc("remove", "Ann", "Dune")
        #expect(vague.status == 64)
        #expect(vague.stderr.contains("\"Dune (1984)\", \"Dune (2021)\""), "\(vague.all)")
        #expect(try await ratings()["Ann"]?.count == 2)
        let exact = try await mustc("remove", "Ann", "Dune", "--year", "1984")
        #expect(exact.status == 0 && exact.stdout.contains("Ann no longer has \"Dune (1984)\"."), "\(exact.all)")
        #expect(try await mustc("remove", "Ann", "tmdb:438631").status == 0)
        #expect(try await ratings()["Ann"]?.isEmpty == true)
    }

    @Test func aTitleTypedWithItsYearBeforeTheUpgradeIsFetchedAsThatYear() async throws {
        try writeOldDatabase(
            at: mustc.databasePath,
            rows: """
                INSERT INTO member VALUES (1, 'Ann', 'ann', '2026-11-01');
                INSERT INTO movie (id, title, titleKey, createdAt) VALUES (1, 'Dune (1984)', 'dune (1984)', '2026-11-01');
                INSERT INTO memberMovie VALUES (1, 1, '2026-11-01');
                """)
        let fetch = try await mustc("fetch", "--force")
        #expect(fetch.status == 0, "\(fetch.all)")
        #expect(searches.map { $0.query["query"] } == ["Dune"] && searches.map { $0.query["year"] } == ["1984"])
        let movie = try #require(try await ratings()["Ann"]?.first)
        #expect(movie["remoteId"] as? Int == 841 && movie["year"] as? Int == 1984)
        let table = try await mustc("ratings").stdout
        #expect(table.contains("Dune (1984) ") && !table.contains("(1984) (1984)"))
    }

    /// Runs mustc on a pseudo-terminal (util-linux `script`) with `input` typed, as a person at a terminal would.
    func atTerminal(_ arguments: [String], typing input: String) async throws -> Outcome {
        let command = ([MustcBinary.url.path] + arguments).map { "'" + $0 + "'" }.joined(separator: " ")
        var terminal = mustc
        terminal.executable = URL(fileURLWithPath: "/usr/bin/script")
        let inputPath = mustc.home.file("typed-\(UUID().uuidString)")
        try input.write(toFile: inputPath, atomically: true, encoding: .utf8)
        let running = try terminal.start(["-q", "-e", "-c", command, "/dev/null"], stdin: inputPath)
        let (outcome, exited) = await running.wait(orKillAfter: MustcBinary.deadline)
        guard exited else { throw BinaryError.timedOut(arguments, seconds: MustcBinary.deadline) }
        return outcome
    }

    @Test func atATerminalAddOffersANumberedChoice() async throws {
        let fuzzy = try await atTerminal(["add", "Ann", "Disney"], typing: "2\n")
        #expect(fuzzy.status == 0, "\(fuzzy.all)")
        #expect(fuzzy.stdout.contains("  2. mustc resolve Ann Disney tmdb:603692"), "\(fuzzy.stdout)")
        #expect(fuzzy.stdout.contains("Which one? 1-2, or Enter for none yet:"))
        let remake = try await atTerminal(["add", "Ann", "Dune"], typing: "1\n")
        #expect(remake.stdout.contains("TMDB: Dune (1984), id 841"), "\(remake.stdout)")
        let none = try await atTerminal(["add", "Bob", "007"], typing: "\n")
        #expect(none.status == 0 && none.stdout.contains("Which one? 1, or Enter for none yet:"), "\(none.all)")
        let movies = try await ratings()
        #expect(movies["Ann"]?.map { $0["remoteId"] as? Int } == [603_692, 841])
        #expect(movies["Bob"]?.map { $0["remoteId"] as? Int } == [nil])
        #expect(try await mustc("status").stdout.contains("mustc resolve Bob 007 tmdb:47190"))
    }
}
