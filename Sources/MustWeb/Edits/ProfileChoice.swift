import Foundation
import HTTPTypes
import Hummingbird
import MustCore

extension ProfileRoutes {
    /// `POST /profiles/{name}`: starts a session for that member, after their PIN when they have one. The family
    /// password's session keeps its rights and needs no PIN; it gains the profile.
    static func choose(_ request: Request, name: String, _ edits: WebEdits, _ pages: EditPages)
        async throws -> Response
    {
        let viewer = Viewer.current
        if case .editsOff(let why) = viewer {
            return pages.refusal(.forbidden, heading: "Profiles are off", "Profiles can't be chosen now: \(why).")
        }
        let form = try await EditRoutes.form(request)
        if let refused = refusedForm(request, form, pages) { return refused }
        let access = viewer.access
        if access?.fromProxy == true {
            return pages.refusal(
                .forbidden, heading: "Signed in by the proxy", "The sign-in in front of this page decides who you are.")
        }
        let parent = access?.parent == true
        guard AccessState.current.profilesFirst || parent else {
            return try await chooser(request, edits, pages, message: "Sign in with the family password first.")
        }
        guard let profile = try await edits.blocking({ try edits.reader.profile(named: name) }) else {
            throw PageError.notFound("There is no member \"\(name)\". \"Who's watching?\" lists every member.")
        }
        if profile.hasPin, !parent, let refused = try await checkPin(request, form["pin"] ?? "", profile, edits, pages)
        {
            return refused
        }
        let now = edits.time.now()
        let old = viewer.session
        let token = try await edits.blocking {
            if let old { try edits.editor().store.endSession(tokenHash: old.hash) }
            return try edits.startSession(memberId: profile.memberId, parent: parent, now: now)
        }
        var response = Response.redirect(to: "/", type: .normal)
        response.headers[.setCookie] = edits.sessionCookie(token, secure: WebEdits.cameOverHTTPS(request))
        return response
    }

    /// The chooser's form must carry its CSRF token (the session's, or the chooser cookie's) and come from this site.
    private static func refusedForm(_ request: Request, _ form: [String: String], _ pages: EditPages) -> Response? {
        guard let secret = Viewer.current.session ?? cookie(request.headers) else {
            return pages.refusal(
                .forbidden, heading: "Refused", "This form is out of date: open \"Who's watching?\" again.")
        }
        let verdict = CSRFCheck.check(
            formToken: form["csrf"], session: secret, origin: request.headers[.origin], host: EditRoutes.host(request))
        guard case .refused(let why) = verdict else { return nil }
        return pages.refusal(.forbidden, heading: "Refused", why.prefix(1).uppercased() + why.dropFirst() + ".")
    }

    /// Checks a PIN under the profile's lockout; nil when it is right.
    private static func checkPin(
        _ request: Request, _ pin: String, _ profile: Profile, _ edits: WebEdits, _ pages: EditPages
    ) async throws -> Response? {
        let started = edits.time.now()
        if case .locked(let wait) = edits.lockout.withLock({ $0.begin(profile.memberId, at: started) }) {
            let minutes = max(1, Int((Double(wait) / 60).rounded(.up)))
            var response = try await pinPage(
                request, name: profile.name, edits, pages,
                message: "Too many wrong PINs: \(profile.name)'s profile is locked. Try again in "
                    + "\(minutes) minute\(minutes == 1 ? "" : "s"), or sign in with the family password.",
                status: .tooManyRequests)
            response.headers[.retryAfter] = "\(wait)"
            return response
        }
        let right = try await edits.blocking {
            guard let hash = try edits.reader.pinHash(memberId: profile.memberId) else { return false }
            return ProfilePin.verify(pin, hash: hash)
        }
        let now = edits.time.now()
        edits.lockout.withLock { $0.end(profile.memberId, right: right, at: now) }
        guard !right else { return nil }
        return try await pinPage(
            request, name: profile.name, edits, pages, message: "That PIN was wrong.", status: .forbidden)
    }
}

/// "Who's watching?" as the template reads it: every value shown with its controls made visible.
struct ProfilesModel {
    struct Choice {
        var name: String
        var initial: String
        var action: String
        /// The PIN page, for a profile with a PIN; nil: the button chooses it at once.
        var pinHref: String?
        var kid: Bool
    }

    var choices: [Choice]
    var csrf: String
    var message: String?
    /// Why nothing can be chosen now.
    var off: String?
    var note: String?

    init(_ profiles: [Profile], csrf: String, message: String?) {
        choices = profiles.map { profile in
            let shown = Shown.text(profile.name)
            return Choice(
                name: shown, initial: shown.first.map { String($0).uppercased() } ?? "?",
                action: WebPath.profile(profile.name), pinHref: profile.hasPin ? WebPath.profile(profile.name) : nil,
                kid: profile.kid)
        }
        (self.csrf, self.message) = (csrf, message)
    }
}

struct PinModel {
    var name: String
    var action: String
    var csrf: String
    var message: String?
    var hasPin: Bool
}
