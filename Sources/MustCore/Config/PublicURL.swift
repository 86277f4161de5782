import Foundation

extension Config.Serve {
    /// `serve.publicURL` checked: http or https, a host, no user, query or fragment; without its trailing slash.
    static func publicBase(_ text: String) -> String? {
        guard let url = URLComponents(string: text), let scheme = url.scheme?.lowercased(),
            scheme == "http" || scheme == "https", let host = url.host, !host.isEmpty, url.user == nil,
            url.password == nil, url.query == nil, url.fragment == nil,
            text.unicodeScalars.allSatisfy({ $0.isASCII && $0.value > 32 && $0.value < 127 })
        else { return nil }
        return text.hasSuffix("/") ? String(text.dropLast()) : text
    }

    /// Where the webhook URLs start: `publicURL`, else the listen address.
    public var webhookBase: String { publicURL ?? "http://\(listen)" }
}
