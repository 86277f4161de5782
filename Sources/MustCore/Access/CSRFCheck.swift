import Foundation

/// Whether a POST from the page may change anything: it must carry the CSRF token of the session it is signed in
/// with, and, when the browser says where it comes from (`Origin`), come from this site. Pure: the caller passes
/// the request's parts.
public enum CSRFCheck {
    public enum Verdict: Sendable, Equatable {
        case allowed
        case refused(String)
    }

    /// - Parameters:
    ///   - formToken: the form's `csrf` field, if any.
    ///   - session: the session the cookie names (already checked to be live).
    ///   - origin: the `Origin` header, if any.
    ///   - host: the `Host` header (or, behind a proxy that sets it, `X-Forwarded-Host`).
    public static func check(formToken: String?, session: SessionToken, origin: String?, host: String?) -> Verdict {
        if let origin, !sameSite(origin: origin, host: host) {
            return .refused("this form was sent from another site")
        }
        guard let formToken, constantTimeEqual(formToken, session.csrfToken) else { return refusedStale }
        return .allowed
    }

    /// A form without its session's token: sent from elsewhere, or from a page older than the session.
    public static let refusedStale = Verdict.refused(
        "this form is out of date or was not sent from this page; reload the page and try again")

    /// `Origin` is scheme://host[:port]; it matches when its host and port are the request's `Host`. The scheme is
    /// not compared: behind a TLS proxy the browser says https while the server hears http. "null" (a sandboxed
    /// or privacy-stripped origin) never matches.
    public static func sameSite(origin: String, host: String?) -> Bool {
        guard let host, !host.isEmpty, let components = URLComponents(string: origin),
            let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let originHost = components.host, components.path.isEmpty
        else { return false }
        var authority = originHost.lowercased()
        if let port = components.port { authority += ":\(port)" }
        let expected = host.lowercased()
        if authority == expected { return true }
        // A default port may be written in Host but not in Origin, or the other way round.
        let defaultPort = scheme == "https" ? ":443" : ":80"
        return authority + defaultPort == expected || authority == expected + defaultPort
    }

    /// Compares without stopping at the first difference, so the time taken says nothing about the token.
    static func constantTimeEqual(_ a: String, _ b: String) -> Bool {
        let (x, y) = (Array(a.utf8), Array(b.utf8))
        guard x.count == y.count else { return false }
        return zip(x, y).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
