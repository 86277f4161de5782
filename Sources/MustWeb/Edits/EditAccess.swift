import Foundation
import HTTPTypes
import Hummingbird
import MustCore

/// Decides who is asking (`Viewer`) for every request, and gives a signed-in viewer's pages their forms. A page
/// is rendered once for all signed-in viewers, with a placeholder for the session's CSRF token (`EditSlot`), and
/// kept by the page cache like any other; what is each viewer's own (the token, the bar, the last edit's notice)
/// is put in as the page is sent. A signed-in page is never answered 304, so signing in or out always shows the
/// right page.
struct EditAccess: RouterMiddleware {
    typealias Context = PageContext
    let edits: WebEdits
    let pages: EditPages

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        // The stylesheet and the icon are the same for everyone, and a webhook's token is its sign-in: no session
        // read for them. The JSON and the posters are too while no profile comes first, and a poster keeps its year
        // of caching for a signed-in phone.
        let path = request.uri.path
        if path.hasPrefix("/static/") || path == "/favicon.ico" || path.hasPrefix("/hooks/")
            || ((path.hasPrefix("/api/") || path.hasPrefix("/posters/")) && edits.knownOpen())
        {
            return try await next(request, context)
        }
        let decision = try await edits.viewer(request, peer: context.remoteAddress?.ipAddress)
        let viewer = decision.viewer
        if decision.state.profilesFirst, viewer.access == nil, !ProfileRoutes.open(path) {
            return try await AccessState.$current.withValue(decision.state) {
                try await Viewer.$current.withValue(viewer) { try await ProfileRoutes.first(request, edits, pages) }
            }
        }
        var request = request
        var insert: PageInsert?
        var personal: PageInsert?
        if request.method == .get || request.method == .head {
            switch viewer {
            case .signedIn(let token, let access):
                var head = request.head
                head.headerFields[.ifNoneMatch] = nil
                head.headerFields[.ifModifiedSince] = nil
                request = Request(head: head, body: request.body)
                personal = try await edits.insert(for: request.uri.path, token: token, access: access, pages: pages)
            case .signedOut:
                insert = PageInsert(top: pages.render([String: String](), "signedOutBar"), bottom: "")
            case .editsOff:
                break
            }
        }
        let forwarded = request
        var response = try await AccessState.$current.withValue(decision.state) {
            try await Viewer.$current.withValue(viewer) {
                try await PageInsert.$current.withValue(insert) { try await next(forwarded, context) }
            }
        }
        if let personal, let token = viewer.session, response.headers[.contentType]?.hasPrefix("text/html") == true {
            response = try await Self.personalized(response, token: token, insert: personal)
        }
        response.headers[.vary] = "Cookie"
        if viewer.session != nil {
            response.headers[.eTag] = nil
            response.headers[.lastModified] = nil
            response.headers[.cacheControl] = path.hasPrefix("/posters/") ? "private, max-age=86400" : "no-store"
        }
        if let cookie = decision.setCookie { response.headers[.setCookie] = cookie }
        return response
    }

    /// The page with this viewer's token in place of the placeholder, and their bar and notice at the top, in one
    /// pass over the page's bytes: a signed-in 200-movie page costs 0.6-0.7 ms of server CPU, against 3.1 ms with
    /// Foundation's search and replace on a `String` and 2.2 ms with a generic per-byte loop
    /// (contrib/benchmarks/serve --only page).
    static func personalized(_ response: Response, token: SessionToken, insert: PageInsert) async throws -> Response {
        let page = try await PageCache.Page(response)
        let bytes = page.body.withUnsafeReadableBytes { Self.personalized($0, token: token.csrfToken, insert: insert) }
        var headers = page.headers
        headers[.contentLength] = nil
        return Response(status: page.status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    /// `page` with each placeholder replaced by `token`, `insert.top` after the opening of `<main>`,
    /// `insert.bottom` before its end and `insert.beside` after its card's heading. The placeholder starts with
    /// U+0001, which no page has otherwise: the scan looks for that one byte and copies everything between in bulk.
    static func personalized(_ page: UnsafeRawBufferPointer, token: String, insert: PageInsert) -> [UInt8] {
        let (slot, token) = (Array(EditSlot.csrf.utf8), Array(token.utf8))
        var (top, bottom, beside) = (Array(insert.top.utf8), Array(insert.bottom.utf8), Array(insert.beside.utf8))
        // The notice of an edit made on a card goes under that card's heading; with the card gone, at the top.
        let card = insert.card.flatMap { afterHeading(of: $0, in: page) }
        if card == nil {
            top += beside
            beside = []
        }
        let main =
            top.isEmpty
            ? nil : first(Array(PageInsert.mainOpen.utf8), in: page).map { $0 + PageInsert.mainOpen.utf8.count }
        let end = bottom.isEmpty ? nil : last(Array("</main>".utf8), in: page)
        var out: [UInt8] = []
        out.reserveCapacity(page.count + top.count + bottom.count + beside.count + 64 * token.count)
        var copied = 0
        func copy(upTo index: Int) {
            if index > copied { out.append(contentsOf: UnsafeRawBufferPointer(rebasing: page[copied..<index])) }
            copied = index
        }
        var index = 0
        while index < page.count {
            if index == main {
                copy(upTo: index)
                out += top
            }
            if index == end {
                copy(upTo: index)
                out += bottom
            }
            if index == card {
                copy(upTo: index)
                out += beside
            }
            if page[index] == slot[0], index + slot.count <= page.count,
                slot.indices.allSatisfy({ page[index + $0] == slot[$0] })
            {
                copy(upTo: index)
                out += token
                index += slot.count
                copied = index
                continue
            }
            index += 1
        }
        copy(upTo: page.count)
        return out
    }

    /// Where the heading of the card `id` ends: a member page's cards are `h2`, the family page's nights `h3`.
    private static func afterHeading(of id: String, in page: UnsafeRawBufferPointer) -> Int? {
        for level in ["h2", "h3"] {
            let close = Array("</\(level)>".utf8)
            if let end = first(Array("<\(level) id=\"\(id)\">".utf8), in: page).flatMap({
                first(close, in: page, from: $0)
            }) {
                return end + close.count
            }
        }
        return nil
    }

    private static func first(_ pattern: [UInt8], in page: UnsafeRawBufferPointer, from start: Int = 0) -> Int? {
        guard page.count - start >= pattern.count else { return nil }
        for index in start...(page.count - pattern.count)
        where page[index] == pattern[0] && pattern.indices.allSatisfy({ page[index + $0] == pattern[$0] }) {
            return index
        }
        return nil
    }

    private static func last(_ pattern: [UInt8], in page: UnsafeRawBufferPointer) -> Int? {
        guard page.count >= pattern.count else { return nil }
        for index in stride(from: page.count - pattern.count, through: 0, by: -1)
        where page[index] == pattern[0] && pattern.indices.allSatisfy({ page[index + $0] == pattern[$0] }) {
            return index
        }
        return nil
    }
}

/// HTML a signed-in (or signed-out) viewer's page gains: `top` at the start of `<main>`, `bottom` at its end, and
/// (signed in) `beside` under the heading of the card `card`, or at the top when the page has no such card.
struct PageInsert: Sendable {
    var top: String
    var bottom: String
    var card: String? = nil
    var beside = ""

    /// The start of every page's `<main>`, where `top` goes.
    static let mainOpen = "<main id=\"main\" tabindex=\"-1\">\n"

    @TaskLocal static var current: PageInsert?

    /// The page with the current insert, if any; called by `Site.page` on every rendered page.
    static func apply(_ html: String) -> String {
        current?.applied(to: html) ?? html
    }

    func applied(to html: String) -> String {
        var html = html
        if !top.isEmpty, let main = html.range(of: Self.mainOpen) {
            html.replaceSubrange(main, with: Self.mainOpen + top)
        }
        if !bottom.isEmpty, let end = html.range(of: "</main>", options: .backwards) {
            html.replaceSubrange(end, with: bottom + "</main>")
        }
        return html
    }
}

extension WebEdits {
    /// What a signed-in page gains: the bar and the last edit's notice at the top (on the family, member, movie,
    /// status, night and settings pages, which are where edits send the browser back to); the family page's add-a-member form and a
    /// movie page's settle form at the bottom. A member page's add field and card controls, and /status's settle
    /// buttons, are part of the page itself.
    func insert(for path: String, token: SessionToken, access: PageAccess, pages: EditPages) async throws
        -> PageInsert
    {
        let csrf = token.csrfToken
        let segments = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
            .map { WebPath.name(segment: $0) ?? "" }
        func top(_ notice: Bool) -> String {
            let shown = notice ? NoticeModel(notices.withLock { $0.take(for: token.hash) }) : nil
            return pages.render(BarModel(csrf: csrf, notice: shown, access: access), "signedInTop")
        }
        // A mark or a rating made on a card (a member page's, a night's on the family page) answers beside it: its
        // focus brings the page back to that card.
        func beside(bottom: String) -> PageInsert {
            let notice = notices.withLock { $0.take(for: token.hash) }
            let bar = pages.render(BarModel(csrf: csrf, notice: nil, access: access), "signedInTop")
            let shown = pages.render(BarModel(csrf: csrf, notice: NoticeModel(notice), access: access), "notice")
            return notice?.card == nil
                ? PageInsert(top: bar + shown, bottom: bottom)
                : PageInsert(top: bar, bottom: bottom, card: notice?.card, beside: shown)
        }
        switch segments.first {
        case "" where segments.count == 1:
            // Adding a member is the family password's.
            return beside(
                bottom: access.parent ? pages.render(HomeFormsModel(csrf: csrf, notice: nil), "homeForms") : "")
        case "members" where segments.count == 2:
            return beside(bottom: "")
        case "status" where segments.count == 1,
            "night" where segments.count == 1, "settings" where segments.count == 1:
            return PageInsert(top: top(true), bottom: "")
        case "movies" where segments.count == 2 || (segments.count == 3 && segments[1] == "local"):
            let key: MovieKey? =
                segments.count == 2 ? Int(segments[1]).map { .tmdb($0) } : Int64(segments[2]).map { .local($0) }
            guard let key else { return PageInsert(top: top(false), bottom: "") }
            let model = try await movieForms(key, csrf: csrf, path: path, access: access, notice: { nil })
            return PageInsert(top: top(true), bottom: pages.render(model, "movieForms"))
        default:
            return PageInsert(top: top(false), bottom: "")
        }
    }

    private func movieForms(
        _ key: MovieKey, csrf: String, path: String, access: PageAccess, notice: () -> NoticeModel?
    ) async throws -> MovieFormsModel {
        let store = reader
        let found = try await blocking { () -> (MovieReport, [MovieCandidate])? in
            guard let movie = try store.movieReport(key) else { return nil }
            return (movie, movie.remoteId == nil ? try store.candidates(movieId: movie.localId) : [])
        }
        // A kid settles nothing: the candidates would name titles their limit may hide.
        guard let (movie, candidates) = found, !access.audience.leavesOut,
            let member = movie.members.first(where: access.mayEdit(member:))
        else {
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
}
