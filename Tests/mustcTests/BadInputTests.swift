import Foundation
import TMDBStub
import Testing

/// Bad input and bad configuration: a clear message, a defined exit code, and nothing written.
@Suite struct BadInputTests {
    let mustc = MustcBinary()

    @Test(arguments: [
        ("", "empty"), ("   ", "empty"), (String(repeating: "x", count: 201), "200"), ("Bad\u{7}Name", "control"),
        ("Tab\tName", "control"),
    ])
    func badMemberNamesExit64AndWriteNothing(_ name: String, _ explanation: String) async throws {
        let outcome = try await mustc("add", name, "Up")
        #expect(outcome.status == 64)
        #expect(outcome.stderr.contains(explanation), "\(outcome.stderr)")
        #expect(!FileManager.default.fileExists(atPath: mustc.databasePath))
    }

    @Test func aBadTitleAmongGoodOnesWritesNothing() async throws {
        try await mustc("add", "--no-lookup", "Alice", "Up")
        let before = try Data(contentsOf: URL(fileURLWithPath: mustc.databasePath))
        let outcome = try await mustc("add", "--no-lookup", "Alice", "Heat", " \n ")
        #expect(outcome.status == 64)
        #expect(outcome.stderr.contains("movie title"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: mustc.databasePath)) == before)
        #expect(!(try await mustc("movies").stdout.contains("Heat")))
    }

    @Test func aTitleOf200CharactersIsAccepted() async throws {
        let title = String(repeating: "é", count: 200)
        #expect(try await mustc("add", "--no-lookup", "Alice", title).status == 0)
        // Whole in CSV and JSON; a table cuts cells at 60 characters.
        #expect(try await mustc("movies", "--format", "csv").stdout.contains(title))
        #expect(try await mustc("movies").stdout.contains(String(title.prefix(59)) + "…"))
    }

    @Test func unknownMemberFilterIsAUsageError() async throws {
        try await mustc("add", "--no-lookup", "Alice", "Up")
        let outcome = try await mustc("ratings", "--member", "Nobody")
        #expect(outcome.status == 64)
        #expect(outcome.stderr.contains("mustc members"))
    }

    @Test func unknownFormatIsAUsageError() async throws {
        let outcome = try await mustc("ratings", "--format", "xml")
        #expect(outcome.status == 64)
        #expect(outcome.stderr.contains("table"))
    }

    @Test func commandsWithoutNetworkNeedNoConfigAtAll() async throws {
        #expect(try await mustc("members").status == 0)
        #expect(try await mustc("ratings", "--format", "json").stdout.contains("\"members\""))
        let added = try await mustc("add", "Alice", "Up")
        #expect(added.status == 0)
        #expect(added.stderr.contains("no TMDB credentials"))
    }

    @Test(arguments: [
        (#"{"tmdb": {"apiKey": "x",}"#, "not valid JSON"),
        (#"{"tmdb": {"apikey": "x"}}"#, #"unknown key "tmdb.apikey""#),
        (#"{"fetch": {"maxConcurrentOperations": "four"}}"#, #""fetch.maxConcurrentOperations" must be"#),
        (#"{"schedule": {"minimumInterval": "soon"}}"#, #""schedule.minimumInterval" must be"#),
    ])
    func configErrorsNameTheFileAndKeyAndExit78(_ json: String, _ expected: String) async throws {
        let path = mustc.home.file("bad.json")
        try json.write(toFile: path, atomically: true, encoding: .utf8)
        let outcome = try await mustc("add", "--config", path, "Alice", "Up")
        #expect(outcome.status == 78)
        #expect(outcome.stderr.contains(path))
        #expect(outcome.stderr.contains(expected), "\(outcome.stderr)")
        #expect(!FileManager.default.fileExists(atPath: mustc.databasePath))
    }

    @Test func aMissingConfigFileNamedByTheEnvironmentExits78() async throws {
        var configured = mustc
        configured.environment["MUSTC_CONFIG"] = mustc.home.file("absent.json")
        let outcome = try await configured("members")
        #expect(outcome.status == 78)
        #expect(outcome.stderr.contains("MUSTC_CONFIG"))
    }

    @Test func aDatabaseFromANewerMustcIsRefusedWith78() async throws {
        try await mustc("add", "--no-lookup", "Alice", "Up")
        _ = try sqlite(mustc.databasePath, "INSERT INTO schemaMigration VALUES ('9999_future', '2030-01-01')")
        let outcome = try await mustc("ratings")
        #expect(outcome.status == 78)
        #expect(outcome.stderr.contains("newer mustc"))
    }
}
