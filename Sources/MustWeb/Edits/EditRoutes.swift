import Foundation
import HTTPTypes
import Hummingbird
import MustCore

/// Sign-in, sign-out and the edit forms' POSTs. Every POST but the sign-in needs a live session and its CSRF
/// token, and answers with a redirect (303) to the page that shows what happened.
enum EditRoutes {
    /// Adds `EditAccess` (before the pages' caching middleware, so a signed-in page is never a 304) and the routes.
    static func register(on router: Router<PageContext>, edits: WebEdits) throws {
        let pages = try EditPages()
        router.add(middleware: EditAccess(edits: edits, pages: pages))
        router.get("/signin") { _, _ in signInPage(edits, pages) }
        router.post("/signin") { request, context in try await signIn(request, context, edits, pages) }
        ProfileRoutes.register(on: router, edits: edits, pages: pages)
        router.post("/signout") { request, _ in
            try await guarded(request, pages, may: { _ in .anyone }) { _, token in
                try await edits.blocking { try edits.editor().store.endSession(tokenHash: token.hash) }
                var response = Response.redirect(to: "/", type: .normal)
                response.headers[.setCookie] = WebEdits.clearedCookie(secure: WebEdits.cameOverHTTPS(request))
                return response
            }
        }
        router.post("/members") { request, _ in
            try await guarded(request, pages, may: { .list($0["member"] ?? "") }) { form, token in
                let member = form["member"] ?? ""
                let notice = await edits.add(member: member, movie: form["movie"] ?? "")
                return edits.redirect(notice, token, to: notice.isError ? "/" : WebPath.member(member))
            }
        }
        router.post("/members/:name/movies") { request, context in
            let member = try context.decoded("name")
            return try await guarded(request, pages, may: { _ in .list(member) }) { form, token in
                let notice = await edits.add(
                    member: member, movie: form["movie"] ?? "", another: form["another"] == "1",
                    typed: form["typed"] == "1")
                // /night's "Add to …" comes back to the night it was pressed on.
                return edits.redirect(notice, token, to: form["back"].map(sitePath) ?? WebPath.member(member))
            }
        }
        router.post("/members/:name/watched") { request, context in
            let member = try context.decoded("name")
            return try await guarded(request, pages, may: { _ in .list(member) }) { form, token in
                var notice = await edits.watched(member: member, movie: form["movie"] ?? "", undo: form["undo"] == "1")
                notice.card = cardId(form["card"])
                return edits.redirect(notice, token, to: form["back"].map(sitePath) ?? WebPath.member(member))
            }
        }
        router.post("/members/:name/rating") { request, context in
            let member = try context.decoded("name")
            return try await guarded(request, pages, may: { _ in .list(member) }) { form, token in
                var notice = await edits.rate(member: member, movie: form["movie"] ?? "", rating: form["rating"] ?? "")
                notice.card = cardId(form["card"])
                return edits.redirect(notice, token, to: form["back"].map(sitePath) ?? WebPath.member(member))
            }
        }
        router.get("/members/:name/remove") { request, context in
            try await confirmRemove(request, member: try context.decoded("name"), edits, pages)
        }
        router.post("/members/:name/remove") { request, context in
            let member = try context.decoded("name")
            return try await guarded(request, pages, may: { _ in .list(member) }) { form, token in
                let notice = await edits.remove(member: member, movie: form["movie"] ?? "")
                // The list it was removed from, in the same order: the confirmation passes its address on.
                return edits.redirect(notice, token, to: form["back"].map(sitePath) ?? WebPath.member(member))
            }
        }
        NightEditRoutes.register(on: router, edits: edits, pages: pages)
        SettingsRoutes.register(on: router, edits: edits, pages: pages)
        SuggestionEditRoutes.register(on: router, edits: edits, pages: pages)
        router.post("/settle") { request, _ in
            try await guarded(request, pages, may: { .list($0["member"] ?? "") }) { form, token in
                let back = sitePath(form["back"])
                let (notice, page) = await edits.settle(
                    member: form["member"] ?? "", movie: form["movie"] ?? "", target: form["target"] ?? "")
                return edits.redirect(notice, token, to: back == "/status" || notice.isError ? back : page ?? back)
            }
        }
    }

    static func signInPage(_ edits: WebEdits, _ pages: EditPages, message: String? = nil) -> Response {
        switch Viewer.current {
        case .editsOff(let why):
            return pages.page(SignInModel(off: why, signedIn: false, form: false), "signin")
        case .signedIn(let token, _):
            return pages.page(SignInModel(signedIn: true, form: false, csrf: token.csrfToken), "signin")
        case .signedOut where !AccessState.current.passwordSet:
            // Profiles come first, but no family password is set: "Parent" has nothing to sign in with.
            return pages.page(SignInModel(off: WebEdits.noPassword, signedIn: false, form: false), "signin")
        case .signedOut:
            return pages.page(
                SignInModel(message: message, signedIn: false, form: true), "signin",
                status: message == nil ? .ok : .forbidden)
        }
    }

    static func signIn(_ request: Request, _ context: PageContext, _ edits: WebEdits, _ pages: EditPages)
        async throws -> Response
    {
        guard case .signedOut = Viewer.current, AccessState.current.passwordSet else {
            return signInPage(edits, pages)
        }
        if let origin = request.headers[.origin], !CSRFCheck.sameSite(origin: origin, host: host(request)) {
            return pages.refusal(.forbidden, heading: "Refused", "This form was sent from another site.")
        }
        let client = WebEdits.clientAddress(request, context: context)
        let now = edits.time.now()
        // The attempt counts as a failure until the password is found right, so parallel guesses cannot pass 5.
        let decision = edits.limiter.withLock { limiter in
            let decision = limiter.check(client, at: now)
            if decision == .allowed { limiter.recordFailure(client, at: now) }
            return decision
        }
        if case .refused(let wait) = decision {
            var response = pages.refusal(
                .tooManyRequests, heading: "Too many attempts",
                "Five wrong passwords in a minute from this address: wait \(wait) seconds, then try again.")
            response.headers[.retryAfter] = "\(wait)"
            return response
        }
        let password = try await form(request)["password"] ?? ""
        let right = try await edits.blocking {
            guard let hash = try edits.reader.passwordHash() else { return false }
            return FamilyPassword.verify(password, hash: hash)
        }
        guard right else { return signInPage(edits, pages, message: "That password was wrong.") }
        edits.limiter.withLock { $0.forgive(client) }
        let token = SessionToken.random()
        let expired = edits.sessions.expiredBefore(now)
        try await edits.blocking {
            try edits.editor().store.startSession(tokenHash: token.hash, now: now, expiredBefore: expired)
        }
        var response = Response.redirect(to: "/", type: .normal)
        response.headers[.setCookie] = edits.sessionCookie(token, secure: WebEdits.cameOverHTTPS(request))
        return response
    }

    /// The confirmation step before a removal: names the movie as the member's list shows it.
    static func confirmRemove(_ request: Request, member: String, _ edits: WebEdits, _ pages: EditPages)
        async throws -> Response
    {
        guard let token = Viewer.current.session else {
            return pages.refusal(.forbidden, heading: "Sign in first", "Only a signed-in browser can change the lists.")
        }
        // Like the removal it asks for: another member's list is not yours, and the page would name its movie.
        guard Viewer.current.access?.mayEdit(member: member) == true else { return notYours(.list(member), pages) }
        let movie = request.uri.queryParameters["movie"].map(String.init) ?? ""
        guard let reference = try? MovieReference.parse(movie) else {
            throw PageError.badRequest("movie=\(movie) does not name a movie.")
        }
        guard
            case .found(let name, _, let kept) = try await edits.blocking({
                try edits.reader.movie(member: member, named: reference)
            })
        else {
            throw PageError.notFound("\(member) has no movie \"\(reference)\" to remove.")
        }
        let back = request.uri.queryParameters["back"].map { sitePath(String($0)) } ?? WebPath.member(member)
        let model = ConfirmRemoveModel(
            member: Shown.text(name), shown: Shown.text(kept.shown), movie: movie,
            action: WebPath.member(member) + "/remove", back: back, csrf: token.csrfToken)
        return pages.page(model, "confirmRemove")
    }

    /// Runs a form's action for a signed-in viewer whose form carries the session's CSRF token, comes from this
    /// site, and who has the right the form needs (`may`, from the form's fields: the family password by default);
    /// anyone else gets 403 and nothing changes.
    static func guarded(
        _ request: Request, _ pages: EditPages, may: ([String: String]) -> PageRight = { _ in .parent },
        _ action: ([String: String], SessionToken) async throws -> Response
    ) async throws -> Response {
        switch Viewer.current {
        case .editsOff(let why):
            return pages.refusal(.forbidden, heading: "Edits are off", "Edits from this page are off: \(why).")
        case .signedOut:
            return pages.refusal(
                .forbidden, heading: "Sign in first", "Only a signed-in browser can change the lists; sign in first.")
        case .signedIn(let token, let access):
            let form = try await form(request)
            let verdict = CSRFCheck.check(
                formToken: form["csrf"], session: token, origin: request.headers[.origin], host: host(request))
            if case .refused(let why) = verdict {
                return pages.refusal(.forbidden, heading: "Refused", why.prefix(1).uppercased() + why.dropFirst() + ".")
            }
            guard access.allows(may(form)) else { return notYours(may(form), pages) }
            return try await action(form, token)
        }
    }

    /// The refusal of a form the viewer has no right to: a member edits only their own things.
    static func notYours(_ right: PageRight, _ pages: EditPages) -> Response {
        let why =
            switch right {
            case .list(let member): "Only \(member) or the family password can change \(member)'s list."
            case .nights: "Movie nights are recorded by a grown-up."
            case .anyone, .parent: "Only the family password can change this."
            }
        return pages.refusal(.forbidden, heading: "Not yours to change", why)
    }

    /// The host the browser addressed: the proxy's `X-Forwarded-Host` when there is one, else `Host`.
    static func host(_ request: Request) -> String? {
        request.headers[.xForwardedHost] ?? request.head.authority
    }

    /// A form body (application/x-www-form-urlencoded), at most 16 KiB; a malformed escape is a 400.
    static func form(_ request: Request) async throws -> [String: String] {
        let body = try await request.body.collect(upTo: 16 * 1024)
        var fields: [String: String] = [:]
        for pair in String(buffer: body).split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let decode = { (text: Substring) in text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding }
            guard let name = decode(parts[0]), let value = parts.count == 2 ? decode(parts[1]) : "" else {
                throw PageError.badRequest("The form's fields have a malformed %-escape.")
            }
            fields[name] = fields[name] ?? value
        }
        return fields
    }

    /// A member page card's id (`m` and its index) or a family page night's (`n` and the night's id), as the
    /// card's forms send it; anything else is no card.
    static func cardId(_ text: String?) -> String? {
        guard let text, text.count <= 12, text.first == "m" || text.first == "n", text.count > 1,
            text.dropFirst().allSatisfy({ ("0"..."9").contains($0) })
        else { return nil }
        return text
    }

    /// A path on this site to go back to; anything else (another host, `//host`) becomes the family page.
    static func sitePath(_ text: String?) -> String {
        guard let text, text.hasPrefix("/"), !text.hasPrefix("//"), !text.contains("\\"),
            !text.unicodeScalars.contains(where: { $0.value < 0x21 || $0.value == 0x7F })
        else { return "/" }
        return text
    }
}

extension WebEdits {
    /// Keeps the edit's notice for the session's next page, and sends the browser there.
    func redirect(_ notice: EditNotice, _ token: SessionToken, to page: String) -> Response {
        let now = time.now()
        notices.withLock { $0.post(notice, for: token.hash, at: now) }
        return Response.redirect(to: page, type: .normal)
    }
}
