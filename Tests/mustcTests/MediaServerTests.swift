import Foundation
import TMDBStub
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Jellyfin's, Plex's and Emby's webhooks posted in their real shapes to the built binary's `mustc serve`, against
/// the loopback TMDB stub; each step checks `ratings --format json` afterwards.
@Suite(.serialized) final class MediaServerTests {
    let stub: TMDBStubServer
    let mustc: MustcBinary
    static let matrix = StubMovie(
        id: 603, title: "The Matrix", popularity: 80, voteAverage: 8.2, voteCount: 25_000, releaseDate: "1999-03-30",
        imdbId: "tt0133093")

    init() throws {
        stub = TMDBStubServer(movies: StubMovie.classics + StubMovie.identity + [Self.matrix])
        try stub.start()
        mustc = MustcBinary(stub: stub)
    }

    deinit { stub.stop() }

    /// Each of a member's movies as "title year: watched ownRating", sorted.
    func marks(_ member: String) async throws -> [String] {
        let report = try await mustc("ratings", "--format", "json", "--member", member)
        #expect(report.status == 0, "\(report.all)")
        guard let members = try report.json()["members"] as? [[String: Any]], let first = members.first,
            let movies = first["movies"] as? [[String: Any]]
        else { return [] }
        return movies.map { movie in
            let rating = (movie["ownRating"] as? Int).map(String.init) ?? "-"
            return "\(movie["title"] as? String ?? "?") \(movie["remoteId"] as? Int ?? 0): "
                + "\((movie["watched"] as? Bool ?? false) ? "watched" : "not watched") \(rating)"
        }.sorted()
    }

    /// Waits (30 s at most) until the member's marks are `expected`: a lookup runs after the answer.
    func eventually(_ member: String, _ expected: [String]) async throws {
        var seen: [String] = []
        try await Poll.until(within: .seconds(30), every: .milliseconds(200)) {
            seen = try await marks(member)
            return seen == expected
        }
        #expect(seen == expected)
    }

    func post(_ url: String, _ body: Data, type: String) async throws -> Page {
        try await Self.post(url, body, type: type)
    }

    static func post(_ url: String, _ body: Data, type: String) async throws -> Page {
        var request = URLRequest(url: URL(string: url)!)
        request.httpMethod = "POST"
        request.setValue(type, forHTTPHeaderField: "Content-Type")
        request.httpBody = body
        let (data, response) = try await HTTP.session.data(for: request)
        let http = response as! HTTPURLResponse
        return Page(status: http.statusCode, headers: [:], body: String(decoding: data, as: UTF8.self), data: data)
    }

    static func json(_ object: [String: Any]) -> Data { try! JSONSerialization.data(withJSONObject: object) }

    /// Plex's multipart body: the `payload` part, and a JPEG `thumb` part whose bytes hold CR LF and dashes.
    static func plex(_ payload: [String: Any], boundary: String = "------------------------7d2b8c9f1e0a4b3c")
        -> (Data, String)
    {
        var body = Data()
        body += Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"payload\"\r\n".utf8)
        body += Data("Content-Type: application/json\r\n\r\n".utf8) + json(payload) + Data("\r\n".utf8)
        body += Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"thumb\"; filename=\"thumb.jpg\"\r\n".utf8)
        body += Data("Content-Type: image/jpeg\r\n\r\n".utf8)
        body += Data([0xFF, 0xD8, 0xFF, 0xE0, 0x0D, 0x0A, 0x2D, 0x2D, 0x00, 0x10]) + Data(repeating: 0x7F, count: 4000)
        body += Data([0x0D, 0x0A, 0x2D, 0x2D, 0x41, 0xFF, 0xD9]) + Data("\r\n--\(boundary)--\r\n".utf8)
        return (body, "multipart/form-data; boundary=\(boundary)")
    }

    static func plexMovie(_ event: String, user: String, metadata: [String: Any], rating: Any? = nil) -> [String: Any] {
        var movie: [String: Any] = [
            "librarySectionType": "movie", "ratingKey": "1234", "key": "/library/metadata/1234", "type": "movie",
            "librarySectionTitle": "Movies", "duration": 8_160_000, "addedAt": 1_699_999_999,
        ]
        movie.merge(metadata) { $1 }
        var payload: [String: Any] = [
            "event": event, "user": true, "owner": true, "Account": ["id": 1, "title": user],
            "Server": ["title": "Den"], "Player": ["local": true, "title": "Plex Web"], "Metadata": movie,
        ]
        if let rating { payload["rating"] = rating }
        return payload
    }

    static func jellyfin(_ fields: [String: Any]) -> Data {
        var body: [String: Any] = [
            "ServerName": "living-room", "NotificationType": "PlaybackStop", "ItemType": "Movie",
            "Timestamp": "2026-11-26T21:48:02.1234567+01:00", "RunTimeTicks": 81_840_000_000,
            "PlaybackPositionTicks": 81_800_000_000, "PlayedToCompletion": true, "Audio_0_Language": NSNull(),
            "NotificationUsername": "ann", "UserId": "5c6d7e",
        ]
        body.merge(fields) { $1 }
        return json(body)
    }

    static func emby(_ event: String, user: String, item: [String: Any]) -> [String: Any] {
        var movie: [String: Any] = ["Id": "123", "Type": "Movie", "MediaType": "Video", "RunTimeTicks": 81_840_000_000]
        movie.merge(item) { $1 }
        return ["Event": event, "Severity": "Info", "User": ["Name": user, "Id": "u1"], "Item": movie]
    }

    /// Emby's form: the JSON in the field `data`.
    static func form(_ object: [String: Any]) -> Data {
        let text = String(decoding: json(object), as: UTF8.self)
        let allowed = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")
        return Data(("data=" + text.addingPercentEncoding(withAllowedCharacters: allowed)!).utf8)
    }

    /// The URLs `mustc webhook --format json` printed, moved onto the running server's address; through the built
    /// binary, as `webhook`'s end-to-end runs.
    func urls(_ served: String, reset: Bool = false) async throws -> [String: String] {
        let made = try await mustc.runBinary(["webhook", "--format", "json"] + (reset ? ["--reset"] : []))
        #expect(made.status == 0, "\(made.all)")
        let printed = try #require(try made.json() as? [String: String])
        #expect(Set(printed.keys) == ["jellyfin", "plex", "emby"])
        return printed.mapValues { url in
            let path = url.range(of: "/hooks/").map { String(url[$0.lowerBound...]) } ?? url
            return String(served.dropLast()) + path
        }
    }

    @Test func eachServersRealShapesMarkAndRateTheRightMember() async throws {
        for member in ["Ann", "Bob"] { #expect(try await mustc("add", member, "Amélie").status == 0) }
        let server = try await ServeProcess.start(mustc)
        defer { server.ensureStopped() }
        let hooks = try await urls(server.url)
        let jellyfin = try #require(hooks["jellyfin"])
        let plex = try #require(hooks["plex"])
        let emby = try #require(hooks["emby"])

        // Jellyfin, by TMDB id, for "ann" (Ann folded): added, watched, then named by TMDB after the answer.
        let played = Self.jellyfin([
            "Name": "The Matrix", "Year": 1999, "Provider_tmdb": "603", "Provider_imdb": "tt0133093",
        ])
        var answer = try await post(jellyfin, played, type: "application/json")
        #expect(answer.status == 200 && answer.body.hasPrefix("marked The Matrix (1999) watched on "), "\(answer.body)")
        try await eventually("Ann", ["Amélie 194: not watched -", "The Matrix 603: watched -"])
        // The same viewing again (the user data saved after the stop): counted once.
        answer = try await post(
            jellyfin,
            Self.jellyfin([
                "NotificationType": "UserDataSaved", "SaveReason": "PlaybackFinished", "Played": "True",
                "Name": "The Matrix", "Provider_tmdb": "603", "PlayedToCompletion": NSNull(),
            ]), type: "application/json")
        #expect(answer.status == 200 && answer.body.contains("counted once"), "\(answer.body)")
        // No TMDB id: the IMDb id through /find.
        answer = try await post(
            jellyfin, Self.jellyfin(["Name": "Dune", "Year": 2021, "Provider_imdb": "tt1160419"]),
            type: "application/json")
        #expect(answer.status == 200, "\(answer.body)")
        try await eventually(
            "Ann", ["Amélie 194: not watched -", "Dune 438631: watched -", "The Matrix 603: watched -"])
        // An episode: 200, nothing written.
        answer = try await post(
            jellyfin,
            Self.jellyfin([
                "ItemType": "Episode", "Name": "Pilot", "SeriesName": "Andor", "SeasonNumber00": "01",
                "EpisodeNumber00": "01", "Provider_tmdb": "62085",
            ]), type: "application/json")
        #expect(answer.status == 200 && answer.body.hasPrefix("ignored: a Episode"), "\(answer.body)")

        // Plex: multipart with a thumbnail, the legacy single guid, then a rating given as a string.
        let scrobble = Self.plexMovie(
            "media.scrobble", user: "Bob",
            metadata: ["title": "The Lion King", "year": 1994, "guid": "com.plexapp.agents.imdb://tt0110357?lang=en"])
        var (body, type) = Self.plex(scrobble)
        answer = try await post(plex, body, type: type)
        #expect(answer.status == 200, "\(answer.body)")
        (body, type) = Self.plex(
            Self.plexMovie(
                "media.rate", user: "Bob", metadata: ["title": "Amélie", "Guid": [["id": "tmdb://194"]]], rating: "10"))
        answer = try await post(plex, body, type: type)
        #expect(answer.status == 200 && answer.body.hasPrefix("rated Amélie 10/10 for Bob"), "\(answer.body)")
        (body, type) = Self.plex(
            Self.plexMovie(
                "media.scrobble", user: "Bob", metadata: ["type": "clip", "subtype": "trailer", "title": "Dune"]))
        #expect(try await post(plex, body, type: type).status == 200)
        try await eventually("Bob", ["Amélie 194: not watched 10", "The Lion King 8587: watched -"])

        // Emby: JSON marks Up watched; the form un-marks it (a server's mark), but not Amélie, marked by hand.
        let up = ["Name": "Up", "ProductionYear": 2009, "ProviderIds": ["Tmdb": "14160"]] as [String: Any]
        answer = try await post(
            emby, Self.json(Self.emby("item.markplayed", user: "Ann", item: up)), type: "application/json")
        #expect(answer.status == 200, "\(answer.body)")
        try await eventually(
            "Ann",
            ["Amélie 194: not watched -", "Dune 438631: watched -", "The Matrix 603: watched -", "Up 14160: watched -"])
        answer = try await post(
            emby, Self.form(Self.emby("item.markunplayed", user: "Ann", item: up)),
            type: "application/x-www-form-urlencoded")
        #expect(answer.status == 200 && answer.body.hasPrefix("took back"), "\(answer.body)")
        #expect(try await mustc("watched", "Ann", "Amélie").status == 0)
        let amelie = ["Name": "Amélie", "ProviderIds": ["Tmdb": "194"]] as [String: Any]
        answer = try await post(
            emby, Self.form(Self.emby("item.markunplayed", user: "Ann", item: amelie)),
            type: "application/x-www-form-urlencoded")
        #expect(answer.body.hasPrefix("kept Ann's watched mark"), "\(answer.body)")
        #expect(
            try await marks("Ann") == [
                "Amélie 194: watched -", "Dune 438631: watched -", "The Matrix 603: watched -",
                "Up 14160: not watched -",
            ])

        let status = try await mustc("status", "--json")
        let media = try #require(try status.json()["mediaServers"] as? [String: Any])
        let last = try #require(media["last"] as? [[String: Any]])
        #expect(last.map { $0["server"] as? String } == ["emby", "jellyfin", "plex"])
        for url in hooks.values {
            let token = String(url.split(separator: "/").last ?? "")
            #expect(!status.all.contains(token))
            #expect(!(try await HTTP.get(server.url + "status")).body.contains(token))
        }
        _ = await server.stop()
    }

    @Test func unknownUsersWrongTokensBadBodiesAndAResetWriteNothing() async throws {
        #expect(try await mustc("add", "Ann", "Amélie").status == 0)
        let server = try await ServeProcess.start(mustc)
        defer { server.ensureStopped() }
        let hooks = try await urls(server.url)
        let jellyfin = try #require(hooks["jellyfin"])
        let before = try await marks("Ann")
        let matrix = Self.jellyfin(["NotificationUsername": "kidsroom", "Name": "The Matrix", "Provider_tmdb": "603"])

        // An unknown user: ignored, and listed by status with the user's name.
        var answer = try await post(jellyfin, matrix, type: "application/json")
        #expect(
            answer.status == 200 && answer.body.hasPrefix("ignored: no member is called kidsroom"), "\(answer.body)")
        #expect(try await marks("Ann") == before)
        let status = try await mustc("status")
        #expect(status.stdout.contains("user kidsroom: The Matrix"), "\(status.all)")
        #expect(try await HTTP.get(server.url + "status").body.contains("user kidsroom: The Matrix"))
        // A user name of 100,000 characters is kept and shown cut: status and /status stay small.
        let huge = String(repeating: "é", count: 100_000)
        answer = try await post(
            jellyfin, Self.jellyfin(["NotificationUsername": huge, "Name": "Up", "Provider_tmdb": "14160"]),
            type: "application/json")
        #expect(answer.status == 200 && answer.body.count < 400, "\(answer.body.prefix(300))")
        let shown = try await mustc("status")
        #expect(shown.stdout.contains(String(repeating: "é", count: 199) + "…"))
        #expect(shown.stdout.utf8.count < 20_000, "status: \(shown.stdout.utf8.count) bytes")
        let page = try await HTTP.get(server.url + "status").body
        #expect(page.utf8.count < 60_000, "/status: \(page.utf8.count) bytes")

        // Malformed and oversized bodies: 400 with one line, 413; nothing written.
        answer = try await post(jellyfin, Data("{\"NotificationType\": ".utf8), type: "application/json")
        #expect(answer.status == 400 && answer.body == "the body is not JSON; nothing was written\n")
        // A valid event holding sixteen arrays nested 400 deep (16 KB): refused at once, before decoding. The event
        // is the first level: an array 64 deep in it makes 65 and is refused, 63 deep is read.
        func deep(_ levels: Int, _ count: Int) -> Data {
            let nested = String(repeating: "[", count: levels) + String(repeating: "]", count: levels)
            var text = String(decoding: matrix, as: UTF8.self)
            text.removeLast()
            for index in 0..<count { text += ", \"Extra\(index)\": " + nested }
            return Data((text + "}").utf8)
        }
        let started = ContinuousClock.now
        answer = try await post(jellyfin, deep(400, 16), type: "application/json")
        let took = ContinuousClock.now - started
        print("sixteen 400-deep arrays: answered \(answer.status) in \(took)")
        #expect(answer.status == 400 && answer.body == "the body nests deeper than 64 levels; nothing was written\n")
        answer = try await post(jellyfin, deep(64, 1), type: "application/json")
        #expect(answer.status == 400 && answer.body.hasPrefix("the body nests deeper than 64 levels"))
        answer = try await post(jellyfin, deep(63, 1), type: "application/json")
        #expect(
            answer.status == 200 && answer.body.hasPrefix("ignored: no member is called kidsroom"), "\(answer.body)")
        let port = try #require(URL(string: server.url)?.port)
        let path = try #require(URL(string: jellyfin)?.path)
        let connection = try RawConnection(port: port)
        connection.send(
            "POST \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nContent-Type: application/json\r\n"
                + "Content-Length: \(3 * 1024 * 1024)\r\n\r\n" + String(repeating: " ", count: 65_536))
        let large = try #require(try await connection.answer(to: "POST", within: 20))
        #expect(large.status == 413)
        // A plain multipart body with no payload part.
        let (empty, type) = Self.plex([:], boundary: "b")
        let noPayload = String(decoding: empty, as: UTF8.self).replacingOccurrences(
            of: "name=\"payload\"", with: "name=\"other\"")
        answer = try await post(try #require(hooks["plex"]), Data(noPayload.utf8), type: type)
        #expect(answer.status == 400 && answer.body == "the multipart body has no payload part; nothing was written\n")

        // Mapped: the same user's event now goes to Ann.
        #expect(try await mustc("member", "Ann", "--media-user", "KidsRoom").status == 0)
        answer = try await post(jellyfin, matrix, type: "application/json")
        #expect(answer.status == 200 && answer.body.contains("for Ann"), "\(answer.body)")
        try await eventually("Ann", ["Amélie 194: not watched -", "The Matrix 603: watched -"])

        // A reset: the old URL is an unknown address at once; the new one works.
        let fresh = try await urls(server.url, reset: true)
        let unknown = try await post(server.url + "no/such/page", matrix, type: "application/json")
        answer = try await post(jellyfin, matrix, type: "application/json")
        #expect(answer.status == 404 && unknown.status == 404 && answer.body == unknown.body)
        #expect(try await post(try #require(fresh["jellyfin"]), matrix, type: "application/json").status == 200)
        // Wrong tokens are limited like wrong passwords: the sixth in a minute is refused, even with the right one.
        for _ in 0..<4 { #expect(try await post(jellyfin, matrix, type: "application/json").status == 404) }
        let refused = try await post(try #require(fresh["jellyfin"]), matrix, type: "application/json")
        #expect(refused.status == 429)
        _ = await server.stop()
    }

    /// Events sent at once are written together (one commit for those that wait): each is still answered only once
    /// it is kept, and a repeat among them is counted once.
    @Test func eventsSentAtOnceAreEachKeptBeforeTheirAnswer() async throws {
        #expect(try await mustc("add", "Ann", "Amélie").status == 0)
        let server = try await ServeProcess.start(mustc)
        defer { server.ensureStopped() }
        let jellyfin = try #require(try await urls(server.url)["jellyfin"])
        let movies = [
            (603, "The Matrix"), (14160, "Up"), (129, "Spirited Away"), (841, "Dune"), (8392, "My Neighbor Totoro"),
        ]
        let bodies = (movies + movies.prefix(1) + [(194, "Amélie")]).map { id, title in
            Self.jellyfin(["Name": title, "Provider_tmdb": "\(id)"])
        }
        let answers = try await withThrowingTaskGroup(of: Page.self) { group in
            for body in bodies { group.addTask { try await Self.post(jellyfin, body, type: "application/json") } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(answers.map(\.status) == Array(repeating: 200, count: 7), "\(answers.map(\.body))")
        let said = answers.map(\.body)
        #expect(said.filter { $0.hasPrefix("marked The Matrix watched on ") }.count == 1, "\(said)")
        #expect(said.filter { $0.hasPrefix("The Matrix was already marked watched for Ann: counted once") }.count == 1)
        #expect(said.filter { $0.hasPrefix("marked Amélie watched on ") && !$0.contains("added") }.count == 1)
        try await eventually(
            "Ann",
            [
                "Amélie 194: watched -", "Dune 841: watched -", "My Neighbor Totoro 8392: watched -",
                "Spirited Away 129: watched -", "The Matrix 603: watched -", "Up 14160: watched -",
            ])
        _ = await server.stop()
    }

    @Test func theAnswerComesBeforeTMDBAndAFailedLookupIsLeftToTheNextFetch() async throws {
        #expect(try await mustc("add", "Ann", "Amélie").status == 0)
        let server = try await ServeProcess.start(mustc)
        defer { server.ensureStopped() }
        let jellyfin = try #require(try await urls(server.url)["jellyfin"])
        stub.inject(.hang(seconds: 60), on: .details(id: 14160), times: nil)
        let answer = try await post(
            jellyfin, Self.jellyfin(["Name": "Up", "Year": 2009, "Provider_tmdb": "14160"]), type: "application/json")
        #expect(answer.status == 200, "\(answer.body)")
        // Answered while TMDB still hangs: the movie is stored, watched, with no figures yet.
        let report = try await mustc("ratings", "--format", "json", "--member", "Ann")
        let movies = try #require(
            (try report.json()["members"] as? [[String: Any]])?.first?["movies"] as? [[String: Any]])
        let up = try #require(movies.first { $0["remoteId"] as? Int == 14160 })
        #expect(up["watched"] as? Bool == true && up["voteCount"] is NSNull)
        _ = await server.stop()
        stub.clearFaults()
        #expect(try await mustc("fetch").status == 0)
        try await eventually("Ann", ["Amélie 194: not watched -", "Up 14160: watched -"])
    }

    /// A bare title of two TMDB movies is no guess: `mustc status` lists it as needing a choice, with the watch that
    /// waits for it, the member's list has it unwatched, and `mustc resolve` applies the watch with its day.
    @Test func aBareTitleOfTwoMoviesWaitsForResolve() async throws {
        #expect(try await mustc("add", "Ann", "Amélie").status == 0)
        let server = try await ServeProcess.start(mustc)
        defer { server.ensureStopped() }
        let jellyfin = try #require(try await urls(server.url)["jellyfin"])
        for _ in 0..<2 {
            let answer = try await post(jellyfin, Self.jellyfin(["Name": "Dune"]), type: "application/json")
            #expect(answer.status == 200, "\(answer.body)")
        }
        var status = ""
        try await Poll.until(within: .seconds(30), every: .milliseconds(200)) {
            status = try await mustc("status").stdout
            return status.contains("tmdb:841")
        }
        let day = try #require(status.firstMatch(of: #/Ann's watched mark of (\d{4}-\d\d-\d\d) \(from jellyfin\)/#))
        #expect(status.contains("Movies that need a choice"), "\(status)")
        #expect(status.contains("mustc resolve Ann Dune tmdb:438631"), "\(status)")
        #expect(status.components(separatedBy: "waits for this choice").count == 2, "\(status)")
        #expect(try await marks("Ann") == ["Amélie 194: not watched -", "Dune 0: not watched -"])
        _ = await server.stop()
        let resolved = try await mustc("resolve", "Ann", "Dune", "tmdb:438631")
        #expect(resolved.status == 0, "\(resolved.all)")
        #expect(try await marks("Ann") == ["Amélie 194: not watched -", "Dune 438631: watched -"])
        let report = try await mustc("ratings", "--format", "json", "--member", "Ann")
        let movies = try #require(
            (try report.json()["members"] as? [[String: Any]])?.first?["movies"] as? [[String: Any]])
        #expect(movies.first { $0["remoteId"] as? Int == 438631 }?["watchedOn"] as? String == String(day.output.1))
        #expect(!(try await mustc("status").stdout.contains("waits for this choice")))
    }

    /// When TMDB cannot be asked as the event comes, the next fetch finds the two Dunes and, as a watch waits on the
    /// movie, saves them for a choice rather than taking the more popular; a bare title nobody's watch waits on is
    /// still taken as `add` takes it.
    @Test func aFetchAfterAFailedLookupLeavesTheHeldWatchToAChoice() async throws {
        #expect(try await mustc("add", "Ann", "Amélie").status == 0)
        let server = try await ServeProcess.start(mustc)
        defer { server.ensureStopped() }
        let jellyfin = try #require(try await urls(server.url)["jellyfin"])
        stub.inject(.unauthorized, on: .search, times: nil)
        let answer = try await post(jellyfin, Self.jellyfin(["Name": "Dune"]), type: "application/json")
        #expect(answer.status == 200 && answer.body.hasPrefix("held Ann's watched mark on Dune"), "\(answer.body)")
        // Bob's bare title is kept unlooked-up too (TMDB refuses the key just now); nobody's watch waits on it.
        _ = try await mustc("add", "Bob", "The Lion King")
        _ = await server.stop()
        stub.clearFaults()
        let fetched = try await mustc("fetch")
        #expect(fetched.status == 0, "\(fetched.all)")
        #expect(try await marks("Ann") == ["Amélie 194: not watched -", "Dune 0: not watched -"])
        #expect(try await marks("Bob") == ["The Lion King 8587: not watched -"])
        let status = try await mustc("status").stdout
        #expect(status.contains("mustc resolve Ann Dune tmdb:841") && status.contains("waits for this choice"))
    }
}
