import Foundation
import HTTPTypes
import Hummingbird
import MustCore

/// Decides who is asking (`Viewer`) for every request, and gives a signed-in viewer's pages their forms: the
/// page templates stay as they are, and `Site.page` adds what `PageInsert` holds. A signed-in page is never
/// cached or answered 304, so signing in or out always shows the right page.
struct EditAccess<Context: RequestContext>: RouterMiddleware {
    let edits: WebEdits
    let pages: EditPages

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        // The stylesheet, the icon, the JSON and the posters are the same for everyone: no session read for them,
        // and a poster keeps its year of caching for a signed-in phone too.
        let path = request.uri.path
        if path.hasPrefix("/static/") || path.hasPrefix("/api/") || path.hasPrefix("/posters/")
            || path == "/favicon.ico"
        {
            return try await next(request, context)
        }
        let viewer = try await edits.viewer(request)
        var request = request
        var insert: PageInsert?
        if request.method == .get || request.method == .head {
            switch viewer {
            case .signedIn(let token):
                var head = request.head
                head.headerFields[.ifNoneMatch] = nil
                head.headerFields[.ifModifiedSince] = nil
                request = Request(head: head, body: request.body)
                insert = try await edits.insert(for: request.uri.path, token: token, pages: pages)
            case .signedOut:
                insert = PageInsert(top: pages.render([String: String](), "signedOutBar"), bottom: "")
            case .editsOff:
                break
            }
        }
        let forwarded = request
        var response = try await Viewer.$current.withValue(viewer) {
            try await PageInsert.$current.withValue(insert) { try await next(forwarded, context) }
        }
        response.headers[.vary] = "Cookie"
        if viewer.session != nil {
            response.headers[.eTag] = nil
            response.headers[.lastModified] = nil
            response.headers[.cacheControl] = "no-store"
        }
        return response
    }
}

/// HTML a signed-in (or signed-out) viewer's page gains: `top` at the start of `<main>`, `bottom` at its end.
struct PageInsert: Sendable {
    var top: String
    var bottom: String

    @TaskLocal static var current: PageInsert?

    /// The page with the current insert, if any; called by `Site.page` on every rendered page.
    static func apply(_ html: String) -> String {
        guard let insert = current else { return html }
        var html = html
        if !insert.top.isEmpty, let main = html.range(of: "<main>\n") {
            html.replaceSubrange(main, with: "<main>\n" + insert.top)
        }
        if !insert.bottom.isEmpty, let end = html.range(of: "</main>", options: .backwards) {
            html.replaceSubrange(end, with: insert.bottom + "</main>")
        }
        return html
    }
}

extension WebEdits {
    /// The forms for the page at `path`: the family page adds members, a member page adds and removes movies, a
    /// movie page and /status settle movies. The last edit's notice shows on the first of these pages.
    func insert(for path: String, token: SessionToken, pages: EditPages) async throws -> PageInsert {
        let csrf = token.csrfToken
        let top = pages.render(BarModel(csrf: csrf), "signedInBar")
        let segments = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
            .map { WebPath.name(segment: $0) ?? "" }
        let store = reader
        func notice() -> NoticeModel? { NoticeModel(notices.withLock { $0.take(for: token.hash) }) }
        switch segments.first {
        case "" where segments.count == 1:
            return PageInsert(top: top, bottom: pages.render(HomeFormsModel(csrf: csrf, notice: notice()), "homeForms"))
        case "members" where segments.count == 2:
            let name = segments[1]
            let movies = try await blocking { try store.ratings(member: name).members.first?.movies }
            guard let movies else { return PageInsert(top: top, bottom: "") }
            let rows = movies.map { movie in
                let named = (movie.remoteId.map { MovieReference.tmdb($0) } ?? .title(movie.title, year: movie.year))
                return MemberFormsModel.Movie(
                    shown: MovieName.shown(movie.title, movie.year),
                    href: WebPath.member(name) + "/remove?movie=" + Self.queryEncoded(named.description))
            }
            let model = MemberFormsModel(
                csrf: csrf, notice: notice(), addAction: WebPath.member(name) + "/movies", movies: rows)
            return PageInsert(top: top, bottom: pages.render(model, "memberForms"))
        case "movies" where segments.count == 2 || (segments.count == 3 && segments[1] == "local"):
            let key: MovieKey? =
                segments.count == 2 ? Int(segments[1]).map { .tmdb($0) } : Int64(segments[2]).map { .local($0) }
            guard let key else { return PageInsert(top: top, bottom: "") }
            let model = try await movieForms(key, csrf: csrf, path: path, notice: notice)
            return PageInsert(top: top, bottom: pages.render(model, "movieForms"))
        case "status" where segments.count == 1:
            let waiting = try await blocking { try store.status(now: Date(), runs: 0).needsChoice }
            let movies = waiting.compactMap { movie -> StatusFormsModel.Movie? in
                guard let member = movie.members.first else { return nil }
                let named = MovieReference.title(movie.title, year: movie.year).description
                let choices = movie.candidates.map {
                    SettleChoice(
                        member: member, movie: named, target: "tmdb:\($0.remoteId)",
                        label: "It is \($0.shown), tmdb:\($0.remoteId)", back: "/status")
                }
                return StatusFormsModel.Movie(shown: movie.shown, choices: choices)
            }
            let model = StatusFormsModel(csrf: csrf, notice: notice(), movies: movies)
            return PageInsert(top: top, bottom: pages.render(model, "statusForms"))
        default:
            return PageInsert(top: top, bottom: "")
        }
    }

    private func movieForms(
        _ key: MovieKey, csrf: String, path: String, notice: () -> NoticeModel?
    ) async throws -> MovieFormsModel {
        let store = reader
        let found = try await blocking { () -> (MovieReport, [MovieCandidate])? in
            guard let movie = try store.movieReport(key) else { return nil }
            return (movie, movie.remoteId == nil ? try store.candidates(movieId: movie.localId) : [])
        }
        guard let (movie, candidates) = found, let member = movie.members.first else {
            return MovieFormsModel(csrf: csrf, notice: notice())
        }
        let named = (movie.remoteId.map { MovieReference.tmdb($0) } ?? .title(movie.title, year: movie.year))
        let choices = candidates.map {
            SettleChoice(
                member: member, movie: named.description, target: "tmdb:\($0.remoteId)",
                label: "It is \($0.shown), tmdb:\($0.remoteId)", back: path)
        }
        return MovieFormsModel(
            csrf: csrf, notice: notice(),
            keeper: .init(member: member, movie: named.description, back: path, choices: choices))
    }

    /// A query value, percent-encoded so `&`, `=`, `+` and `#` in a title survive.
    static func queryEncoded(_ value: String) -> String {
        value.addingPercentEncoding(withAllowedCharacters: queryValue) ?? ""
    }

    private static let queryValue = CharacterSet(
        charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")
}
