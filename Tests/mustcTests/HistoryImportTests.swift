import Foundation
import TMDBStub
import Testing
import ZIPFoundation

/// `mustc import` of Trakt's account export and Netflix's viewing history, through mustc's commands and
/// the loopback stub, on files written here in the real layouts: Trakt's ZIP of JSON arrays (newest first, ids that
/// are null or `{}`, shows and episodes beside the movies), Netflix's `Title,Date` in several locales' dates, and
/// the full download's `ViewingActivity.csv` with several profiles, trailers and hooks, and a film over sessions.
@Suite final class HistoryImportTests {
    let stub: TMDBStubServer
    let mustc: MustcBinary

    static let extra = [
        StubMovie(id: 146, title: "Crouching Tiger, Hidden Dragon", popularity: 30, releaseDate: "2000-07-06"),
        StubMovie(
            id: 120, title: "The Lord of the Rings: The Fellowship of the Ring", popularity: 90,
            releaseDate: "2001-12-18"),
        StubMovie(id: 121, title: "The Lord of the Rings: The Two Towers", popularity: 80, releaseDate: "2002-12-18"),
        StubMovie(id: 101, title: "Léon: The Professional", popularity: 40, releaseDate: "1994-09-14"),
        StubMovie(id: 10228, title: "Pokémon: The First Movie", popularity: 20, releaseDate: "1998-07-18"),
        StubMovie(
            id: 565426, title: "To All the Boys: P.S. I Still Love You", popularity: 25, releaseDate: "2020-02-12"),
        // A film whose title is an episode's near enough to fold into it: only the exact title makes a film.
        StubMovie(id: 99001, title: "1899 - The Pyramid", popularity: 5, releaseDate: "2010-01-01"),
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

    /// Runs `import --json` and returns the summary's counts.
    func imported(_ arguments: String..., status: Int32 = 0) async throws -> (counts: [String: Int], all: String) {
        let outcome = try await mustc.run(["import", "--json"] + arguments)
        #expect(outcome.status == status, "\(outcome.all)")
        return (try outcome.json().compactMapValues { $0 as? Int }, outcome.all)
    }

    /// A member's movies as "title year tmdbId: watched watchedOn ownRating", from `ratings --format json`.
    func marks(_ member: String) async throws -> Set<String> {
        let report = try await mustc("ratings", "--format", "json", "--member", member)
        #expect(report.status == 0, "\(report.all)")
        let movies = try #require(
            (try report.json()["members"] as? [[String: Any]])?.first?["movies"] as? [[String: Any]])
        return Set(
            movies.map { movie in
                let on = movie["watchedOn"] as? String ?? "null"
                let rating = (movie["ownRating"] as? Int).map(String.init) ?? "null"
                return "\(movie["title"] as? String ?? "?") \(movie["year"] as? Int ?? 0) "
                    + "\(movie["remoteId"] as? Int ?? 0): \(movie["watched"] as? Bool ?? false) \(on) \(rating)"
            })
    }

    /// Trakt's history entry: `type` movie or episode, `watched_at` in UTC with milliseconds.
    static func watch(_ id: Int, _ at: String, movie: String) -> String {
        #"{"id":\#(id),"watched_at":"\#(at)","action":"scrobble","type":"movie","movie":\#(movie)}"#
    }

    static let dune2021 =
        #"{"title":"Dune","year":2021,"ids":{"trakt":287071,"slug":"dune-2021","imdb":"tt1160419","tmdb":438631}}"#
    static let history =
        "[\n"
        + [
            watch(9_000_006, "2024-03-02T20:15:00.000Z", movie: dune2021),
            #"{"id":9000005,"watched_at":"2024-02-10T19:00:00.000Z","action":"watch","type":"episode","#
                + #""episode":{"season":1,"number":3,"title":"...And the Bag's in the River","#
                + #""ids":{"trakt":73484,"tvdb":349234,"imdb":{},"tmdb":62087}},"#
                + #""show":{"title":"Breaking Bad","year":2008,"ids":{"trakt":1388,"tmdb":1396}}}"#,
            watch(
                9_000_004, "2024-01-05T18:00:00.000Z",
                movie: #"{"title":"Up","year":2009,"ids":{"trakt":1,"slug":"up-2009","imdb":null,"tmdb":14160}}"#),
            watch(
                9_000_003, "2023-12-24T17:30:00.000Z",
                movie: #"{"title":"The Lion King","year":1994,"ids":{"trakt":7,"imdb":"tt0110357","tmdb":null}}"#),
            watch(
                9_000_002, "2023-11-11T21:00:00.000Z",
                movie: #"{"title":"Amélie","year":2001,"ids":{"trakt":9,"imdb":{},"tmdb":null,"plex":{"guid":null}}}"#),
            // A re-watch: Dune (2021) again, older.
            watch(9_000_001, "2023-12-01T20:00:00.000Z", movie: dune2021),
        ].joined(separator: ",\n") + "\n]\n"
    static let ratings =
        "["
        + #"{"rated_at":"2024-03-03T10:00:00.000Z","rating":9,"type":"movie","movie":\#(dune2021)},"#
        + #"{"rated_at":"2024-01-01T10:00:00.000Z","rating":8,"movie":{"title":"Spirited Away","year":2001,"#
        + #""ids":{"trakt":10,"imdb":"tt0245429","tmdb":129}}},"#
        + #"{"rated_at":"2024-01-02T10:00:00.000Z","rating":10,"type":"show","show":{"title":"Breaking Bad","#
        + #""year":2008,"ids":{"trakt":1388}}}"# + "]"
    static let watchlist =
        "["
        + #"{"rank":1,"id":501,"listed_at":"2024-01-01T00:00:00.000Z","notes":null,"type":"movie","#
        + #""movie":{"title":"My Neighbor Totoro","year":1988,"ids":{"trakt":11,"imdb":null,"tmdb":8392}}},"#
        + #"{"rank":1,"id":502,"listed_at":"2024-01-02T00:00:00.000Z","notes":"ranks repeat","type":"show","#
        + #""show":{"title":"Severance","year":2022,"ids":{"trakt":154997}}},"#
        + #"{"rank":2,"id":503,"listed_at":"2024-01-03T00:00:00.000Z","notes":null,"type":"movie","#
        + #""movie":{"title":"Dune","year":1984,"ids":{"trakt":12,"imdb":"tt0087182","tmdb":null}}}"# + "]"

    @Test func traktsZipImportsTheHistoryRatingsAndWatchlistByTheirIds() async throws {
        let path = try zip(
            "trakt-export.zip",
            [
                ("watched-history.json", Self.history), ("ratings-movies.json", Self.ratings),
                ("lists-watchlist.json", Self.watchlist), ("ratings-episodes.json", "[]"),
                ("user-profile.json", #"{"username":"ann"}"#),
            ])
        let (counts, all) = try await imported("Ann", path)
        // 6 history entries, 3 ratings and 3 on the watchlist: 12 rows, and every one lands in one outcome.
        #expect(counts["rows"] == 12, "\(all)")
        #expect(counts["linked"] == 7 && counts["alreadyLinked"] == 1 && counts["merged"] == 1, "\(all)")
        #expect(counts["rewatches"] == 1 && counts["skipped"] == 3 && counts["episodes"] == 3, "\(all)")
        #expect(counts["invalid"] == 0 && counts["markedWatched"] == 5 && counts["ratingsTaken"] == 2, "\(all)")
        // TMDB ids need no lookup; the IMDb ids go through /find, the title and year through a search.
        #expect(
            stub.requests.map(\.path).sorted() == ["/3/find/tt0087182", "/3/find/tt0110357", "/3/search/movie"],
            "\(stub.requests.map(\.path))")
        #expect(
            try await marks("Ann") == [
                "Dune 2021 438631: true 2024-03-02 9", "Up 2009 14160: true 2024-01-05 null",
                "The Lion King 1994 8587: true 2023-12-24 null", "Amélie 2001 194: true 2023-11-11 null",
                // Rated on Trakt is seen; the history has no day for it.
                "Spirited Away 2001 129: true null 8",
                "My Neighbor Totoro 1988 8392: false null null", "Dune 1984 841: false null null",
            ])
        let export = try await mustc("export", "--member", "Ann")
        let dune = export.stdout.split(separator: "\r\n").first { $0.hasPrefix("Ann,Dune,2021,438631,tt1160419,") }
        #expect(dune?.contains(",true,2024-03-02,9,,") == true, "\(export.all)")

        // Again: every movie is known, by its ids or its title and year; TMDB is asked nothing.
        stub.resetCounters()
        let (again, second) = try await imported("Ann", path)
        #expect(again["linked"] == 0 && again["alreadyLinked"] == 8 && again["markedWatched"] == 0, "\(second)")
        #expect(stub.requestCount == 0)
        let dry = try await mustc("import", "--dry-run", "Ann", path)
        #expect(
            dry.stdout.contains(
                "trakt-export.zip:watched-history.json:entry 6  a re-watch of \"Dune (2021)\": counted with it"),
            "\(dry.stdout)")
        #expect(
            dry.stdout.contains("Skipped 3: 3 shows or episodes, 0 trailers, recaps, previews or short plays, 0 others")
        )
        #expect(dry.stdout.contains("Merged 1 rows into the watch another row carries: 1 re-watches, 0 more sessions"))
    }

    @Test func aTraktFileAloneIsReadByItsContentAndABrokenEntryCostsOnlyItself() async throws {
        let history =
            "\u{FEFF}[\n"
            + Self.watch(3, "2024-05-01T10:00:00.000Z", movie: #"{"title":"Up","year":2009,"ids":{"tmdb":14160}}"#)
            + ",\n{\"id\": 2, \"watched_at\": \"2024-04-01T10:00:00.000Z\", \"movie\": {\"title\": Broken, \"year\": 1}},\n"
            + Self.watch(1, "2099-01-01T00:00:00.000Z", movie: #"{"title":"Amélie","year":2001,"ids":{"tmdb":194}}"#)
            + "\n]"
        // Named as nothing Trakt writes: the content says what it is.
        let path = try file("mine.json", history)
        let (counts, all) = try await imported("Bob", path)
        #expect(counts["rows"] == 3 && counts["invalid"] == 1 && counts["linked"] == 2, "\(all)")
        #expect(all.contains("mine.json:entry 2: invalid row"), "\(all)")
        // A day after today is not taken; the movie is still watched.
        #expect(all.contains("mine.json:entry 3: the watched_at \"2099-01-01T00:00:00.000Z\" is after today"), "\(all)")
        #expect(counts["marksNotTaken"] == 1)
        #expect(try await marks("Bob") == ["Up 2009 14160: true 2024-05-01 null", "Amélie 2001 194: true null null"])
        // A file cut short inside an entry: the entries before it are imported, the cut one is invalid.
        let entry = Self.watch(4, "2024-05-01T10:00:00.000Z", movie: Self.dune2021)
        let cut = try file("cut.json", "[" + entry + ",\n" + String(entry.prefix(40)))
        let (only, onlyAll) = try await imported("Cleo", cut)
        #expect(only["rows"] == 2 && only["linked"] == 1 && only["invalid"] == 1, "\(onlyAll)")
        #expect(onlyAll.contains("cut.json:entry 2: invalid row, not imported: the file ends inside this entry"))
    }

    /// NetflixViewingHistory.csv as the account page writes it, every field quoted, newest first.
    static func viewingHistory(_ rows: [(String, String)]) -> String {
        "Title,Date\n" + rows.map { "\"\($0.0.replacingOccurrences(of: "\"", with: "\"\""))\",\"\($0.1)\"\n" }.joined()
    }

    @Test func netflixHistoriesInSeveralLocalesSettleTheDayAndMonthFromTheirOtherDates() async throws {
        // m/d/yy (US): 10/19/22 can only be October; Dune watched in January 2020 is the 1984 film, as the 2021 one
        // was not out yet.
        let us = try file(
            "us/NetflixViewingHistory.csv",
            Self.viewingHistory([
                ("Breaking Bad: Season 1: Pilot", "10/19/22"), ("Up", "3/5/22"), ("Dune", "1/15/20"),
                ("Russian Doll: Season 1: Nothing in This World Is Easy", "1/10/20"),
                // No season part: another title of the show says it is one.
                ("Russian Doll: The Great Escape", "1/9/20"),
            ]))
        let (usCounts, usAll) = try await imported("Ann", us)
        #expect(usCounts["rows"] == 5 && usCounts["linked"] == 2 && usCounts["episodes"] == 3, "\(usAll)")
        #expect(usCounts["exact"] == 2 && usCounts["chosen"] == 0)
        #expect(
            try await marks("Ann") == ["Up 2009 14160: true 2022-03-05 null", "Dune 1984 841: true 2020-01-15 null"])

        // dd/mm/yyyy, with a comma in a quoted title and a film watched on two days: one watch, on the later day.
        let uk = try file(
            "uk/NetflixViewingHistory.csv",
            Self.viewingHistory([
                ("Crouching Tiger, Hidden Dragon", "27/07/2020"), ("Amélie", "03/02/2020"), ("Amélie", "02/02/2020"),
            ]))
        let (ukCounts, ukAll) = try await imported("Bob", uk)
        #expect(ukCounts["rows"] == 3 && ukCounts["linked"] == 2 && ukCounts["merged"] == 1, "\(ukAll)")
        #expect(ukCounts["rewatches"] == 0)
        #expect(
            try await marks("Bob") == [
                "Crouching Tiger, Hidden Dragon 2000 146: true 2020-07-27 null",
                "Amélie 2001 194: true 2020-02-03 null",
            ])

        // dd-mm-yy (Dutch): 28-06-23 has the day first.
        let nl = try file(
            "nl/NetflixViewingHistory.csv",
            Self.viewingHistory([("Spirited Away", "28-06-23"), ("The Lion King", "01-02-23")]))
        let (nlCounts, nlAll) = try await imported("Cleo", nl)
        #expect(nlCounts["linked"] == 2, "\(nlAll)")
        // The Lion King in 2023: both films were out; the identity rules take the more popular, and say so.
        #expect(nlCounts["chosen"] == 1, "\(nlAll)")
        #expect(
            try await marks("Cleo") == [
                "Spirited Away 2001 129: true 2023-06-28 null", "The Lion King 1994 8587: true 2023-02-01 null",
            ])
    }

    @Test func aNetflixHistoryWhoseDatesCannotTellNeedsTheDateOrder() async throws {
        let path = try file(
            "de/NetflixViewingHistory.csv",
            // A spreadsheet that saved it added an empty column: still Netflix's, not a mustc CSV with a title.
            Self.viewingHistory([("Up", "3.5.25"), ("My Neighbor Totoro", "4.4.25"), ("Amélie", "1.2.25")])
                .replacingOccurrences(of: "\n", with: ",\n"))
        let refused = try await mustc("import", "Dan", path)
        #expect(refused.status == 64, "\(refused.all)")
        #expect(refused.stderr.contains("\"3.5.25\""), "\(refused.stderr)")
        #expect(refused.stderr.contains("--date-order dmy") && refused.stderr.contains("nothing was imported"))
        #expect(!FileManager.default.fileExists(atPath: mustc.databasePath), "nothing written")
        #expect(stub.requestCount == 0)
        let (counts, all) = try await imported("Dan", "--date-order", "dmy", path)
        #expect(counts["linked"] == 3, "\(all)")
        #expect(
            try await marks("Dan") == [
                "Up 2009 14160: true 2025-05-03 null", "My Neighbor Totoro 1988 8392: true 2025-04-04 null",
                "Amélie 2001 194: true 2025-02-01 null",
            ])
        let export = try await mustc("export", "--member", "Dan")
        #expect(export.stdout.contains("Dan,Up,2009,14160,"), "\(export.all)")
    }

    /// Episodes as real Netflix histories write them: no season part, a show of one episode, pt-BR's limited series,
    /// a Roman numbered episode, a Danish title beside the show's English one; a trilogy; films with colons.
    static let episodeShapes: [(String, String)] =
        ["The Pyramid", "The Ship", "The Fog", "The Calling", "The Boy", "The Key"].map { ("1899: \($0)", "1/5/23") }
        + [
            "Code Red", "Mutiny", "Mile High", "Coach and Sister", "Not Fade Away", "Coup de Grâce", "Hell Week",
            "Gold Digger", "Ultraviolence", "Fire Inside",
        ].enumerated().map { ("Dare Me: \($1)", "2/\($0 + 13)/23") }
        + [
            ("Bebê Rena: Minissérie: Episódio 1", "5/1/24"), ("The Last Dance: Episode I", "5/2/24"),
            ("Den som dræber: Those Who Kill: Aflevering 1", "5/3/24"),
            ("The Lord of the Rings: The Fellowship of the Ring", "6/1/24"),
            ("The Lord of the Rings: The Two Towers", "6/2/24"), ("Léon: The Professional", "6/3/24"),
            ("Pokémon: The First Movie", "6/4/24"), ("Up", "6/5/24"),
            ("To All the Boys: P.S. I Still Love You", "6/6/24"),
        ]

    @Test func netflixEpisodesWithoutASeasonPartAreSkippedAndATrilogyIsLinkedByTMDBsExactTitles() async throws {
        let path = try file("shapes/NetflixViewingHistory.csv", Self.viewingHistory(Self.episodeShapes))
        let (counts, all) = try await imported("Ann", path)
        #expect(counts["rows"] == 25 && counts["episodes"] == 19 && counts["unsure"] == 0, "\(all)")
        #expect(counts["linked"] == 6 && counts["exact"] == 6, "\(all)")
        #expect(
            try await marks("Ann") == [
                "The Lord of the Rings: The Fellowship of the Ring 2001 120: true 2024-06-01 null",
                "The Lord of the Rings: The Two Towers 2002 121: true 2024-06-02 null",
                "Léon: The Professional 1994 101: true 2024-06-03 null",
                "Pokémon: The First Movie 1998 10228: true 2024-06-04 null", "Up 2009 14160: true 2024-06-05 null",
                "To All the Boys: P.S. I Still Love You 2020 565426: true 2024-06-06 null",
            ])
    }

    @Test func withoutTMDBATitleOnlyItCouldTellIsUnsureListedAndNotLinked() async throws {
        let path = try file("shapes/NetflixViewingHistory.csv", Self.viewingHistory(Self.episodeShapes))
        var offline = mustc
        offline.environment["TMDB_API_KEY"] = nil
        let outcome = try await offline.run(["import", "Ann", path])
        #expect(outcome.status == 0, "\(outcome.all)")
        // The shows and the trilogy share their names' prefixes: 6 + 10 + 2 rows TMDB alone could tell.
        #expect(outcome.stdout.contains("18 unsure whether film or episode"), "\(outcome.all)")
        #expect(outcome.stdout.contains("3 shows or episodes"), "\(outcome.all)")
        #expect(
            outcome.stdout.contains(
                "NetflixViewingHistory.csv:2  unsure: \"1899: The Pyramid\": a film or an episode? 5 other titles "
                    + "start \"1899: \""), "\(outcome.all)")
        #expect(outcome.stdout.contains("The Two Towers\": a film or an episode? 1 other title starts"))
        let titles = Set(try await marks("Ann").map { $0.components(separatedBy: " 0 0:")[0] })
        #expect(
            titles == [
                "Léon: The Professional", "Pokémon: The First Movie", "Up", "To All the Boys: P.S. I Still Love You",
            ], "\(titles)")
    }

    @Test func whenTMDBDoesNotAnswerATitleOnlyItCouldTellIsUnsureToo() async throws {
        let path = try file("shapes/NetflixViewingHistory.csv", Self.viewingHistory(Self.episodeShapes))
        stub.inject(.malformedJSON, on: .search, times: nil)
        let (counts, all) = try await imported("Ann", path)
        #expect(counts["unsure"] == 18 && counts["episodes"] == 3 && counts["linked"] == 4, "\(all)")
        #expect(counts["failed"] == 4, "the films alone are kept for the next fetch: \(all)")
    }

    @Test func theDateOrderMessageSaysWhatHappensAndAFutureRowIsRefusedWhole() async throws {
        let path = try file(
            "mixed/NetflixViewingHistory.csv",
            Self.viewingHistory([
                ("Up", "27/07/2020"), ("Amélie", "07/28/2020"), ("Spirited Away", "01/02/2099"),
                ("My Neighbor Totoro", "01/02/2099"), ("My Neighbor Totoro", "03/02/2020"),
            ]))
        let refused = try await mustc("import", "Eve", path)
        #expect(refused.status == 64, "\(refused.all)")
        #expect(
            refused.stderr.contains(
                "a row whose date does not fit that order is still imported: its film is marked watched, without a "
                    + "day"), "\(refused.stderr)")
        let (counts, all) = try await imported("Eve", "--date-order", "dmy", path)
        #expect(counts["linked"] == 3 && counts["invalid"] == 2 && counts["marksNotTaken"] == 1, "\(all)")
        #expect(all.contains("the date \"01/02/2099\" is after today"), "\(all)")
        // What the message says: Amélie's 07/28/2020 is no day in dmy, and its film is watched without one.
        #expect(
            try await marks("Eve") == [
                "Up 2009 14160: true 2020-07-27 null", "Amélie 2001 194: true null null",
                "My Neighbor Totoro 1988 8392: true 2020-02-03 null",
            ])
    }

    /// ViewingActivity.csv of the full data download: several profiles, a film over sessions, trailers and hooks.
    static let activityHeader =
        "Profile Name,Start Time,Duration,Attributes,Title,Supplemental Video Type,Device Type,Bookmark,"
        + "Latest Bookmark,Country\n"
    static func session(
        _ profile: String, _ start: String, _ duration: String, _ title: String, _ supplemental: String = "",
        latest: String = "Not latest view"
    ) -> String {
        "\(profile),\(start),\(duration),,\"\(title)\",\(supplemental),Samsung 2019 TV,\(duration),\(latest),"
            + "US (United States)\n"
    }
    static let activity =
        activityHeader
        + session("Ann & Bob", "2024-03-02 21:10:00", "01:10:00", "Amélie", latest: "01:10:00")
        + session("Ann & Bob", "2024-03-01 20:00:00", "00:50:00", "Amélie")
        + session("Ann & Bob", "2024-03-01 19:58:00", "00:00:30", "Salt_hook_primary_16x9", "HOOK")
        + session("Ann & Bob", "2024-02-20 19:00:00", "00:02:10", "Dune: Part Two (Trailer)", "TRAILER")
        + session(
            "Ann & Bob", "2024-02-19 20:00:00", "00:45:00", "Stranger Things: Season 4: Chapter One (Episode 1)")
        + session("Ann & Bob", "2024-02-18 20:00:00", "00:02:00", "Up", latest: "00:02:00")
        + session("Ann & Bob", "2024-02-17 20:00:00", "01:30:00", "My Neighbor Totoro", latest: "01:30:00")
        + session("Kids", "2024-02-16 16:00:00", "02:00:00", "Spirited Away", latest: "02:00:00")
        + session("Cleo", "2024-02-15 16:00:00", "01:40:00", "Up", latest: "01:40:00")

    @Test func viewingActivityNeedsTheProfileAndImportsItsFilmsOnceEach() async throws {
        let path = try file("netflix-report/CONTENT_INTERACTION/ViewingActivity.csv", Self.activity)
        let refused = try await mustc("import", "Ann", path)
        #expect(refused.status == 64, "\(refused.all)")
        #expect(refused.stderr.contains("\"Ann & Bob\", \"Kids\", \"Cleo\""), "\(refused.stderr)")
        #expect(refused.stderr.contains("--netflix-profile"))
        let wrong = try await mustc("import", "Ann", "--netflix-profile", "Dad", path)
        #expect(wrong.status == 64 && wrong.stderr.contains("it has no profile \"Dad\""), "\(wrong.all)")
        #expect(!FileManager.default.fileExists(atPath: mustc.databasePath), "nothing written")

        let (counts, all) = try await imported("Ann", "--netflix-profile", "ann & bob", path)
        #expect(counts["rows"] == 9 && counts["linked"] == 2 && counts["merged"] == 1, "\(all)")
        // The hook, the trailer and Up played for two minutes; the episode; two other profiles' rows.
        #expect(counts["skipped"] == 6 && counts["extras"] == 3 && counts["episodes"] == 1, "\(all)")
        #expect(
            try await marks("Ann") == [
                "Amélie 2001 194: true 2024-03-02 null", "My Neighbor Totoro 1988 8392: true 2024-02-17 null",
            ])
        let dry = try await mustc("import", "--dry-run", "Ann", "--netflix-profile", "Kids", path)
        #expect(dry.stdout.contains("ViewingActivity.csv:2  skipped: Ann & Bob's viewing, not Kids's"), "\(dry.stdout)")
        #expect(dry.stdout.contains("9 rows; would link 1 to Ann's list"), "\(dry.stdout)")
    }
}
