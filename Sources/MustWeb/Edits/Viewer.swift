import Foundation
import HTTPTypes
import Hummingbird
import MustCore

/// Who is asking, as far as edits go: decided once per request by `EditAccess`, read by the routes.
enum Viewer: Sendable {
    /// No password is set, or the server cannot write the database: the page is read-only, and this says why.
    case editsOff(String)
    case signedOut
    case signedIn(SessionToken)

    @TaskLocal static var current: Viewer = .editsOff("edits are not set up")

    var session: SessionToken? {
        if case .signedIn(let token) = self { return token }
        return nil
    }
}

extension WebEdits {
    static let cookieName = "mustc_session"
    static let noPassword =
        "no password is set, so the page is read-only; whoever runs the server can set one with `mustc password`"

    /// The viewer a request's cookie makes: a live session is touched (at most hourly), an expired one ended.
    func viewer(_ request: Request) async throws -> Viewer {
        if let readOnlyReason { return .editsOff(readOnlyReason) }
        let token = Self.sessionCookie(request.headers)
        let now = time.now()
        let sessions = sessions
        let stamp = DataStamp(
            database: FileStamp(path: path), log: FileStamp(path: path + "-wal"))
        let reader = reader
        let known = passwordSet.withLock { cached in cached?.stamp == stamp ? cached?.isSet : nil }
        // Most requests come without a cookie; while the file is unchanged they need no query at all.
        if known == false { return .editsOff(Self.noPassword) }
        if known == true, token == nil { return .signedOut }
        return try await blocking {
            let isSet = try reader.passwordHash() != nil
            self.passwordSet.withLock { $0 = (stamp, isSet) }
            guard isSet else { return Viewer.editsOff(Self.noPassword) }
            guard let token, let session = try reader.session(tokenHash: token.hash) else {
                return .signedOut
            }
            guard sessions.isLive(session, at: now) else {
                try self.editor().store.endSession(tokenHash: session.tokenHash)
                return .signedOut
            }
            if sessions.needsTouch(session, at: now) {
                try self.editor().store.touchSession(tokenHash: token.hash, now: now)
            }
            return .signedIn(token)
        }
    }

    /// The session token from the `Cookie` headers, if one has the shape of a token.
    static func sessionCookie(_ headers: HTTPFields) -> SessionToken? {
        for field in headers[values: .cookie] {
            for pair in field.split(separator: ";") {
                let parts = pair.split(separator: "=", maxSplits: 1)
                guard parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces) == cookieName else { continue }
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
