import Foundation
import TMDBStub
import Testing
import ZIPFoundation

/// What each member has seen and rated, through mustc's commands and the loopback stub: `mustc watched`, the
/// ratings and dates import keeps from Letterboxd and IMDb, and the export that carries them back.
@Suite final class WatchedTests {
    let stub: TMDBStubServer
    let mustc: MustcBinary

    init() throws {
        stub = TMDBStubServer(movies: StubMovie.classics + StubMovie.identity)
        try stub.start()
        mustc = MustcBinary(stub: stub)
    }

    deinit { stub.stop() }

    func file(_ name: String, _ text: String) throws -> String {
        let path = mustc.home.file(name)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// Each of a member's movies as "title year: watched watchedOn ownRating", from `ratings --format json`.
    func marks(_ member: String, _ binary: MustcBinary? = nil) async throws -> [String] {
        let report = try await (binary ?? mustc)("ratings", "--format", "json", "--member", member)
        #expect(report.status == 0, "\(report.all)")
        let movies = try #require(
            (try report.json()["members"] as? [[String: Any]])?.first?["movies"] as? [[String: Any]])
        return movies.map { movie in
            let on = movie["watchedOn"] as? String ?? "null"
            let rating = (movie["ownRating"] as? Int).map(String.init) ?? "null"
            return "\(movie["title"] as? String ?? "?") \(movie["year"] as? Int ?? 0): "
                + "\(movie["watched"] as? Bool ?? false) \(on) \(rating)"
        }
    }

    func zip(_ name: String, _ entries: [(String, String)]) throws -> String {
        let path = mustc.home.file(name)
        let archive = try Archive(url: URL(fileURLWithPath: path), accessMode: .create)
        for (entry, text) in entries {
            let data = Data(text.utf8)
            try archive.addEntry(with: entry, type: .file, uncompressedSize: Int64(data.count)) { position, size in
                data.subdata(in: Int(position)..<Int(position) + size)
            }
        }
        return path
    }

    static let letterboxd = [
        ("watchlist.csv", "Date,Name,Year,Letterboxd URI\n2024-01-02,Dune,2021,https://boxd.it/hTha\n"),
        // Up twice, the later viewing first: the later day and its rating are kept whatever the order.
        // Dune (1984) with 6 stars, which Letterboxd cannot give: the movie is still marked, the rating not taken.
        (
            "diary.csv",
            "Date,Name,Year,Letterboxd URI,Rating,Rewatch,Tags,Watched Date\n"
                + "2024-02-05,Up,2009,https://boxd.it/d2,4,Yes,\"family, rainy day\",2024-02-04\n"
                + "2024-01-05,Up,2009,https://boxd.it/d1,2.5,,,2024-01-04\n"
                + "2024-01-11,Dune,1984,https://boxd.it/d3,6,,,2024-01-10\n"
        ),
        ("ratings.csv", "Date,Name,Year,Letterboxd URI,Rating\n2024-01-12,Dune,1984,https://boxd.it/2a1s,3.5\n"),
    ]

    @Test func aLetterboxdZipKeepsTheDiarysLatestDayAndTheRatingsDoubled() async throws {
        let path = try zip("letterboxd-ann.zip", Self.letterboxd)
        let outcome = try await mustc.run(["import", "--json", "Ann", path])
        #expect(outcome.status == 0, "\(outcome.all)")
        let json = try outcome.json()
        #expect(json["linked"] as? Int == 3 && json["invalid"] as? Int == 0, "\(outcome.all)")
        #expect(json["markedWatched"] as? Int == 2 && json["ratingsTaken"] as? Int == 2, "\(json)")
        #expect(json["marksNotTaken"] as? Int == 1)
        #expect(
            outcome.stderr.contains(
                "\(path):diary.csv:4: the Rating \"6\" is not a half star from 0.5 to 5; not taken"),
            "\(outcome.stderr)")
        // 3.5 stars are 7; Up's later viewing (4 stars) wins over the earlier one (2.5) listed after it.
        #expect(
            try await marks("Ann") == [
                "Dune 1984: true 2024-01-10 7", "Dune 2021: false null null", "Up 2009: true 2024-02-04 8",
            ])
        // Importing again changes nothing and says so.
        let again = try await mustc.run(["import", "--json", "Ann", path])
        #expect(try again.json()["markedWatched"] as? Int == 0 && again.json()["ratingsTaken"] as? Int == 0)
        let text = try await mustc.run(["import", "Ann", path])
        #expect(text.stdout.contains("Marked 0 watched; took 0 of Ann's ratings."), "\(text.all)")
    }

    static let imdb =
        "Const,Your Rating,Date Rated,Title,Original Title,URL,Title Type,IMDb Rating,Runtime (mins),Year,Genres,"
        + "Num Votes,Release Date,Directors\n"
        + "tt0087182,7,2024-02-01,Dune,Dune,https://www.imdb.com/title/tt0087182/,Movie,6.3,137,1984,Sci-Fi,170000,"
        + "1984-12-03,David Lynch\n"
        + "tt0110357,11,2024-02-03,The Lion King,The Lion King,https://www.imdb.com/title/tt0110357/,movie,8.5,88,"
        + "1994,Animation,1100000,1994-06-10,\"Roger Allers, Rob Minkoff\"\n"
        + "tt6105098,10,2024-02-30,The Lion King,The Lion King,https://www.imdb.com/title/tt6105098/,movie,6.8,118,"
        + "2019,Animation,300000,2019-07-11,Jon Favreau\n"

    @Test func anIMDbRatingsExportGivesRatingsAndWatchedDays() async throws {
        let outcome = try await mustc.run(["import", "--json", "Bob", try file("ratings.csv", Self.imdb)])
        #expect(outcome.status == 0, "\(outcome.all)")
        let json = try outcome.json()
        #expect(json["linked"] as? Int == 3 && json["markedWatched"] as? Int == 3 && json["ratingsTaken"] as? Int == 2)
        #expect(outcome.stderr.contains("ratings.csv:3: the Your Rating \"11\" is not a whole number from 1 to 10"))
        #expect(
            outcome.stderr.contains("ratings.csv:4: the watched day \"2024-02-30\" is not a day written YYYY-MM-DD"))
        #expect(
            try await marks("Bob") == [
                "Dune 1984: true 2024-02-01 7", "The Lion King 1994: true 2024-02-03 null",
                "The Lion King 2019: true null 10",
            ])
    }

    @Test func exportThenImportIntoAnEmptyDatabaseBringsTheRatingsAndDaysBack() async throws {
        _ = try await mustc.run(["import", "--json", "Ann", try zip("ann.zip", Self.letterboxd)])
        _ = try await mustc.run(["import", "--json", "Bob", try file("ratings.csv", Self.imdb)])
        let marked = try await mustc("watched", "Bob", "Up", "--on", "2023-12-24", "--rating", "4.5/5")
        #expect(marked.status == 0, "\(marked.all)")
        let before = (try await marks("Ann"), try await marks("Bob"))
        let csv = try await mustc("export")
        #expect(
            csv.stdout.hasPrefix(
                "member,title,year,tmdbId,imdbId,popularity,voteAverage,voteCount,updatedAt,watched,watchedOn,ownRating,"
                    + "letterboxdUri,mustcId\r\n"
            ))
        #expect(csv.stdout.contains(",true,2024-02-04,8,") && csv.stdout.contains(",false,,,"), "\(csv.stdout)")
        let json = try await mustc("export", "--format", "json", "--member", "bob")
        let movies = try #require(
            (try json.json()["members"] as? [[String: Any]])?.first?["movies"] as? [[String: Any]])
        #expect(movies.map { $0["ownRating"] as? Int } == [7, nil, 10, 9])
        #expect(movies.map { $0["watchedOn"] as? String } == ["2024-02-01", "2024-02-03", nil, "2023-12-24"])
        let exported = try file("export.csv", csv.stdout)
        let fresh = MustcBinary(stub: stub)
        for member in ["Ann", "Bob"] {
            let outcome = try await fresh.run(["import", "--json", member, exported])
            #expect(outcome.status == 0 && outcome.stderr.isEmpty, "\(outcome.all)")
        }
        #expect(try await marks("Ann", fresh) == before.0)
        #expect(try await marks("Bob", fresh) == before.1)
    }

    @Test func watchedMarksRatesOnEveryScaleAndUndoTakesTheMarkBack() async throws {
        #expect(try await mustc("add", "Ann", "Up", "Amélie", "tmdb:841").status == 0)
        let today = WatchDayText.today
        let up = try await mustc("watched", "ann", "up", "--rating", "4.5/5")
        #expect(up.stdout == "Ann watched \"Up (2009)\" on \(today), rated 9/10.\n", "\(up.all)")
        #expect(try await mustc("watched", "Ann", "Amélie", "--on", "2024-03-01", "--rating", "9/10").status == 0)
        #expect(try await mustc("watched", "Ann", "tmdb:841", "--rating", "8").status == 0)
        // Bob does not keep Up, Ann does: it goes on his list, watched.
        let bob = try await mustc("watched", "Bob", "Up", "--on", "2024-01-01")
        #expect(bob.status == 64 && bob.stderr.contains("no member \"Bob\""), "a member must exist: \(bob.all)")
        #expect(try await mustc("add", "--no-lookup", "Bob", "Heat").status == 0)
        let linked = try await mustc("watched", "Bob", "Up", "--on", "2024-01-01")
        #expect(linked.stdout.contains("it is on Bob's list now, watched."), "\(linked.all)")
        #expect(
            try await marks("Ann") == [
                "Amélie 2001: true 2024-03-01 9", "Dune 1984: true \(today) 8", "Up 2009: true \(today) 9",
            ])
        #expect(try await marks("Bob") == ["Heat 0: false null null", "Up 2009: true 2024-01-01 null"])

        let undo = try await mustc("watched", "--undo", "Ann", "Amélie")
        #expect(undo.status == 0 && undo.stdout.contains("Ann has not watched \"Amélie (2001)\" after all."))
        #expect(try await marks("Ann").first == "Amélie 2001: false null 9", "the rating stays")
        let table = try await mustc("movies", "--member", "Ann")
        #expect(table.stdout.contains("Seen") && table.stdout.contains("\(today)  9/10"), "\(table.stdout)")
        let csv = try await mustc("movies", "--member", "Ann", "--format", "csv")
        #expect(csv.stdout.contains(",watched,watchedOn,ownRating\r\n") && csv.stdout.contains(",false,,9\r\n"))
        let json = try await mustc("movies", "--member", "Ann", "--format", "json")
        #expect(try json.jsonArray().map { $0["ownRating"] as? Int } == [9, 8, 9])
        let ratings = try await mustc("ratings", "--member", "Ann")
        #expect(ratings.stdout.contains("  Seen  ") && ratings.stdout.contains("\(today)  9/10"), "\(ratings.stdout)")
    }

    @Test func badRatingsDaysAndMoviesExit64NamingTheValueAndWriteNothing() async throws {
        #expect(try await mustc("add", "Ann", "Up", "Amélie").status == 0)
        let cases: [([String], String)] = [
            (["--rating", "11"], "--rating \"11\" is not a rating"),
            (["--rating", "6/5"], "--rating \"6/5\" is not a rating"),
            (["--rating", "abc"], "--rating \"abc\" is not a rating"),
            (["--on", "2024-02-30"], "--on \"2024-02-30\" is not a day"),
            (["--on", "yesterday"], "--on \"yesterday\" is not a day"),
            (["--on", "2099-01-01"], "--on 2099-01-01 is after today"),
            (["--undo", "--rating", "9"], "--undo takes the mark back"),
        ]
        for (options, message) in cases {
            let outcome = try await mustc.run(["watched", "Ann", "Up"] + options)
            #expect(outcome.status == 64 && outcome.stderr.contains(message), "\(options): \(outcome.all)")
        }
        // One name that is no movie: the other is not marked either.
        let unknown = try await mustc("watched", "Ann", "Up", "No Such Film")
        #expect(unknown.status == 64 && unknown.stderr.contains("there is no movie \"No Such Film\""), "\(unknown.all)")
        #expect(try await mustc("watched", "Zed", "Up").status == 64)
        let written =
            "SELECT count(*) FROM memberMovie WHERE watched = 1 OR watchedOn IS NOT NULL OR ownRating IS NOT NULL"
        #expect(try sqlite(mustc.databasePath, written) == "0", "nothing written")
        #expect(try await marks("Ann") == ["Amélie 2001: false null null", "Up 2009: false null null"])
    }
}

/// Today as the binary sees it: the same local day, in the same time zone.
enum WatchDayText {
    static var today: String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd"
        return formatter.string(from: Date())
    }
}
