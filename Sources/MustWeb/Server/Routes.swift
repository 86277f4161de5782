import Foundation
import Hummingbird
import MustCore

/// Every address the server answers is registered from here: the pages, the JSON, the posters and the static files
/// in this function, and sign-in and the edit forms' routes in `EditRoutes.register`, which it calls. Pages and
/// JSON are GET only; a form's routes go beside the pages they belong to.
enum Routes {
    static func register(on router: Router<PageContext>, pages: Pages, edits: WebEdits?, hosts: AllowedHosts) throws {
        let known = KnownRoutes()
        router.add(middleware: HeadWithoutBody())
        router.add(middleware: SecurityHeaders())
        router.add(middleware: ErrorPages(site: pages.site, known: known))
        router.add(middleware: RequestChecks(hosts: hosts))
        if let edits { MediaServerRoutes.register(on: router, edits: edits) }
        if let edits { try EditRoutes.register(on: router, edits: edits) }
        router.add(middleware: Freshness(reader: pages.reader, cache: PageCache(), time: pages.clock))

        router.get("/") { _, _ in try await pages.home() }
        router.get("/members/:name") { request, context in
            let query = request.uri.queryParameters
            return try await pages.member(
                try context.decoded("name"),
                query: try MemberQuery(
                    sort: query["sort"].map(String.init), show: query["show"].map(String.init),
                    q: query["q"].map(String.init), page: query["page"].map(String.init)))
        }
        router.get("/movies/:id") { _, context in
            guard let id = Int(try context.decoded("id")), id > 0 else {
                throw PageError.notFound("A movie's address is /movies/ and its TMDB id.")
            }
            return try await pages.movie(.tmdb(id))
        }
        router.get("/movies/local/:id") { _, context in
            guard let id = Int64(try context.decoded("id")), id > 0 else {
                throw PageError.notFound("A movie without a TMDB id has the address /movies/local/ and a number.")
            }
            return try await pages.movie(.local(id))
        }
        router.get("/changes") { request, _ in
            try await pages.changes(since: request.uri.queryParameters["since"].map(String.init))
        }
        router.get("/status") { _, _ in try await pages.status() }
        router.get("/night") { request, _ in
            let query = request.uri.queryParameters
            return try await pages.night(
                members: query.getAll("member").map { String($0) }, includeWatched: query["watched"] == "include",
                choices: try NightChoices(query), back: request.uri.description)
        }

        router.get("/api/ratings") { request, _ in
            try await pages.ratingsJSON(member: request.uri.queryParameters["member"].map(String.init))
        }
        router.get("/api/changes") { request, _ in
            try await pages.changesJSON(since: request.uri.queryParameters["since"].map(String.init))
        }
        router.get("/api/status") { _, _ in try await pages.statusJSON() }

        let posters = PosterFiles(shelf: pages.posters)
        router.get("/posters/:size/:file") { _, context in
            try await pages.checkPoster(try context.parameters.require("file"))
            return try await posters.response(
                size: try context.parameters.require("size"), file: try context.parameters.require("file"))
        }

        router.get("/static/site.css") { _, _ in Static.response(Stylesheet.css, type: "text/css; charset=utf-8") }
        router.get("/static/icon.svg") { _, _ in Static.response(Stylesheet.icon, type: "image/svg+xml") }
        router.get("/favicon.ico") { _, _ in Static.response(Stylesheet.icon, type: "image/svg+xml") }
        // Last: every route is in.
        known.record(router.routes.map { (path: $0.path.description, method: $0.method) })
    }
}

extension PageContext {
    /// A path parameter, percent-decoded once; a malformed escape is a 400. `~.` and `~..` are the names `.` and
    /// `..` (see `WebPath.segment`).
    func decoded(_ name: String) throws -> String {
        guard let text = WebPath.name(segment: try parameters.require(name)) else {
            throw PageError.badRequest("The address has a malformed %-escape.")
        }
        return text
    }
}

/// The stylesheet and icon: part of the binary, so they change only with it.
enum Static {
    static func response(_ text: String, type: String) -> Response {
        var response = Site.response(text, type: type)
        response.headers[.cacheControl] = "public, max-age=86400"
        response.headers[.eTag] = "\"\(MustcVersion.current)\""
        return response
    }
}
