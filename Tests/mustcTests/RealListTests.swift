import Foundation
import TMDBStub
import Testing

/// Real Letterboxd exports: which list a file is, films whose titles differ only in case,
/// and their URIs through export and import. One test at a time, as WrittenOutputTests.
@Suite(.serialized) struct RealListTests {
    /// Letterboxd's watched.csv and watchlist.csv: the same columns.
    static let watched =
        "Date,Name,Year,Letterboxd URI\n2024-01-01,Rain,2019,https://boxd.it/rainA\n"
        + "2024-01-02,rain,2019,https://boxd.it/rainB\n"
    /// The diary's URI names the entry, not the film.
    static let diary =
        "Date,Name,Year,Letterboxd URI,Rating,Rewatch,Tags,Watched Date\n"
        + "2024-02-02,rain,2019,https://boxd.it/entry1,4,,,2024-02-01\n"

    /// Without TMDB credentials: the films stay as the lists name them.
    let mustc = MustcBinary()

    func file(_ name: String, _ text: String, in binary: MustcBinary? = nil) throws -> String {
        let path = (binary ?? mustc).home.file(name)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// Each of a member's movies as "title year watched|unwatched day".
    func marks(_ binary: MustcBinary? = nil, member: String = "Ann") async throws -> [String] {
        let report = try await (binary ?? mustc)("ratings", "--member", member, "--format", "json")
        let members = try #require(try report.json()["members"] as? [[String: Any]], "\(report.all)")
        let movies = try #require(members.first?["movies"] as? [[String: Any]])
        return movies.map { movie in
            let title = movie["title"] as? String ?? "?"
            let year = (movie["year"] as? Int).map(String.init) ?? "-"
            let watched = (movie["watched"] as? Bool ?? false) ? "watched" : "unwatched"
            return "\(title) \(year) \(watched) \(movie["watchedOn"] as? String ?? "-")"
        }.sorted()
    }

    @Test func aWatchedListWhoseNameDoesNotSayWhichIsRefusedUntilTold() async throws {
        let named = try file("watched (1).csv", Self.watched)
        let stdin = try file("stdin.csv", Self.watched)
        let cases: [(arguments: [String], stdin: String?)] = [
            (["import", "Ann", named], nil), (["import", "Ann", "-"], stdin), (["import", "Ann", "/dev/stdin"], stdin),
        ]
        for (arguments, input) in cases {
            let (outcome, exited) = try await mustc.start(arguments, stdin: input).wait(
                orKillAfter: MustcBinary.deadline)
            #expect(exited)
            #expect(outcome.status == 64, "\(arguments): \(outcome.all)")
            #expect(
                outcome.stderr.contains("--letterboxd watched") && outcome.stderr.contains("--letterboxd watchlist"))
        }
        #expect(!FileManager.default.fileExists(atPath: mustc.databasePath), "nothing written")
        let (told, _) = try await mustc.start(["import", "--letterboxd", "watched", "Ann", "-"], stdin: stdin)
            .wait(orKillAfter: MustcBinary.deadline)
        #expect(told.status == 0, "\(told.all)")
        #expect(try await marks() == ["Rain 2019 watched -", "rain 2019 watched -"])
        let list = try await mustc.run(["import", "--letterboxd", "watchlist", "Bob", named])
        #expect(list.status == 0, "\(list.all)")
        #expect(try await marks(member: "Bob") == ["Rain 2019 unwatched -", "rain 2019 unwatched -"])
    }

    @Test func aDiaryRowFindsTheFilmSpelledExactlySo() async throws {
        let watched = try file("watched.csv", Self.watched)
        let diary = try file("diary.csv", Self.diary)
        let outcome = try await mustc.run(["import", "Ann", watched, diary])
        #expect(outcome.status == 0, "\(outcome.all)")
        #expect(try await marks() == ["Rain 2019 watched -", "rain 2019 watched 2024-02-01"])
    }

    @Test func exportAndImportKeepTwoFilmsByTheirLetterboxdURIs() async throws {
        #expect(try await mustc.run(["import", "Ann", try file("watched.csv", Self.watched)]).status == 0)
        let export = try await mustc("export")
        #expect(export.stdout.hasPrefix("member,title,year,tmdbId,imdbId,popularity,voteAverage,voteCount,updatedAt,"))
        #expect(export.stdout.contains("https://boxd.it/rainA") && export.stdout.contains("https://boxd.it/rainB"))
        let json = try await mustc("export", "--format", "json")
        #expect(json.stdout.contains(#""letterboxdUri" : "https://boxd.it/rainB""#), "\(json.stdout)")
        let fresh = MustcBinary()
        let path = try file("export.csv", export.stdout, in: fresh)
        let imported = try await fresh.run(["import", "Ann", path])
        #expect(imported.status == 0, "\(imported.all)")
        #expect(try await marks(fresh) == ["Rain 2019 watched -", "rain 2019 watched -"], "two films, not one")
        let again = try await fresh("export")
        #expect(again.stdout.contains("https://boxd.it/rainA") && again.stdout.contains("https://boxd.it/rainB"))
    }

    @Test func aDiarysCaseTwinsComeBackFromItsExportEachWithItsOwnDay() async throws {
        let diary =
            "Date,Name,Year,Letterboxd URI,Rating,Rewatch,Tags,Watched Date\n"
            + "2024-03-01,Rain,2019,https://boxd.it/entryA,,,,2024-03-01\n"
            + "2024-03-02,rain,2019,https://boxd.it/entryB,,,,2024-03-02\n"
        #expect(try await mustc.run(["import", "Ann", try file("diary.csv", diary)]).status == 0)
        let both = ["Rain 2019 watched 2024-03-01", "rain 2019 watched 2024-03-02"]
        #expect(try await marks() == both)
        let export = try await mustc("export")
        #expect(export.stdout.hasPrefix("member,title,") && export.stdout.contains(",mustcId\r\n"), "\(export.stdout)")
        let fresh = MustcBinary()
        let path = try file("export.csv", export.stdout, in: fresh)
        let imported = try await fresh.run(["import", "Ann", path])
        #expect(imported.status == 0, "\(imported.all)")
        #expect(try await marks(fresh) == both, "two films, each with its own day")
        // Read back into the database it came from, each row finds its movie by mustc's own id.
        let back = try await mustc.run(["import", "--json", "Ann", try file("back.csv", export.stdout)])
        #expect(try back.json()["alreadyLinked"] as? Int == 2, "\(back.all)")
        #expect(try await marks() == both)
    }

    @Test func aMergeKeepsTheLetterboxdURI() async throws {
        let stub = TMDBStubServer(movies: StubMovie.classics)
        try stub.start()
        defer { stub.stop() }
        let mustc = MustcBinary(stub: stub)
        #expect(try await mustc("add", "Ann", "Up").status == 0)
        let list = try file(
            "watched.csv", "Date,Name,Year,Letterboxd URI\n2024-01-01,Upp,2009,https://boxd.it/upp\n", in: mustc)
        #expect(try await mustc.run(["import", "Ann", list]).status == 0)
        let resolve = try await mustc("resolve", "Ann", "Upp (2009)", "tmdb:14160")
        #expect(resolve.status == 0 && resolve.stdout.contains("merged"), "\(resolve.all)")
        let export = try await mustc("export")
        #expect(
            export.stdout.contains("Up,2009,14160,") && export.stdout.contains("https://boxd.it/upp"),
            "\(export.stdout)")
    }
}
