import Foundation

/// Keeps secrets out of anything printed or logged.
public enum Redaction {
    /// The URL with `api_key` (and any other credential-looking parameter) replaced by "REDACTED".
    public static func url(_ url: URL) -> String {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return "(url)" }
        components.user = nil
        components.password = nil
        if let items = components.percentEncodedQueryItems {
            components.percentEncodedQueryItems = items.map { item in
                let name = item.name.lowercased()
                let secret = ["api_key", "apikey", "access_token", "token", "key"].contains(name)
                return secret ? URLQueryItem(name: item.name, value: "REDACTED") : item
            }
        }
        return components.string ?? "(url)"
    }

    /// The text with every occurrence of `secret` replaced, for messages that echo server input.
    public static func text(_ text: String, hiding secret: String) -> String {
        guard !secret.isEmpty else { return text }
        return text.replacingOccurrences(of: secret, with: "REDACTED")
    }
}
