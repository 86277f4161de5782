import Foundation
import HTTPTypes
import Hummingbird
import MustCore

/// Who is asking, as far as edits go: decided once per request by `EditAccess`, read by the routes.
enum Viewer: Sendable {
    /// No password, PIN or kid is set, or the server cannot write the database: the page is read-only, and this says
    /// why.
    case editsOff(String)
    case signedOut
    /// A session: the family password's, a member's profile, or both; what it may see and do is `PageAccess`.
    case signedIn(SessionToken, PageAccess)

    @TaskLocal static var current: Viewer = .editsOff("edits are not set up")

    var session: SessionToken? {
        if case .signedIn(let token, _) = self { return token }
        return nil
    }

    /// What a signed-in viewer may see and do; nil for everyone else (who, past `EditAccess`, sees every movie).
    var access: PageAccess? {
        if case .signedIn(_, let access) = self { return access }
        return nil
    }

    /// What the pages show this viewer.
    var audience: Audience { access?.audience ?? .everyone }
}

/// The page's sign-in state as of the database file's stamp: a password, a PIN or a kid set or removed by the
/// command line writes the file, so the stamp moves with it.
struct AccessState: Sendable, Equatable {
    var passwordSet: Bool
    /// Some member has a PIN or is a kid: every page asks "Who's watching?" until a profile or the password is chosen.
    var profilesFirst: Bool

    @TaskLocal static var current = AccessState(passwordSet: false, profilesFirst: false)
}

/// The viewer a request makes, and the cookie to set when a trusted proxy's header started a session.
struct ViewerDecision: Sendable {
    var viewer: Viewer
    var state: AccessState
    var setCookie: String?
}

extension WebEdits {
    static let cookieName = "mustc_session"
    static let noPassword =
        "no password is set, so the page is read-only; whoever runs the server can set one with `mustc password`"

    /// The viewer a request's cookie (or a trusted proxy's header) makes: a live session is touched (at most
    /// hourly), an expired one ended.
    func viewer(_ request: Request, peer: String?) async throws -> ViewerDecision {
        let token = Self.sessionCookie(request.headers)
        let proxied = proxyUser(request, peer: peer)
        let stamp = DataStamp(database: FileStamp(path: path), log: FileStamp(path: path + "-wal"))
        let known = accessState.withLock { cached in cached?.stamp == stamp ? cached?.state : nil }
        // Most requests come without a cookie; while the file is unchanged they need no query at all.
        if let known, token == nil, proxied == nil {
            return ViewerDecision(viewer: Self.anonymous(known, readOnlyReason), state: known)
        }
        let secure = Self.cameOverHTTPS(request)
        return try await blocking {
            try self.readViewer(token: token, proxied: proxied, stamp: stamp, known: known, secure: secure)
        }
    }

    /// Whether no profile comes first, as last read and while the file is unchanged: the JSON and the posters are
    /// then everyone's, with no session read. Two stat(2) calls.
    func knownOpen() -> Bool {
        let stamp = DataStamp(database: FileStamp(path: path), log: FileStamp(path: path + "-wal"))
        return accessState.withLock { $0?.stamp == stamp && $0?.state.profilesFirst == false }
    }

    /// Nobody signed in: read-only without a password or a profile to choose, else signed out.
    private static func anonymous(_ state: AccessState, _ readOnlyReason: String?) -> Viewer {
        if let readOnlyReason { return .editsOff(readOnlyReason) }
        return state.passwordSet || state.profilesFirst ? .signedOut : .editsOff(noPassword)
    }

    private func readViewer(
        token: SessionToken?, proxied: String?, stamp: DataStamp, known: AccessState?, secure: Bool
    ) throws -> ViewerDecision {
        let state =
            try known
            ?? AccessState(
                passwordSet: try reader.passwordHash() != nil, profilesFirst: try reader.profilesGuardThePage())
        if known == nil { accessState.withLock { $0 = (stamp, state) } }
        var decision = ViewerDecision(viewer: Self.anonymous(state, readOnlyReason), state: state)
        guard readOnlyReason == nil else { return decision }
        let now = time.now()
        var session = try token.flatMap { try reader.session(tokenHash: $0.hash) }
        if let live = session, !sessions.isLive(live, at: now) {
            try editor().store.endSession(tokenHash: live.tokenHash)
            session = nil
        }
        if let proxied {
            guard let profile = try reader.profile(named: proxied) else { return decision }
            let parent = config.serve.proxyAuth?.isParent(profile.name) == true
            let access = PageAccess(profile: profile, parent: parent, fromProxy: true)
            if let token, let session, session.memberId == profile.memberId, session.parent == parent {
                try touch(session, token, now)
                decision.viewer = .signedIn(token, access)
                return decision
            }
            // The proxy names someone else than the cookie's session did: that session ends here.
            if let session { try editor().store.endSession(tokenHash: session.tokenHash) }
            let started = try startSession(memberId: profile.memberId, parent: parent, now: now)
            decision.viewer = .signedIn(started, access)
            decision.setCookie = sessionCookie(started, secure: secure)
            return decision
        }
        guard let token, let session else { return decision }
        let profile = try session.memberId.flatMap { try reader.profile(memberId: $0) }
        guard session.parent || profile != nil else {
            try editor().store.endSession(tokenHash: session.tokenHash)
            return decision
        }
        try touch(session, token, now)
        decision.viewer = .signedIn(token, PageAccess(profile: profile, parent: session.parent))
        return decision
    }

    private func touch(_ session: WebSession, _ token: SessionToken, _ now: Date) throws {
        if sessions.needsTouch(session, at: now) { try editor().store.touchSession(tokenHash: token.hash, now: now) }
    }

    /// A new session for a member (or the password, or both); call it on the blocking pool.
    func startSession(memberId: Int64?, parent: Bool, now: Date) throws -> SessionToken {
        let token = SessionToken.random()
        try editor().store.startSession(
            tokenHash: token.hash, now: now, expiredBefore: sessions.expiredBefore(now), memberId: memberId,
            parent: parent)
        return token
    }

    /// The user a trusted proxy names in `serve.proxyAuth.header`; nil without that config, from any other address,
    /// or for a name no member could have.
    func proxyUser(_ request: Request, peer: String?) -> String? {
        guard let proxy = config.serve.proxyAuth, let peer, proxy.trusts(peer),
            let name = HTTPField.Name(proxy.header).flatMap({ request.headers[$0] })?
                .trimmingCharacters(in: .whitespaces),
            !name.isEmpty, name.count <= 200
        else { return nil }
        return name
    }

    /// The session token from the `Cookie` headers, if one has the shape of a token.
    static func sessionCookie(_ headers: HTTPFields) -> SessionToken? { token(cookie: cookieName, in: headers) }

    /// The first cookie of this name whose value has the shape of a token.
    static func token(cookie name: String, in headers: HTTPFields) -> SessionToken? {
        for field in headers[values: .cookie] {
            for pair in field.split(separator: ";") {
                let parts = pair.split(separator: "=", maxSplits: 1)
                guard parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces) == name else { continue }
                if let token = SessionToken(cookie: parts[1].trimmingCharacters(in: .whitespaces)) { return token }
            }
        }
        return nil
    }

    /// The `Set-Cookie` value for a new session: HttpOnly (no script reads it), SameSite=Strict (no other site's
    /// page sends it), Secure when the request came over HTTPS through a proxy that says so.
    func sessionCookie(_ token: SessionToken, secure: Bool) -> String {
        "\(Self.cookieName)=\(token.value); Path=/; Max-Age=\(sessions.cookieMaxAge); HttpOnly; SameSite=Strict"
            + (secure ? "; Secure" : "")
    }

    static func clearedCookie(secure: Bool) -> String {
        "\(cookieName)=; Path=/; Max-Age=0; HttpOnly; SameSite=Strict" + (secure ? "; Secure" : "")
    }

    static func cameOverHTTPS(_ request: Request) -> Bool {
        request.headers[.xForwardedProto]?.lowercased().split(separator: ",").first?
            .trimmingCharacters(in: .whitespaces) == "https"
    }

    /// The address sign-in attempts are counted by: the peer's, or behind a proxy on this machine (the peer is
    /// loopback, ::ffff:127.0.0.1 included), the address the proxy appended last to `X-Forwarded-For`.
    static func clientAddress(_ request: Request, context: PageContext) -> String {
        let peer = context.remoteAddress?.ipAddress ?? "unknown"
        guard HostName.isLoopback(peer),
            let forwarded = request.headers[.xForwardedFor]?.split(separator: ",").last?
                .trimmingCharacters(in: .whitespaces),
            !forwarded.isEmpty, forwarded.count <= 64
        else { return peer }
        return forwarded
    }
}

extension HTTPField.Name {
    static let xForwardedProto = Self("X-Forwarded-Proto")!
    static let xForwardedFor = Self("X-Forwarded-For")!
    static let xForwardedHost = Self("X-Forwarded-Host")!
}
