import Foundation
import TMDBStub
import TestSupport
import Testing

/// `mustc import` on lists as people have them: read through a pipe, `-` or a FIFO, old IMDb title
/// types, Windows-1252 and UTF-16, stray quotes, absurd lines, and counts that match what was written.
@Suite final class ImportInputTests {
    let stub: TMDBStubServer
    let mustc: MustcBinary

    static let extra = [
        StubMovie(id: 101, title: "Léon", popularity: 20, releaseDate: "1994-09-14", imdbId: "tt0110413"),
        // Two films of 2019 whose titles fold alike; Letterboxd gives each its own URI.
        StubMovie(id: 500_001, title: "Rain", popularity: 3, releaseDate: "2019-03-01"),
        StubMovie(id: 500_002, title: "rain", popularity: 1, releaseDate: "2019-10-01"),
    ]

    init() throws {
        stub = TMDBStubServer(movies: StubMovie.classics + StubMovie.identity + Self.extra)
        try stub.start()
        mustc = MustcBinary(stub: stub)
    }

    deinit { stub.stop() }

    func file(_ name: String, _ bytes: [UInt8], in binary: MustcBinary? = nil) throws -> String {
        let path = (binary ?? mustc).home.file(name)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    func file(_ name: String, _ text: String) throws -> String { try file(name, Array(text.utf8)) }

    /// Each member's movies as "title year tmdbId", from `ratings --format json`.
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

    /// Runs the binary with `input` written into a pipe on its standard input.
    func piped(_ binary: MustcBinary, _ arguments: [String], input: Data) async throws -> Outcome {
        let process = Process()
        process.executableURL = binary.executable
        process.arguments = arguments
        process.environment = binary.environment
        let out = binary.home.file("piped-out-\(UUID().uuidString)")
        let err = binary.home.file("piped-err-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: out, contents: nil)
        _ = FileManager.default.createFile(atPath: err, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: out))
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: err))
        let pipe = Pipe()
        process.standardInput = pipe
        try ChildLaunch.run(process)
        try pipe.fileHandleForWriting.write(contentsOf: input)
        try pipe.fileHandleForWriting.close()
        let (outcome, exited) = await Running(process: process, stdoutPath: out, stderrPath: err)
            .wait(orKillAfter: MustcBinary.deadline)
        #expect(exited, "the import ended")
        return outcome
    }

    static let watchlist =
        "Date,Name,Year,Letterboxd URI\n2024-01-02,Dune,1984,https://boxd.it/2a1s\n"
        + "2024-01-03,Up,2009,https://boxd.it/up\n2024-01-04,Spirited Away,2001,https://boxd.it/sa\n"

    /// The summary without the per-file encodings, which name the file as it was given.
    func counts(_ outcome: Outcome) throws -> [String: Int] {
        try outcome.json().compactMapValues { $0 as? Int }
    }

    @Test func aPipeDashAndAFIFOGiveTheSameSummaryAsTheFile() async throws {
        let fromDisk = try await mustc.run(["import", "--json", "Ann", try file("watchlist.csv", Self.watchlist)])
        #expect(fromDisk.status == 0, "\(fromDisk.all)")
        let expected = try counts(fromDisk)
        #expect(expected["rows"] == 3 && expected["linked"] == 3, "\(fromDisk.all)")
        for name in ["-", "/dev/stdin"] {
            let fresh = MustcBinary(stub: stub)
            let outcome = try await piped(
                fresh, ["import", "--json", "--letterboxd", "watchlist", "Ann", name], input: Data(Self.watchlist.utf8))
            let got = try counts(outcome)
            #expect(outcome.status == 0 && got == expected, "\(name): \(outcome.all)")
            let (theirs, ours) = (try await lists(fresh), try await lists())
            #expect(theirs == ours, "\(name)")
        }
        let fresh = MustcBinary(stub: stub)
        let fifo = fresh.home.file("list.fifo")
        #expect(mkfifo(fifo, 0o600) == 0)
        let running = try SpawnedProcess.start(fresh, ["import", "--json", "--letterboxd", "watchlist", "Ann", fifo])
        // Written once, by a writer that opens the FIFO after the import did.
        try FileHandle(forWritingAtPath: fifo).map { handle in
            try handle.write(contentsOf: Data(Self.watchlist.utf8))
            try handle.close()
        }
        let ended = try #require(await running.wait(deadline: MustcBinary.deadline), "a FIFO written once ends")
        #expect(ended.status == 0, "\(ended.all)")
        let summary = try Outcome(status: 0, stdout: ended.stdout, stderr: "").json().compactMapValues { $0 as? Int }
        #expect(summary == expected, "\(ended.all)")
    }

    /// Waits until the process, past its exec, has `path` open `count` times: it is then blocked reading it.
    func waitUntilOpen(_ process: SpawnedProcess, _ path: String, count: Int) async throws {
        let opened = await Poll.until(within: .seconds(60), every: .milliseconds(20)) {
            process.descriptors(mustc).filter({ $0 == path }).count >= count
        }
        if !opened { Issue.record("\(path) was never opened") }
    }

    @Test func aSignalStopsAReadBlockedOnAFIFOOrAPipeWithExit75() async throws {
        let fifo = mustc.home.file("silent.fifo")
        #expect(mkfifo(fifo, 0o600) == 0)
        // No writer ever comes: the import waits for the FIFO given as its argument.
        let waiting = try SpawnedProcess.start(mustc, ["import", "Ann", fifo])
        try await waitUntilOpen(waiting, fifo, count: 1)
        waiting.signal(SIGTERM)
        let first = try #require(await waiting.wait(deadline: 30), "SIGTERM ended the import")
        #expect(first.status == 75 && first.stderr.contains("interrupted"), "\(first.all)")
        // A writer that never writes: `-` waits on standard input (the FIFO, held open here) until SIGINT.
        let held = open(fifo, O_RDWR | O_CLOEXEC)
        defer { close(held) }
        let reading = try SpawnedProcess.start(mustc, ["import", "Ann", "-"], stdin: fifo)
        try await waitUntilOpen(reading, fifo, count: 2)
        reading.signal(SIGINT)
        let second = try #require(await reading.wait(deadline: 30), "SIGINT ended the import")
        #expect(second.status == 75 && second.stderr.contains("interrupted"), "\(second.all)")
        #expect(!FileManager.default.fileExists(atPath: mustc.databasePath), "nothing was written")
    }

    @Test func a2015IMDbWatchlistLinksItsFeatureFilmsAndSaysWhatItSkipped() async throws {
        let columns =
            #""position","const","created","modified","description","Title","Title type","Directors","You rated","#
            + #""IMDb Rating","Runtime (mins)","Year","Genres","Num. Votes","Release Date (month/day/year)","URL""#
        func row(_ position: Int, _ id: String, _ title: String, _ type: String, _ year: Int) -> String {
            #""\#(position)","\#(id)","Sat Mar 14 00:00:00 2015","","","\#(title)","\#(type)","","","7.0","100","#
                + #""\#(year)","drama","1000","1984-12-03","http://www.imdb.com/title/\#(id)/""#
        }
        let list = [
            columns, row(1, "tt0087182", "Dune", "Feature Film", 1984),
            row(2, "tt0110357", "The Lion King", "TV Movie", 1994),
            row(3, "tt6105098", "The Lion King", "Video", 2019), row(4, "tt0903747", "Breaking Bad", "TV Series", 2008),
            row(5, "tt0959621", "Pilot", "TV Episode", 2008),
        ].joined(separator: "\r\n")
        let path = try file("WATCHLIST.csv", list)
        let outcome = try await mustc.run(["import", "--json", "Ann", path])
        #expect(outcome.status == 0, "\(outcome.all)")
        let summary = try counts(outcome)
        #expect(summary["rows"] == 5 && summary["linked"] == 3 && summary["skipped"] == 2, "\(outcome.all)")
        #expect(try await lists()["Ann"] == ["Dune 1984 841", "The Lion King 1994 8587", "The Lion King 2019 420818"])
        let dry = try await mustc("import", "--dry-run", "Bob", path)
        #expect(dry.stdout.contains("WATCHLIST.csv:5  skipped: a TV Series, not a movie"), "\(dry.all)")
        #expect(dry.stdout.contains("WATCHLIST.csv:6  skipped: a TV Episode, not a movie"), "\(dry.all)")
    }

    /// "Amélie" and "Léon" as Windows-1252 writes them: é is the single byte 0xE9.
    static let latin1: [UInt8] =
        Array("Name,Year\nAm".utf8) + [0xE9] + Array("lie,2001\nL".utf8) + [0xE9]
        + Array("on,1994\n".utf8)

    @Test func aWindows1252ListStoresItsAccentsAndSaysSo() async throws {
        let path = try file("latin1.csv", Self.latin1)
        let outcome = try await mustc.run(["import", "Ann", path])
        #expect(outcome.status == 0, "\(outcome.all)")
        #expect(outcome.stdout.contains("Read as Windows-1252 (not UTF-8)."), "\(outcome.all)")
        #expect(try await lists()["Ann"] == ["Amélie 2001 194", "Léon 1994 101"])
        let json = try await mustc.run(["import", "--json", "Ann", path])
        #expect((try json.json()["encodings"] as? [String: String]) == [path: "windows-1252"], "\(json.all)")
        // Told it is UTF-8, the rows are refused rather than stored with U+FFFD.
        let strict = try await mustc.run(["import", "--encoding", "utf-8", "Bob", path])
        #expect(strict.status == 64, "\(strict.all)")
        #expect(
            strict.stderr.contains("latin1.csv:2: invalid row, not imported: it is not UTF-8 text"), "\(strict.all)")
        #expect(!strict.all.contains("\u{FFFD}"))
    }

    @Test func excelUnicodeTextIsUTF16WithTabs() async throws {
        let text = "Name\tYear\r\nAmélie\t2001\r\n\"Dune\"\t1984\r\n"
        let bytes: [UInt8] = [0xFF, 0xFE] + text.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        let outcome = try await mustc.run(["import", "--json", "Ann", try file("unicode.txt", bytes)])
        #expect(outcome.status == 0, "\(outcome.all)")
        #expect(try counts(outcome)["linked"] == 2, "\(outcome.all)")
        #expect((try outcome.json()["encodings"] as? [String: String])?.values.first == "utf-16")
        #expect(try await lists()["Ann"] == ["Amélie 2001 194", "Dune 1984 841"])
    }

    @Test func aQuoteClosedAndFollowedByTextMakesTheRowInvalid() async throws {
        let path = try file("closed.csv", "Name,Year,Note\n\"Closed\" trailing,2000,x\nUp,2009,y\n")
        let outcome = try await mustc.run(["import", "--json", "Ann", path])
        #expect(outcome.status == 0, "\(outcome.all)")
        #expect(outcome.stderr.contains("closed.csv:2: invalid row, not imported: text follows a closing quote"))
        let summary = try counts(outcome)
        #expect(summary["rows"] == 2 && summary["invalid"] == 1 && summary["linked"] == 1, "\(outcome.all)")
        #expect(try await lists()["Ann"] == ["Up 2009 14160"])
    }

    @Test func linkedCountsTheLinksMadeWhenTwoRowsAreOneMovie() async throws {
        // TMDB knows one Dune: the row without a year is that movie, the one the first row linked.
        let single = TMDBStubServer(movies: StubMovie.identity.filter { $0.id == 841 })
        try single.start()
        defer { single.stop() }
        let binary = MustcBinary(stub: single)
        let path = try file("dune.csv", Array("Name,Year\nDune,1984\nDune,\n".utf8), in: binary)
        let outcome = try await binary.run(["import", "--json", "Ann", path])
        #expect(outcome.status == 0, "\(outcome.all)")
        let summary = try counts(outcome)
        #expect(summary["linked"] == 1 && summary["alreadyLinked"] == 1 && summary["rows"] == 2, "\(outcome.all)")
        #expect(try await lists(binary)["Ann"] == ["Dune 1984 841"])
    }

    @Test func anImportThatChangesNothingWritesNothing() async throws {
        let path = try file("watchlist.csv", Self.watchlist)
        let first = try await mustc.run(["import", "Ann", path])
        #expect(first.status == 0, "\(first.all)")
        let database = mustc.databasePath
        let state = { () throws -> [Data] in
            try [database, database + "-wal"].map { try Data(contentsOf: URL(fileURLWithPath: $0)) }
        }
        let modified = { try FileManager.default.attributesOfItem(atPath: database)[.modificationDate] as? Date }
        let (before, dateBefore) = (try state(), try modified())
        for arguments in [["import", "Ann", path], ["import", "--dry-run", "Bob", path]] {
            let again = try await mustc.run(arguments)
            #expect(again.status == 0, "\(again.all)")
            #expect(try state() == before, "\(arguments): the database and its -wal are byte for byte the same")
            #expect(try modified() == dateBefore, "\(arguments)")
        }
    }

    @Test func letterboxdFilmsWithTheirOwnURIsStayTwoFilmsAndAreFoundByURI() async throws {
        let list =
            "Date,Name,Year,Letterboxd URI\n2024-01-01,Rain,2019,https://boxd.it/rainA\n"
            + "2024-01-02,rain,2019,https://boxd.it/rainB\n"
        let path = try file("watched.csv", list)
        let first = try await mustc.run(["import", "--json", "Ann", path])
        #expect(first.status == 0, "\(first.all)")
        let summary = try counts(first)
        #expect(summary["linked"] == 2 && summary["needsChoice"] == 0, "\(first.all)")
        let ann = try #require(try await lists()["Ann"])
        // Each film is the TMDB movie spelled exactly as Letterboxd spells it, not the more popular one.
        #expect(ann.count == 2 && ann.contains("Rain 2019 500001") && ann.contains("rain 2019 500002"), "\(ann)")
        stub.resetCounters()
        let again = try await mustc.run(["import", "--json", "Ann", path])
        #expect(try counts(again)["alreadyLinked"] == 2, "\(again.all)")
        #expect(stub.requestCount == 0, "each row was found by its URI")
    }

    @Test func aTitleStoredWithAReplacementCharacterIsRepairedByItsIMDbId() async throws {
        let broken = try file("broken.csv", "Const,Title,Year\ntt0110413,L\u{FFFD}on,1994\n")
        #expect(try await mustc.run(["import", "Ann", broken]).status == 0)
        let latin1 = try file(
            "latin1-imdb.csv", Array("Const,Title,Year\ntt0110413,L".utf8) + [0xE9] + Array("on,1994\n".utf8))
        let outcome = try await mustc.run(["import", "--json", "Ann", latin1])
        #expect(try counts(outcome)["alreadyLinked"] == 1, "\(outcome.all)")
        #expect(try await lists()["Ann"] == ["Léon 1994 101"])
    }
}
