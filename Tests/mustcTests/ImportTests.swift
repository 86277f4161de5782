import Foundation
import TMDBStub
import TestSupport
import Testing
import ZIPFoundation

/// `mustc import` and `mustc export` through mustc's commands and the loopback stub, with sample files in the real
/// column layouts of Letterboxd's and IMDb's exports.
@Suite final class ImportTests {
    let stub: TMDBStubServer
    let mustc: MustcBinary

    static let extra = [
        StubMovie(id: 146, title: "Crouching Tiger, Hidden Dragon", popularity: 30, releaseDate: "2000-07-06"),
        StubMovie(id: 900_001, title: "The \"Quoted\" Movie", popularity: 1, releaseDate: "1999-03-01"),
    ]

    init() throws {
        stub = TMDBStubServer(movies: StubMovie.classics + StubMovie.identity + Self.extra)
        try stub.start()
        mustc = MustcBinary(stub: stub)
    }

    deinit { stub.stop() }

    func file(_ name: String, _ text: String) throws -> String {
        let path = mustc.home.file(name)
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// Runs `import --json` and returns the summary.
    func imported(_ arguments: String..., status: Int32 = 0) async throws -> (json: [String: Any], outcome: Outcome) {
        let outcome = try await mustc.run(["import", "--json"] + arguments)
        #expect(outcome.status == status, "\(outcome.all)")
        return (try outcome.json(), outcome)
    }

    /// Each member's movies as (title, year, TMDB id), from `ratings --format json`.
    func lists(_ binary: MustcBinary? = nil) async throws -> [String: [String]] {
        let report = try await (binary ?? mustc)("ratings", "--format", "json")
        #expect(report.status == 0, "\(report.all)")
        var result: [String: [String]] = [:]
        for member in try #require(try report.json()["members"] as? [[String: Any]]) {
            let movies = try #require(member["movies"] as? [[String: Any]])
            result[try #require(member["name"] as? String)] = movies.map {
                "\($0["title"] as? String ?? "?") \($0["year"] as? Int ?? 0) \($0["remoteId"] as? Int ?? 0)"
            }
        }
        return result
    }

    static let watchlist =
        "\u{FEFF}Date,Name,Year,Letterboxd URI\r\n"
        + "2024-01-02,Dune,1984,https://boxd.it/2a1s\r\n"
        + "2024-01-03,Dune,2021,https://boxd.it/hTha\r\n"
        + "2024-01-04,\"Crouching Tiger, Hidden Dragon\",2000,https://boxd.it/1Y6e\r\n"
        + "2024-01-05,\"The \"\"Quoted\"\" Movie\",1999,https://boxd.it/zzzz\r\n"
        + "2024-01-06,Disney,,https://boxd.it/d1s\r\n"

    @Test func letterboxdWatchlistWithARemakePairGivesTwoMovies() async throws {
        let (json, outcome) = try await imported("Ann", try file("watchlist.csv", Self.watchlist))
        #expect(json["rows"] as? Int == 5 && json["linked"] as? Int == 5, "\(outcome.all)")
        #expect(json["exact"] as? Int == 4 && json["needsChoice"] as? Int == 1 && json["invalid"] as? Int == 0)
        let searches = stub.requests.filter { $0.path == "/3/search/movie" }
        // Four lookups at a time: the order of the requests is not the order of the rows.
        #expect(Set(searches.map { $0.query["year"] ?? "none" }) == ["1984", "2021", "2000", "1999", "none"])
        let ann = try #require(try await lists()["Ann"])
        #expect(ann.contains("Dune 1984 841") && ann.contains("Dune 2021 438631"), "\(ann)")
        #expect(ann.contains("Crouching Tiger, Hidden Dragon 2000 146"))
        #expect(ann.contains("The \"Quoted\" Movie 1999 900001"))
        #expect(ann.contains("Disney 0 0"), "unmatched rows are kept, unresolved")
        let status = try await mustc("status")
        #expect(status.stdout.contains("mustc resolve Ann Disney tmdb:603692"), "\(status.all)")
        // The lookups counted as each movie's first check: a fetch now has nothing due but Disney.
        let fetch = try await mustc("fetch", "--json")
        #expect(try fetch.json()["movies"] as? Int == 1, "\(fetch.all)")
    }

    static let imdbRatings =
        "Const,Your Rating,Date Rated,Title,Original Title,URL,Title Type,IMDb Rating,Runtime (mins),Year,Genres,"
        + "Num Votes,Release Date,Directors\n"
        + "tt0087182,7,2024-02-01,Dune,Dune,https://www.imdb.com/title/tt0087182/,Movie,6.3,137,1984,"
        + "\"Action, Adventure, Sci-Fi\",170000,1984-12-03,David Lynch\n"
        + "tt0903747,10,2024-02-02,Breaking Bad,Breaking Bad,https://www.imdb.com/title/tt0903747/,TV Series,9.5,"
        + "49,2008,\"Crime, Drama, Thriller\",2000000,2008-01-20,\n"
        + "tt0110357,9,2024-02-03,The Lion King,The Lion King,https://www.imdb.com/title/tt0110357/,movie,8.5,88,"
        + "1994,\"Animation, Adventure, Drama\",1100000,1994-06-10,\"Roger Allers, Rob Minkoff\"\n"

    @Test func imdbRatingsExportSkipsATVSeriesAndCountsIt() async throws {
        let (json, outcome) = try await imported("Bob", try file("ratings.csv", Self.imdbRatings))
        #expect(json["rows"] as? Int == 3 && json["skipped"] as? Int == 1, "\(outcome.all)")
        #expect(json["linked"] as? Int == 2 && json["exact"] as? Int == 2)
        #expect(stub.requests.map(\.path).sorted() == ["/3/find/tt0087182", "/3/find/tt0110357"])
        #expect(try await lists()["Bob"] == ["Dune 1984 841", "The Lion King 1994 8587"])
        // The IMDb ids are kept: naming the movie that way finds it without asking TMDB.
        stub.resetCounters()
        let added = try await mustc("add", "Cleo", "imdb:tt0110357")
        #expect(added.stdout.contains("Cleo now has \"The Lion King (1994)\"."), "\(added.all)")
        #expect(stub.requestCount == 0)
        // A dry run tells every row, in the file's order, though the known ones are settled first.
        let dry = try await mustc("import", "--dry-run", "Dan", mustc.home.file("ratings.csv"))
        let lines = dry.stdout.split(separator: "\n").filter { $0.contains("ratings.csv:") }
        #expect(
            lines.map { $0.split(separator: " ")[0].split(separator: ":").last } == ["2", "3", "4"], "\(dry.stdout)")
        #expect(lines[1].hasSuffix("skipped: a TV Series, not a movie"))
    }

    @Test func imdbListExportWithLineBreaksInsideQuotesNamesTheRightLines() async throws {
        let list =
            "Position,Const,Created,Modified,Description,Title,URL,Title Type,IMDb Rating,Runtime (mins),Year,"
            + "Genres,Num Votes,Release Date,Directors\r\n"
            + "1,tt1160419,2024-03-01,2024-03-01,\"Part one,\r\nwith \"\"spice\"\"\r\nand worms\",Dune: Part One,"
            + "https://www.imdb.com/title/tt1160419/,tvMovie,8.0,155,2021,Sci-Fi,900000,2021-09-15,Denis Villeneuve\r\n"
            + "2,nm0000123,2024-03-01,2024-03-01,,Someone,https://www.imdb.com/name/nm0000123/,movie,,,,,,,\r\n"
            + "3,tt6105098,2024-03-01,2024-03-01,,The Lion King,https://www.imdb.com/title/tt6105098/,Movie,6.8,118,"
            + "2019,Animation,300000,2019-07-11,Jon Favreau\r\n"
        let (json, outcome) = try await imported("Ann", try file("list.csv", list))
        #expect(json["rows"] as? Int == 3 && json["invalid"] as? Int == 1 && json["linked"] as? Int == 2)
        // The first row spans lines 2 to 4, so the bad IMDb id is on line 5.
        #expect(outcome.stderr.contains("list.csv:5: invalid row"), "\(outcome.stderr)")
        #expect(outcome.stderr.contains("\"nm0000123\" is not an IMDb id"))
        // Linked movies show TMDB's title, not the list's.
        #expect(try await lists()["Ann"] == ["Dune 2021 438631", "The Lion King 2019 420818"])
    }

    @Test func exportImportedIntoAnEmptyDatabaseRoundTrips() async throws {
        _ = try await imported("Ann", try file("watchlist.csv", Self.watchlist))
        _ = try await imported("Bob", try file("ratings.csv", Self.imdbRatings))
        let before = try await lists()
        let csv = try await mustc("export")
        #expect(csv.status == 0, "\(csv.all)")
        #expect(csv.stdout.hasPrefix("member,title,year,tmdbId,imdbId,popularity,voteAverage,voteCount,updatedAt"))
        #expect(csv.stdout.contains("Bob,Dune,1984,841,tt0087182,"), "\(csv.stdout)")
        let json = try await mustc("export", "--format", "json", "--member", "bob")
        let movies = try #require(
            (try json.json()["members"] as? [[String: Any]])?.first?["movies"] as? [[String: Any]])
        #expect(movies.map { $0["imdbId"] as? String } == ["tt0087182", "tt0110357"])
        #expect(movies.map { $0["year"] as? Int } == [1984, 1994])

        let exported = try file("export.csv", csv.stdout)
        let fresh = MustcBinary(stub: stub)
        stub.resetCounters()
        for member in ["Ann", "Bob"] {
            let outcome = try await fresh.run(["import", "--json", member, exported])
            #expect(outcome.status == 0, "\(outcome.all)")
            #expect(try outcome.json()["skipped"] as? Int == (member == "Ann" ? 2 : 5), "other members' rows")
        }
        #expect(try await lists(fresh) == before)
        // Rows with a TMDB id need no lookup; only Disney, still unresolved, is searched for again.
        #expect(stub.requests.map(\.path) == ["/3/search/movie"], "\(stub.requests.map(\.path))")
    }

    @Test func anEmptyFamilysExportIsItsHeaderAndImportsBack() async throws {
        let csv = try await mustc("export")
        #expect(csv.status == 0 && csv.stdout.hasPrefix("member,title,year,"), "\(csv.all)")
        #expect(csv.stdout.hasSuffix(",letterboxdUri,mustcId\r\n") && csv.stdout.split(separator: "\r\n").count == 1)
        let back = try await mustc("import", "Ann", try file("empty-export.csv", csv.stdout))
        #expect(back.status == 0 && back.stdout.contains("Ann: 0 rows"), "\(back.all)")
    }

    @Test func exportWritesNothingToTheDatabaseAndUpgradesAnOldOneFirst() async throws {
        _ = try await imported("Ann", try file("ratings.csv", Self.imdbRatings))
        let database = mustc.databasePath
        let bytes = try Data(contentsOf: URL(fileURLWithPath: database))
        let modified = try FileManager.default.attributesOfItem(atPath: database)[.modificationDate] as? Date
        let csv = try await mustc("export", "--member", "ann")
        #expect(csv.status == 0 && csv.stdout.contains("Ann,The Lion King,1994,8587,tt0110357,"), "\(csv.all)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: database)) == bytes)
        #expect(try FileManager.default.attributesOfItem(atPath: database)[.modificationDate] as? Date == modified)
        let nobody = try await mustc("export", "--member", "Zed")
        #expect(nobody.status == 64 && nobody.stderr.contains("there is no member \"Zed\""), "\(nobody.all)")

        let old = MustcBinary()
        try writeOldDatabase(
            at: old.databasePath,
            rows: """
                INSERT INTO member VALUES (1, 'Ann', 'ann', '2026-11-01');
                INSERT INTO movie (id, title, titleKey, remoteId, voteAverage, voteCount, releaseDate, updatedAt,
                    createdAt)
                VALUES (1, 'Amélie', 'amelie', 194, 7.9, 11412, '2001-04-25', '2026-11-02 10:00:00.000', '2026-11-01');
                INSERT INTO memberMovie VALUES (1, 1, '2026-11-01');
                """)
        let upgraded = try await old.run(["export"])
        #expect(upgraded.status == 0 && upgraded.stdout.contains("Ann,Amélie,2001,194,,"), "\(upgraded.all)")
    }

    @Test func aSecondImportLinksNothingAndAsksTMDBNothing() async throws {
        let path = try file("watchlist.csv", Self.watchlist)
        _ = try await imported("Ann", path)
        stub.resetCounters()
        let (json, _) = try await imported("ann", path)
        #expect(json["linked"] as? Int == 0 && json["alreadyLinked"] as? Int == 5)
        #expect(stub.requestCount == 0)
        let text = try await mustc("import", "Ann", path)
        #expect(text.stdout.contains("Ann: 5 rows; linked 0, 5 already linked."), "\(text.all)")
    }

    @Test func aDryRunLooksUpButLeavesTheDatabaseByteIdentical() async throws {
        _ = try await imported("Ann", try file("ratings.csv", Self.imdbRatings))
        let database = mustc.databasePath
        let dump = { () throws -> String in
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
            process.arguments = ["-readonly", database, ".dump"]
            let pipe = Pipe()
            process.standardOutput = pipe
            try ChildLaunch.run(process)
            let data = pipe.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return String(decoding: data, as: UTF8.self)
        }
        let modified = { try FileManager.default.attributesOfItem(atPath: database)[.modificationDate] as? Date }
        let (dumpBefore, dateBefore) = (try dump(), try modified())
        stub.resetCounters()
        let dry = try await mustc("import", "--dry-run", "Ann", try file("watchlist.csv", Self.watchlist))
        #expect(dry.status == 0, "\(dry.all)")
        #expect(dry.stdout.contains("watchlist.csv:3  \"Dune (2021)\": Dune (2021), tmdb:438631"), "\(dry.stdout)")
        // Dune (1984) came with the IMDb ratings: known, so not looked up again.
        #expect(dry.stdout.contains("watchlist.csv:2  \"Dune (1984)\": already on Ann's list"))
        #expect(dry.stdout.contains("Dry run, nothing written: 5 rows; would link 4 to Ann's list, 1 already there."))
        #expect(stub.requestCount == 4, "a dry run does the lookups")
        #expect(try dump() == dumpBefore)
        #expect(try modified() == dateBefore)
        // Without a database, a dry run does not create one.
        let empty = MustcBinary(stub: stub)
        let none = try await empty.run([
            "import", "--dry-run", "--json", "Ann", try file("w2/watchlist.csv", Self.watchlist),
        ])
        #expect(none.status == 0, "\(none.all)")
        #expect(try none.json()["linked"] as? Int == 5)
        #expect(!FileManager.default.fileExists(atPath: empty.databasePath))
    }

    @Test func malformedRowsAreReportedByLineAndTheRestImported() async throws {
        let text =
            "Date,Name,Year,Letterboxd URI\n"
            + "2024-01-02,Up,2009,https://boxd.it/1\n"
            + "2024-01-03,\"Spirited Away,2001,https://boxd.it/2\n"
            + "2024-01-04,Amélie,2001,https://boxd.it/3\n"
            + "2024-01-05,My Neighbor Totoro,19 88,https://boxd.it/4\n"
        let (json, outcome) = try await imported("Ann", try file("watched.csv", text))
        #expect(json["rows"] as? Int == 4 && json["invalid"] as? Int == 2 && json["linked"] as? Int == 2)
        #expect(outcome.stderr.contains("watched.csv:3: invalid row, not imported: an unbalanced quote"))
        #expect(outcome.stderr.contains("watched.csv:5: invalid row, not imported: the year \"19 88\""))
        #expect(try await lists()["Ann"] == ["Amélie 2001 194", "Up 2009 14160"])

        let bad = try file("bad/watchlist.csv", "Date,Name,Year,Letterboxd URI\n2024-01-02,Up,twenty,u\n")
        let all = try await mustc("import", "Bob", bad)
        #expect(all.status == 64 && all.stderr.contains("every row of \(bad) is invalid"), "\(all.all)")
        #expect(try await lists()["Bob"] == nil)
    }

    @Test func letterboxdExportZipImportsItsLists() async throws {
        let path = mustc.home.file("letterboxd-ann-2026-11-23-10-00-utc.zip")
        let archive = try Archive(url: URL(fileURLWithPath: path), accessMode: .create)
        let entries = [
            ("watchlist.csv", "Date,Name,Year,Letterboxd URI\n2024-01-02,Dune,2021,https://boxd.it/hTha\n"),
            (
                "watched.csv",
                "Date,Name,Year,Letterboxd URI\n2024-01-02,Up,2009,https://boxd.it/1\n2024-01-03,Dune,1984,u\n"
            ),
            (
                "diary.csv",
                "Date,Name,Year,Letterboxd URI,Rating,Rewatch,Tags,Watched Date\n"
                    + "2024-01-05,Up,2009,https://boxd.it/d1,4.5,,,2024-01-04\n"
                    + "2024-02-05,Up,2009,https://boxd.it/d2,5,Yes,\"family, rainy day\",2024-02-04\n"
            ),
            ("deleted/diary.csv", "Date,Name,Year,Letterboxd URI\n2024-01-02,Amélie,2001,u\n"),
            ("profile.csv", "Date Joined,Username,Given Name\n2020-01-01,ann,Ann\n"),
        ]
        for (name, text) in entries {
            let data = Data(text.utf8)
            try archive.addEntry(with: name, type: .file, uncompressedSize: Int64(data.count)) { position, size in
                data.subdata(in: Int(position)..<Int(position) + size)
            }
        }
        let (json, outcome) = try await imported("Ann", path)
        #expect(json["rows"] as? Int == 5 && json["linked"] as? Int == 3, "\(outcome.all)")
        #expect(json["alreadyLinked"] as? Int == 2 && json["exact"] as? Int == 3)
        #expect(try await lists()["Ann"] == ["Dune 1984 841", "Dune 2021 438631", "Up 2009 14160"])
        let dry = try await mustc("import", "--dry-run", "Ann", path)
        #expect(dry.stdout.contains("\(path):diary.csv:3  \"Up (2009)\": already on Ann's list"), "\(dry.stdout)")
    }

    @Test func unreadableFilesExit64NamingWhatIsMissingAndWriteNothing() async throws {
        let letterboxd = try file("watchlist.csv", Self.watchlist)
        let missing = try await mustc("import", "Ann", letterboxd, mustc.home.file("nope.csv"))
        #expect(missing.status == 64 && missing.stderr.contains("nope.csv: it does not exist"), "\(missing.all)")
        let unknown = try await mustc("import", "Ann", try file("other.csv", "a,b,c\n1,2,3\n"))
        #expect(unknown.status == 64 && unknown.stderr.contains("its header (a,b,c) is not a list"), "\(unknown.all)")
        let wrong = try await mustc("import", "Ann", "--format", "imdb", letterboxd)
        #expect(wrong.status == 64 && wrong.stderr.contains("it has no Const, Title columns"), "\(wrong.all)")
        #expect(!FileManager.default.fileExists(atPath: mustc.databasePath))
        #expect(stub.requestCount == 0)
    }

    @Test func withoutCredentialsRowsAreKeptForTheFirstFetchAndSaidSoOnce() async throws {
        let offline = MustcBinary()
        let known = try file("ids.csv", "title,year,tmdbId\nUp,2009,14160\n")
        let quiet = try await offline.run(["import", "--json", "Ann", known])
        #expect(quiet.status == 0 && !quiet.stderr.contains("no TMDB credentials"), "\(quiet.all)")
        let outcome = try await offline.run(["import", "--json", "Ann", try file("watchlist.csv", Self.watchlist)])
        #expect(outcome.status == 0, "\(outcome.all)")
        #expect(outcome.stderr.components(separatedBy: "no TMDB credentials").count == 2, "\(outcome.stderr)")
        let summary = try outcome.json()
        #expect(summary["linked"] as? Int == 5 && summary["failed"] as? Int == 5)
        #expect(try await lists(offline)["Ann"]?.count == 6)
    }

    @Test func aRowTMDBFindsNothingForNamesAKeptMovieATypoAway() async throws {
        #expect(try await mustc("add", "Ann", "Spirited Away").status == 0)
        let path = try file("typos.csv", "title,year\nspirted away,\nNo Such Film Anywhere,\n")
        let outcome = try await mustc("import", "Ann", path)
        #expect(outcome.status == 0, "\(outcome.all)")
        let lines = outcome.stdout.components(separatedBy: "\n")
        let typo = try #require(
            lines.firstIndex { $0.hasSuffix("\"spirted away\": TMDB found nothing; kept without a TMDB id.") })
        #expect(lines[typo + 1] == "  Did you mean Spirited Away (2001)?", "\(outcome.stdout)")
        #expect(lines[typo + 2] == "    mustc resolve Ann \"spirted away\" tmdb:129    # Spirited Away (2001)")
        #expect(outcome.stdout.components(separatedBy: "Did you mean").count == 2, "\(outcome.stdout)")
        #expect(outcome.stdout.contains("\"No Such Film Anywhere\": TMDB found nothing"), "\(outcome.stdout)")
        // Kept as written: the import asks nobody.
        #expect(try await lists()["Ann"]?.contains("spirted away 0 0") == true)
    }

    @Test func aProgressBarAtATerminalOnlyAndNoQuestionsAsked() async throws {
        let path = try file("watchlist.csv", Self.watchlist)
        let command = [MustcBinary.url.path, "import", "Ann", path].map { "'" + $0 + "'" }.joined(separator: " ")
        var terminal = mustc
        terminal.executable = URL(fileURLWithPath: "/usr/bin/script")
        let running = try terminal.start(["-q", "-e", "-c", command, "/dev/null"])
        let (outcome, exited) = await running.wait(orKillAfter: MustcBinary.deadline)
        #expect(exited && outcome.status == 0, "\(outcome.all)")
        #expect(outcome.stdout.contains("\r[#"), "\(outcome.stdout)")
        #expect(outcome.stdout.contains("[##############################] 5 rows  linked 5"), "\(outcome.stdout)")
        #expect(!outcome.stdout.contains("Which one?"), "import never asks, even at a terminal")
        let off = try await mustc("import", "Bob", path)
        #expect(off.status == 0 && !off.stdout.contains("\r") && off.stdout.contains("Bob: 5 rows"), "\(off.all)")
    }

    @Test func addKeepsToTheRateLimit() async throws {
        var slow = mustc
        let config = slow.home.file("slow.json")
        try #"{"tmdb": {"maxRequestsPerSecond": 4}}"#.write(toFile: config, atomically: true, encoding: .utf8)
        slow.environment["MUSTC_CONFIG"] = config
        let started = ContinuousClock.now
        let added = try await slow("add", "Ann", "Up", "Amélie", "Spirited Away", "My Neighbor Totoro", "Dune (1984)")
        #expect(added.status == 0, "\(added.all)")
        // Five requests at four a second: the fifth waits a full second after the first.
        #expect(ContinuousClock.now - started >= .seconds(1))
        #expect(stub.requestCount == 5)
    }
}

/// SIGINT in the middle of a long import: what was linked stays, and importing again continues.
@Suite final class ImportInterruptionTests {
    let stub: TMDBStubServer
    let mustc: MustcBinary

    init() throws {
        stub = TMDBStubServer(movies: StubMovie.synthetic(40))
        try stub.start()
        var mustc = MustcBinary(stub: stub)
        let config = mustc.home.file("config.json")
        try #"{"tmdb": {"maxRequestsPerSecond": 1000, "requestTimeout": "120s"}}"#.write(
            toFile: config, atomically: true, encoding: .utf8)
        mustc.environment["MUSTC_CONFIG"] = config
        self.mustc = mustc
    }

    deinit { stub.stop() }

    @Test func anInterruptedImportKeepsItsLinksAndTheNextOneContinues() async throws {
        let path = mustc.home.file("watchlist.csv")
        let rows = (1...40).map { "2024-01-01,Movie \($0),2001,https://boxd.it/m\($0)\n" }
        try ("Date,Name,Year,Letterboxd URI\n" + rows.joined()).write(toFile: path, atomically: true, encoding: .utf8)
        // Lookups go in batches of eight, each linked before the next is asked: the third batch's answers are held,
        // so the import is interrupted with exactly the first two linked, however slow the machine.
        stub.hold { Int($0.query["query"]?.dropFirst("Movie ".count) ?? "") ?? 0 >= 17 }
        defer { stub.release() }
        let running = try mustc.start(["import", "--json", "Ann", path])
        await Poll.until(within: .seconds(60), every: .milliseconds(20)) { stub.heldCount != 0 }
        try #require(stub.heldCount > 0, "the import never asked for the third batch")
        kill(running.process.processIdentifier, SIGINT)
        let (first, exited) = await running.wait(orKillAfter: MustcBinary.deadline)
        #expect(exited)
        #expect(first.status == 75, "\(first.all)")
        #expect(first.stderr.contains("interrupted: what was linked stays"))
        let interrupted = try first.json()
        #expect(interrupted["interrupted"] as? Bool == true)
        let linkedFirst = try #require(interrupted["linked"] as? Int)
        #expect(linkedFirst == 16, "\(interrupted)")
        stub.release()
        // `rows` counts the rows handled, not the 40 read before the signal.
        #expect(
            interrupted["rows"] as? Int == linkedFirst + (interrupted["alreadyLinked"] as? Int ?? -1), "\(interrupted)")

        var fast = mustc
        let config = mustc.home.file("fast.json")
        try #"{"tmdb": {"maxRequestsPerSecond": 1000}}"#.write(toFile: config, atomically: true, encoding: .utf8)
        fast.environment["MUSTC_CONFIG"] = config
        let second = try await fast.run(["import", "--json", "Ann", path])
        #expect(second.status == 0, "\(second.all)")
        let summary = try second.json()
        #expect(summary["linked"] as? Int == 40 - linkedFirst)
        #expect(summary["alreadyLinked"] as? Int == linkedFirst)
        #expect(summary["failed"] as? Int == 0)
        let list = try await mustc("ratings", "--format", "json")
        let movies = try #require(
            (try list.json()["members"] as? [[String: Any]])?.first?["movies"] as? [[String: Any]])
        #expect(movies.count == 40 && movies.allSatisfy { $0["remoteId"] is Int })
    }
}
