import Foundation
import MustCore

extension TMDBStubServer {
    struct Reply {
        var status: Int
        var headers: [(String, String)] = [("Content-Type", "application/json;charset=utf-8")]
        var body: Data
        var delay: Double = 0
        /// Send only this much of the body (with the full Content-Length), then close: a cut-off answer.
        var cutAt: Int?
    }

    func respond(to head: HTTPWire.Head) -> Reply {
        let (path, query) = Self.split(head.target)
        if path.hasPrefix("/_stub/") { return locked { control(path, query) } }
        // TMDB's image host is not its API: no key, no rate limit, counted apart.
        // Its bodies (a card, or 50 MB of a fault) are made outside the lock, so the API's answers never wait on them.
        if path.hasPrefix(StubPoster.prefix) {
            let (fault, movie) = locked { () -> (StubFault?, StubMovie?) in
                noteImage(RecordedRequest(path: path, query: query, headers: head.headers))
                return (takeFault(for: path), StubPoster.parse(path).flatMap { movieUnlocked($0.id) })
            }
            let image = Self.image(path, movie: movie)
            var reply = fault.map { Self.reply(for: $0, otherwise: image) } ?? image
            reply.delay += latency
            return reply
        }
        var reply = locked { () -> Reply in
            note(RecordedRequest(path: path, query: query, headers: head.headers))
            if let limited = overLimit() { return limited }
            guard authorized(query: query, headers: head.headers) else {
                return Self.error(401, code: 7, "Invalid API key: You must be granted a valid key.")
            }
            let fault = takeFault(for: path)
            if case .answerFor(let other)? = fault { return route("/3/movie/\(other)", query) }
            if let fault { return Self.reply(for: fault, otherwise: route(path, query)) }
            return route(path, query)
        }
        reply.delay += latency
        return reply
    }

    /// Not TMDB: lets benchmarks that run the `tmdb-stub` binary read its counters and change ratings.
    /// `/_stub/touch?id=N` (or `ids=N,M,...`) adds a vote, or with `field=popularity` moves the popularity, with
    /// `field=voteAverage` the rating. `/_stub/recommend` sets a movie's recommendations (the demo's suggestions).
    private func control(_ path: String, _ query: [String: String]) -> Reply {
        switch path {
        case "/_stub/stats":
            return Self.json([
                "requests": served, "rateLimited": rateLimitedCount, "peakConcurrency": peakInFlight,
                "connections": connectionsUnlocked, "changes": changeLog.changes, "detections": changeLog.detections,
                "delays": changeLog.delays.map { [$0.id, $0.seconds] as [Any] },
                "unseenAges": changeLog.unseenAges(at: Date()),
            ])
        case "/_stub/touch":
            let ids = (query["ids"] ?? query["id"] ?? "").split(separator: ",").compactMap { Int($0) }
            guard !ids.isEmpty, ids.allSatisfy({ movieUnlocked($0) != nil }) else {
                return Self.error(404, code: 34, "No such stub movie.")
            }
            let now = Date()
            for id in ids {
                guard var movie = movieUnlocked(id) else { continue }
                if query["field"] == "providers" {
                    toggleNetflixUnlocked(id)
                    changeLog.changed(id, at: now)
                    continue
                }
                if query["field"] == "popularity" {
                    movie.popularity = (movie.popularity * 1000 + 137).rounded() / 1000
                } else if query["field"] == "voteAverage" {
                    // A tenth up, with the vote that moved it: the demo's ratings change as real ones do.
                    movie.voteAverage = (movie.voteAverage * 10 + 1).rounded() / 10
                    movie.voteCount += 1
                } else {
                    movie.voteCount += 1
                }
                replaceUnlocked(movie)
                changeLog.changed(id, at: now)
            }
            return Self.json(["touched": ids.count])
        case "/_stub/recommend":
            // `/_stub/recommend?id=N&ids=A,B`: what `/movie/N/recommendations` lists, as `setRecommendations`.
            let listed = (query["ids"] ?? "").split(separator: ",").compactMap { Int($0) }
            guard let id = query["id"].flatMap(Int.init), movieUnlocked(id) != nil,
                listed.allSatisfy({ movieUnlocked($0) != nil })
            else { return Self.error(404, code: 34, "No such stub movie.") }
            recommendations[id] = listed
            return Self.json(["recommended": listed.count])
        default:
            return Self.error(404, code: 34, "The resource you requested could not be found.")
        }
    }

    private func route(_ path: String, _ query: [String: String]) -> Reply {
        // Outside /3 is TMDB's web server, not its API: a base URL without "/3" gets its HTML 404 page.
        guard path.hasPrefix("/3/") else { return Self.webPageNotFound }
        if path == "/3/search/movie" { return search(query) }
        if path.hasPrefix("/3/find/") { return find(String(path.dropFirst("/3/find/".count)), query) }
        if path == "/3/certification/movie/list" { return Self.json(StubExtras.certificationList) }
        if path.hasPrefix("/3/movie/"), path.hasSuffix("/recommendations") {
            return recommended(String(path.dropFirst("/3/movie/".count).dropLast("/recommendations".count)), query)
        }
        if path.hasPrefix("/3/movie/") {
            guard let id = Int(path.dropFirst("/3/movie/".count)), id > 0 else {
                return Self.error(404, code: 6, "Invalid id: The pre-requisite id is invalid or not found.")
            }
            return details(id, appending: (query["append_to_response"] ?? "").split(separator: ",").map(String.init))
        }
        return Self.error(404, code: 34, "The resource you requested could not be found.")
    }

    private func search(_ query: [String: String]) -> Reply {
        let page = Int(query["page"] ?? "1") ?? 0
        guard (1...500).contains(page) else {
            return Self.error(
                400, code: 22, "Invalid page: Pages start at 1 and max at 500. They are expected to be an integer.")
        }
        guard let asked = query["query"], !asked.isEmpty else {
            return Self.json(["errors": ["query must be provided"]], status: 422)
        }
        let key = Self.fold(asked)
        var matches = key.isEmpty ? [] : self.matches(key)
        // TMDB's `year` matches any release date's year; the stub has one date per movie.
        if let year = query["year"] { matches = matches.filter { $0.releaseDate.hasPrefix(year + "-") } }
        let pageSize = 20
        let slice = matches.dropFirst((page - 1) * pageSize).prefix(pageSize)
        return Self.json([
            "page": page, "results": slice.map(\.searchResult),
            "total_pages": (matches.count + pageSize - 1) / pageSize, "total_results": matches.count,
        ])
    }

    /// `GET /find/{external_id}?external_source=imdb_id`: lists per kind, empty (not 404) for an unknown id.
    private func find(_ externalId: String, _ query: [String: String]) -> Reply {
        guard query["external_source"] == "imdb_id" else {
            return Self.error(400, code: 5, "Invalid parameters: Your request parameters are incorrect.")
        }
        let found = allMoviesUnlocked.filter { $0.imdbId == externalId }.sorted { $0.id < $1.id }
        return Self.json([
            "movie_results": found.map { movie in
                var fields = movie.searchResult
                fields["media_type"] = "movie"
                return fields
            },
            "person_results": [Any](), "tv_results": [Any](), "tv_episode_results": [Any](),
            "tv_season_results": [Any](),
        ])
    }

    /// `GET /movie/{id}/recommendations`: one page in the list shape, with `media_type` and `genre_ids` as newer
    /// answers carry them; 404 for a movie the stub does not know.
    private func recommended(_ idText: String, _ query: [String: String]) -> Reply {
        guard let id = Int(idText), id > 0, movieUnlocked(id) != nil else {
            return Self.error(404, code: 34, "The resource you requested could not be found.")
        }
        let page = Int(query["page"] ?? "1") ?? 0
        guard (1...500).contains(page) else {
            return Self.error(
                400, code: 22, "Invalid page: Pages start at 1 and max at 500. They are expected to be an integer.")
        }
        let found = recommendationsUnlocked(id).compactMap { movieUnlocked($0) }
        let results: [[String: Any]] =
            page == 1
            ? found.prefix(20).map { movie in
                var fields = movie.searchResult
                fields["media_type"] = "movie"
                fields["genre_ids"] = extrasUnlocked(for: movie).genresField.compactMap { $0["id"] }
                return fields
            } : []
        return Self.json([
            "page": page, "results": results, "total_pages": found.isEmpty ? 0 : 1, "total_results": found.count,
        ])
    }

    /// The stub's own fold, deliberately not mustc's `TitleKey`: lower case, no diacritics, single spaces. A
    /// regression in TitleKey then shows as a failed match instead of being mirrored by the stub.
    static func fold(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: Locale(identifier: "en_US_POSIX"))
            .lowercased()
            .split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// Details, with the blocks `append_to_response` names (others are ignored, as TMDB ignores unknown ones).
    private func details(_ id: Int, appending blocks: [String]) -> Reply {
        guard let movie = movieUnlocked(id) else {
            return Self.error(404, code: 34, "The resource you requested could not be found.")
        }
        changeLog.answered(id, at: Date())
        let extras = extrasUnlocked(for: movie)
        var body = detailsUnlocked(movie, extras: extras)
        // The blocks are serialised once per movie and spliced in: building 80 KB of JSON for every answer, under
        // the stub's one lock, held a 5,000-movie forced fetch to 70 answers a second.
        for block in ["release_dates", "watch/providers"] where blocks.contains(block) && body.last == UInt8(ascii: "}")
        {
            body.removeLast()
            body.append(contentsOf: Array(",\"\(block.replacingOccurrences(of: "/", with: "\\/"))\":".utf8))
            body.append(blockUnlocked(block, movie: movie, extras: extras))
            body.append(UInt8(ascii: "}"))
        }
        return Reply(status: 200, body: body)
    }

    static func reply(for fault: StubFault, otherwise normal: Reply) -> Reply {
        switch fault {
        case .unauthorized: return error(401, code: 7, "Invalid API key: You must be granted a valid key.")
        case .notFound: return error(404, code: 34, "The resource you requested could not be found.")
        case .rateLimited(let retryAfter):
            var reply = error(429, code: 25, "Your request count (41) is over the allowed limit of (40).")
            reply.headers.append(("Retry-After", retryAfter))
            return reply
        case .serverError(let status):
            return status == 504
                ? error(504, code: 24, "Your request to the backend server timed out. Try again.")
                : error(status, code: 9, "Service offline: This service is temporarily offline, try again later.")
        case .unprocessable:
            return json(["errors": ["query must be provided"]], status: 422)
        case .malformedJSON:
            return Reply(status: 200, body: Data("{\"page\":1,\"results\":[{\"id\":".utf8))
        case .hang(let seconds):
            var reply = normal
            reply.delay = seconds
            return reply
        case .field(let name, let json):
            guard var object = (try? JSONSerialization.jsonObject(with: normal.body)) as? [String: Any],
                let value = try? JSONSerialization.jsonObject(with: Data(json.utf8), options: .fragmentsAllowed)
            else { return normal }
            object[name] = value
            return Reply(status: normal.status, body: (try? JSONSerialization.data(withJSONObject: object)) ?? Data())
        case .htmlPage:
            return Reply(
                status: 200, headers: [("Content-Type", "text/html; charset=utf-8")],
                body: Data("<!DOCTYPE html><html><head><title>Sign in</title></head><body>Wi-Fi</body></html>".utf8))
        case .truncatedBody:
            var reply = normal
            reply.cutAt = normal.body.count / 2
            return reply
        case .answerFor:
            // Only the API's details are answered for another movie (in `respond`); an image stays itself.
            return normal
        case .oversizedBody(let bytes):
            // Made as bytes: a String of millions of spaces, then encoded, had been a second of the suite's CPU.
            var body = Data("{\"id\": 1".utf8)
            body.append(Data(repeating: UInt8(ascii: " "), count: max(bytes - 9, 0)))
            body.append(UInt8(ascii: "}"))
            return Reply(status: 200, body: body)
        }
    }

    /// A web server's own 404: HTML, no `status_code`, as any address that is not TMDB's API answers.
    static let webPageNotFound = Reply(
        status: 404, headers: [("Content-Type", "text/html; charset=utf-8")],
        body: Data(
            "<!DOCTYPE html><html><head><title>404 Not Found</title></head><body><h1>Not Found</h1></body></html>".utf8)
    )

    static func error(_ status: Int, code: Int, _ message: String) -> Reply {
        json(["success": false, "status_code": code, "status_message": message], status: status)
    }

    static func json(_ object: [String: Any], status: Int = 200) -> Reply {
        let body = (try? JSONSerialization.data(withJSONObject: object)) ?? Data()
        return Reply(status: status, body: body)
    }

    /// Splits "/3/search/movie?query=a%2Bb&page=1" and decodes the query as a form: "+" is a space.
    static func split(_ target: String) -> (String, [String: String]) {
        let parts = target.split(separator: "?", maxSplits: 1)
        var query: [String: String] = [:]
        for pair in (parts.count > 1 ? parts[1] : "").split(separator: "&") {
            let field = pair.split(separator: "=", maxSplits: 1).map {
                $0.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String($0)
            }
            query[field[0]] = field.count > 1 ? field[1] : ""
        }
        return (parts.first.map(String.init) ?? "/", query)
    }
}
