import Foundation
import TMDBStub
import Testing

/// What mustc writes when TMDB's titles or the user's input carry what a terminal acts on, and figures TMDB cannot
/// mean: read as bytes, through mustc's commands, against the stub. One test at
/// a time: fifteen binaries and their stubs starting at once weighed on the suite's timing-sensitive tests.
@Suite(.serialized) final class WrittenOutputTests {
    let stub: TMDBStubServer
    let mustc: MustcBinary

    /// ESC ] 0 ; … BEL retitles a terminal; CSI (U+009B) is C1; U+202E reverses; DEL.
    static let hostile = "Evil\u{1B}]0;pwned\u{07}\u{9B}2J\u{202E}gnp.exe\u{7F}"

    static let movies = [
        StubMovie(id: 900_001, title: hostile, releaseDate: "2020-01-01"),
        StubMovie(id: 900_002, title: "Nul\u{0}Byte", releaseDate: "2020-01-01"),
        StubMovie(id: 900_003, title: "Line\nBreak\tTab", releaseDate: "2020-01-01"),
        StubMovie(id: 900_004, title: String(repeating: "W", count: 10_000), releaseDate: "2020-01-01"),
        StubMovie(id: 900_005, title: "Impossible Day", releaseDate: "2024-13-45"),
        StubMovie(id: 900_024, title: "Asked For", releaseDate: "2020-01-01"),
        StubMovie(id: 900_099, title: "Answered Instead", releaseDate: "2020-01-01"),
        StubMovie(id: 597, title: "Titanic", popularity: 90, releaseDate: "1997-11-18"),
        StubMovie(id: 16_535, title: "Titanic", popularity: 5, releaseDate: "1953-04-16"),
    ]

    init() throws {
        stub = TMDBStubServer(movies: StubMovie.classics + Self.movies)
        try stub.start()
        mustc = MustcBinary(stub: stub)
    }

    deinit { stub.stop() }

    /// Runs mustc on a pseudo-terminal (util-linux `script`), as a person at a shell would.
    func atTerminal(_ arguments: [String]) async throws -> Outcome {
        let command = ([MustcBinary.url.path] + arguments).map { "'" + $0 + "'" }.joined(separator: " ")
        var terminal = mustc
        terminal.executable = URL(fileURLWithPath: "/usr/bin/script")
        return try await terminal.run(["-q", "-e", "-c", command, "/dev/null"])
    }

    func contains(_ bytes: [UInt8], _ part: [UInt8]) -> Bool {
        guard !part.isEmpty, bytes.count >= part.count else { return false }
        return (0...(bytes.count - part.count)).contains { Array(bytes[$0..<($0 + part.count)]) == part }
    }

    /// Raw ESC, BEL, DEL, CSI (C2 9B) or RLO (E2 80 AE) anywhere in `bytes`.
    func holdsRawControls(_ bytes: [UInt8]) -> Bool {
        bytes.contains(0x1B) || bytes.contains(0x07) || bytes.contains(0x7F) || contains(bytes, [0xC2, 0x9B])
            || contains(bytes, [0xE2, 0x80, 0xAE])
    }

    func titles(_ outcome: Outcome) throws -> [String] {
        let members = try #require(try outcome.json()["members"] as? [[String: Any]])
        return members.flatMap { ($0["movies"] as? [[String: Any]] ?? []).compactMap { $0["title"] as? String } }
    }

    @Test func jsonEscapesC1DELAndBidiControlsAndStillDecodesToTheExactTitle() async throws {
        #expect(try await mustc("add", "Ann", "tmdb:900001").status == 0)
        for arguments in [
            ["ratings", "--format", "json"], ["export", "--format", "json"], ["movies", "--format", "json"],
            ["pick", "Ann", "--format", "json"],
        ] {
            let outcome = try await mustc.run(arguments)
            #expect(outcome.status == 0, "\(arguments): \(outcome.all)")
            #expect(!holdsRawControls(outcome.stdoutBytes), "\(arguments): \(outcome.stdout)")
            let text = String(decoding: outcome.stdoutBytes, as: UTF8.self)
            #expect(text.contains(#"\u009b"#) && text.contains(#"\u202e"#) && text.contains(#"\u007f"#), "\(arguments)")
            #expect(text.contains(#"\u001b"#) || text.contains(#"\u001B"#), "\(arguments)")
            let decoded = try JSONSerialization.jsonObject(with: Data(outcome.stdoutBytes))
            #expect(String(describing: decoded).isEmpty == false)
        }
        #expect(try titles(try await mustc("ratings", "--format", "json")) == [Self.hostile])
    }

    @Test func csvAtATerminalIsMadeVisibleAndToAFileKeepsTheExactText() async throws {
        #expect(try await mustc("add", "Ann", "tmdb:900001").status == 0)
        for arguments in [["export"], ["ratings", "--format", "csv"], ["movies", "--format", "csv"]] {
            let terminal = try await atTerminal(arguments)
            #expect(terminal.status == 0, "\(arguments): \(terminal.all)")
            #expect(!holdsRawControls(terminal.stdoutBytes), "\(arguments): \(terminal.stdout)")
            #expect(terminal.stdout.contains(#"Evil\u001B]0;pwned\u0007\u009B2J\u202Egnp.exe\u007F"#), "\(arguments)")
            let file = try await mustc.run(arguments)
            #expect(
                contains(file.stdoutBytes, Array(Self.hostile.utf8)), "\(arguments): the exact title off a terminal")
        }
    }

    @Test func errorsEchoWhatTheyRefuseVisibly() async throws {
        #expect(try await mustc("add", "Ann", "Up").status == 0)
        let from = mustc.home.file("titles.txt")
        try "Up\nX\u{9B}31mY\n".write(toFile: from, atomically: true, encoding: .utf8)
        let cases: [[String]] = [
            ["add", "Eve", "X\u{202E}Y"], ["add", "Ev\u{9B}e", "Up"], ["remove", "Ann", "X\u{202E}Y"],
            ["watched", "Ann", "X\u{202E}Y"], ["watched", "Ann", "Up", "--on", "2024\u{202E}-01-01"],
            ["add", "Ann", "--from", from], ["members", "--format", "x\u{1B}]0;t\u{07}"], ["ratings", "--x\u{202E}"],
            ["ratings", "--member", "Z\u{9B}ed"],
        ]
        for arguments in cases {
            let outcome = try await mustc.run(arguments)
            #expect(outcome.status == 64, "\(arguments): \(outcome.all)")
            #expect(!holdsRawControls(outcome.stderrBytes + outcome.stdoutBytes), "\(arguments): \(outcome.all)")
            #expect(outcome.stderr.contains(#"\u"#), "\(arguments): the refused character is named: \(outcome.stderr)")
        }
        let line = try await mustc("ratings", "--member", "Z\ned")
        #expect(line.status == 64 && line.stderr.contains(#"there is no member "Z\ned""#), "\(line.all)")
    }

    @Test func aNULInATitleIsDroppedNotCut() async throws {
        let add = try await mustc("add", "Ann", "tmdb:900002")
        #expect(add.status == 0 && add.stdout.contains("NulByte"), "\(add.all)")
        #expect(try titles(try await mustc("ratings", "--format", "json")) == ["NulByte"])
    }

    @Test func aLineBreakInATitleStaysOnItsRowAndAWideTitleIsCut() async throws {
        #expect(try await mustc("add", "Ann", "tmdb:900003", "tmdb:900004", "Up").status == 0)
        let table = try await mustc("ratings")
        #expect(table.status == 0, "\(table.all)")
        let lines = table.stdout.split(separator: "\n")
        #expect(lines.contains { $0.contains(#"Line\nBreak\tTab (2020)"#) }, "\(table.stdout)")
        #expect(!table.stdoutBytes.contains(0x09) && !table.stdout.contains("Line\n"), "\(table.stdout)")
        #expect(lines.count == 5, "the member, the header and one line per movie: \(table.stdout)")
        #expect(table.stdoutBytes.count < 1_000, "no row padded to 10,000 characters: \(table.stdoutBytes.count) B")
        #expect(lines.contains { $0.contains(String(repeating: "W", count: 50) + "…") })
        let terminal = try await atTerminal(["ratings"])
        #expect(terminal.stdoutBytes.count < 1_000 && terminal.stdout.contains("…"), "\(terminal.stdout)")
        let json = try titles(try await mustc("ratings", "--format", "json"))
        #expect(json.contains(String(repeating: "W", count: 10_000)) && json.contains("Line\nBreak\tTab"))
        let csv = try await mustc("export")
        #expect(csv.stdout.contains(String(repeating: "W", count: 10_000)))
        let pick = try await mustc("pick", "Ann")
        #expect(pick.stdout.split(separator: "\n").contains { $0.contains(#"Line\nBreak\tTab"#) }, "\(pick.stdout)")
        // status lists it on one line too, when it fails.
        stub.inject(.notFound, on: .details(id: 900_003), times: nil)
        _ = try await mustc("fetch", "--force")
        let status = try await mustc("status")
        #expect(status.stdout.contains(#"  Line\nBreak\tTab (2020): TMDB has no such movie"#), "\(status.stdout)")
    }

    /// A field of the details answer set to what TMDB cannot mean.
    static let impossible: [(field: String, json: String)] = [
        ("popularity", "1e308"), ("popularity", "-5"), ("vote_count", "-3"), ("vote_average", "11"),
        ("vote_average", "-0.5"),
    ]

    @Test(arguments: 0..<5)
    func anImpossibleFigureIsAMalformedAnswerThatKeepsThePreviousFigures(_ index: Int) async throws {
        let (field, json) = Self.impossible[index]
        #expect(try await mustc("add", "Ann", "Up").status == 0)
        let before = try await mustc("ratings", "--format", "json").stdout
        stub.inject(.field(field, json: json), on: .details(id: 14160), times: nil)
        let fetch = try await mustc("fetch", "--force", "--json")
        #expect(try fetch.json()["failed"] as? Int == 1, "\(field) \(json): \(fetch.all)")
        let after = try await mustc("ratings", "--format", "json")
        let strip = { (text: String) in
            text.split(separator: "\n").filter { !$0.contains("updatedAt") && !$0.contains("since") }
        }
        #expect(strip(after.stdout) == strip(before), "the previous figures are kept")
        let status = try await mustc("status", "--json")
        let failing = try #require(try status.json()["failing"] as? [[String: Any]])
        let reason = try #require(failing.first?["reason"] as? String, "\(status.stdout)")
        #expect(reason.contains(field), "\(status.stdout)")
    }

    @Test func anImpossibleReleaseDateLeavesTheYearUnknown() async throws {
        #expect(try await mustc("add", "Ann", "tmdb:900005").status == 0)
        let movies = try #require(
            try (try await mustc("ratings", "--format", "json")).json()["members"] as? [[String: Any]])
        let movie = try #require((movies.first?["movies"] as? [[String: Any]])?.first)
        #expect(movie["title"] as? String == "Impossible Day")
        #expect(movie["year"] is NSNull, "\(movie)")
    }

    @Test func aDetailsAnswerAboutAnotherMovieIsNotLinked() async throws {
        stub.inject(.field("id", json: "900099"), on: .details(id: 900_024), times: nil)
        let add = try await mustc("add", "Ann", "tmdb:900024")
        #expect(add.status == 0, "\(add.all)")
        #expect(add.all.contains("900099") && add.all.contains("not 900024"), "\(add.all)")
        let ratings = try await mustc("ratings", "--format", "json")
        #expect(!ratings.stdout.contains("900099") && !ratings.stdout.contains("Answered Instead"), "\(ratings.stdout)")
    }

    @Test func aRunStoppedByA401GivesThatAsItsCause() async throws {
        let config = mustc.home.file("config.json")
        try #"{"fetch": {"maxConcurrentOperations": 1}}"#.write(toFile: config, atomically: true, encoding: .utf8)
        var mustc = self.mustc
        mustc.environment["MUSTC_CONFIG"] = config
        #expect(try await mustc("add", "Ann", "Up", "Amélie").status == 0)
        stub.resetCounters()
        // Whichever of the two is asked first answers with a body cut short, the other with a 401.
        stub.inject(.malformedJSON, on: .details(id: nil), times: 1)
        stub.inject(.unauthorized, on: .any, times: nil)
        let fetch = try await mustc("fetch", "--force", "--json")
        #expect(fetch.status == 75, "\(fetch.all)")
        let asked = stub.requests.filter { $0.path.hasPrefix("/3/movie/") }
        try #require(asked.count == 2, "one unreadable body, then the 401: \(asked.map(\.path))")
        let status = try await mustc("status", "--json")
        let runs = try #require(try status.json()["runs"] as? [[String: Any]])
        let cause = try #require(runs.first?["failure"] as? String)
        #expect(cause.contains("401") && cause.contains("credentials"), "\(cause)")
    }

    @Test func watchedDaysOutOfRangeSayAfterTodayOrTooEarly() async throws {
        #expect(try await mustc("add", "Ann", "Up").status == 0)
        let late = try await mustc("watched", "Ann", "Up", "--on", "2999-01-01")
        #expect(late.status == 64 && late.stderr.contains("2999-01-01 is after today"), "\(late.all)")
        let early = try await mustc("watched", "Ann", "Up", "--on", "1700-01-01")
        #expect(early.status == 64 && early.stderr.contains("1700-01-01 is too early"), "\(early.all)")
        #expect(!(late.stderr + early.stderr).contains("not a day"))
        let diary = mustc.home.file("diary.csv")
        try
            ("Date,Name,Year,Letterboxd URI,Rating,Rewatch,Tags,Watched Date\n"
            + "2024-01-05,Up,2009,https://boxd.it/d1,4.5,,,2999-01-01\n"
            + "2024-01-05,Amélie,2001,https://boxd.it/d2,4.5,,,1700-01-01\n")
            .write(toFile: diary, atomically: true, encoding: .utf8)
        let imported = try await mustc("import", "Ann", diary)
        #expect(imported.stderr.contains(#"the watched day "2999-01-01" is after today"#), "\(imported.all)")
        #expect(imported.stderr.contains(#"the watched day "1700-01-01" is too early"#), "\(imported.all)")
    }

    @Test func statusNamesRemakesWithTheirYears() async throws {
        #expect(try await mustc("add", "Ann", "Titanic (1997)", "Titanic (1953)").status == 0)
        #expect(try await mustc("add", "--no-lookup", "Bob", "Solaris (1972)", "Solaris (2002)").status == 0)
        stub.inject(.notFound, on: .details(id: nil), times: nil)
        _ = try await mustc("fetch", "--force")
        let status = try await mustc("status")
        #expect(
            status.stdout.contains("  Titanic (1953): ") && status.stdout.contains("  Titanic (1997): "),
            "\(status.stdout)")
        #expect(status.stdout.contains("Solaris (1972), Solaris (2002)"), "\(status.stdout)")
        let json = try await mustc("status", "--json")
        let failing = try #require(try json.json()["failing"] as? [[String: Any]])
        let titanic = failing.filter { $0["title"] as? String == "Titanic" }
        #expect(Set(titanic.compactMap { $0["year"] as? Int }) == [1953, 1997], "\(json.stdout)")
    }
}
