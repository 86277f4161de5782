import Foundation
import HTTPTypes
import Hummingbird
import MustCore

/// "Who's watching?": every member is a profile, chosen with a button (and its PIN, when it has one) or by the
/// family password ("Parent"). Once any member has a PIN or is a kid, every page but these asks for a profile first.
enum ProfileRoutes {
    /// The chooser's own cookie, before any session: its token is the chooser form's CSRF token's secret.
    static let chooserCookie = "mustc_chooser"

    static func register(on router: Router<PageContext>, edits: WebEdits, pages: EditPages) {
        router.get("/profiles") { request, _ in try await chooser(request, edits, pages) }
        router.get("/profiles/:name") { request, context in
            try await pinPage(request, name: try context.decoded("name"), edits, pages)
        }
        router.post("/profiles/:name") { request, context in
            try await choose(request, name: try context.decoded("name"), edits, pages)
        }
        router.post("/switch") { request, _ in
            try await EditRoutes.guarded(request, pages, may: { _ in .anyone }) { _, token in
                try await edits.blocking { try edits.editor().store.endSession(tokenHash: token.hash) }
                var response = Response.redirect(to: "/profiles", type: .normal)
                response.headers[.setCookie] = WebEdits.clearedCookie(secure: WebEdits.cameOverHTTPS(request))
                return response
            }
        }
    }

    /// The addresses answered before a profile is chosen: the chooser, the password's sign-in, and sign-out.
    static func open(_ path: String) -> Bool {
        path == "/profiles" || path.hasPrefix("/profiles/") || path == "/signin" || path == "/signout"
    }

    /// What a request gets while profiles come first and none is chosen: the family page's address is the chooser;
    /// another page sends the browser there; the JSON, the posters and every form are refused.
    static func first(_ request: Request, _ edits: WebEdits, _ pages: EditPages) async throws -> Response {
        let path = request.uri.path
        let reading = request.method == .get || request.method == .head
        if reading, path == "/" { return try await chooser(request, edits, pages) }
        if path.hasPrefix("/api/") {
            var response = Site.json(#"{"error": "choose who's watching first, at /profiles"}"#)
            response.status = .forbidden
            return response
        }
        if reading, !path.hasPrefix("/posters/") { return Response.redirect(to: "/profiles", type: .normal) }
        return pages.refusal(.forbidden, heading: "Who's watching?", "Choose who's watching first, on the family page.")
    }

    static func chooser(_ request: Request, _ edits: WebEdits, _ pages: EditPages, message: String? = nil)
        async throws -> Response
    {
        let profiles = try await edits.blocking { try edits.reader.profiles() }
        let (csrf, cookie) = formToken(request)
        let state = AccessState.current
        var model = ProfilesModel(profiles, csrf: csrf, message: message)
        if case .editsOff(let why) = Viewer.current {
            model.off = why
            model.choices = []
        } else if !state.profilesFirst, Viewer.current.access?.parent != true {
            // No PIN and no kid: a profile is the password's to choose, so nothing changes for a family without them.
            model.note = "Sign in with the family password first; then choose who's watching."
            model.choices = []
        }
        var response = pages.page(model, "profiles", status: message == nil ? .ok : .forbidden)
        if let cookie { response.headers[.setCookie] = cookie }
        return response
    }

    static func pinPage(
        _ request: Request, name: String, _ edits: WebEdits, _ pages: EditPages, message: String? = nil,
        status: HTTPResponse.Status = .ok
    ) async throws -> Response {
        guard let profile = try await edits.blocking({ try edits.reader.profile(named: name) }) else {
            throw PageError.notFound("There is no member \"\(name)\". \"Who's watching?\" lists every member.")
        }
        let (csrf, cookie) = formToken(request)
        let model = PinModel(
            name: Shown.text(profile.name), action: WebPath.profile(profile.name), csrf: csrf, message: message,
            hasPin: profile.hasPin)
        var response = pages.page(model, "profilePin", status: status)
        if let cookie { response.headers[.setCookie] = cookie }
        return response
    }

    /// The chooser form's CSRF token: the session's when signed in; otherwise derived from the chooser's cookie,
    /// set here when the browser has none yet.
    private static func formToken(_ request: Request) -> (csrf: String, setCookie: String?) {
        if let session = Viewer.current.session { return (session.csrfToken, nil) }
        if let kept = cookie(request.headers) { return (kept.csrfToken, nil) }
        let token = SessionToken.random()
        let secure = WebEdits.cameOverHTTPS(request) ? "; Secure" : ""
        return (token.csrfToken, "\(chooserCookie)=\(token.value); Path=/; HttpOnly; SameSite=Strict" + secure)
    }

    static func cookie(_ headers: HTTPFields) -> SessionToken? { WebEdits.token(cookie: chooserCookie, in: headers) }
}

extension WebPath {
    static func profile(_ name: String) -> String { "/profiles/" + segment(name) }
}
