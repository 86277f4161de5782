import Foundation

/// One place a message goes: an ntfy topic, a Gotify server or a plain JSON webhook. `description` never shows
/// the token, the headers or the URL (an ntfy topic's name is often its only password).
public struct NotifyDestination: Sendable, Equatable, CustomStringConvertible {
    public enum Service: String, Sendable, CaseIterable { case ntfy, gotify, webhook }

    public var service: Service
    public var url: URL
    /// ntfy: sent as a Bearer token (optional); Gotify: the application token, in `X-Gotify-Key`.
    public var token: String?
    /// ntfy's priority, 1 to 5.
    public var priority: Int?
    /// The webhook's extra headers, such as `Authorization` for Home Assistant or n8n.
    public var headers: [String: String] = [:]

    public init(service: Service, url: URL, token: String? = nil, priority: Int? = nil, headers: [String: String] = [:])
    {
        (self.service, self.url, self.token, self.priority, self.headers) = (service, url, token, priority, headers)
    }

    /// The name `status` and the outbox use: one destination of each service.
    public var name: String { service.rawValue }

    public var description: String { "\(service.rawValue) at \(url.host ?? "(no host)")" }

    /// Every value that must never be shown.
    var secrets: [String] { ([token].compactMap { $0 } + Array(headers.values)).filter { !$0.isEmpty } }

    /// The request that delivers `message`, JSON in each service's own shape.
    func request(_ message: NotifyMessage, timeout: TimeInterval) -> HTTPRequest {
        var headers = ["Content-Type": "application/json", "Accept": "application/json"]
        var target = url
        let body: any Encodable
        switch service {
        case .ntfy:
            // JSON publishing: POST to the server's root with the topic inside, so titles need no header encoding.
            target = url.deletingLastPathComponent()
            body = NtfyBody(
                title: message.title, message: message.body, topic: url.lastPathComponent, priority: priority,
                click: message.click)
            if let token { headers["Authorization"] = "Bearer \(token)" }
        case .gotify:
            target = url.appending(path: "message")
            body = GotifyBody(
                title: message.title, message: message.body,
                extras: message.click.map { ["client::notification": ["click": ["url": $0]]] })
            if let token { headers["X-Gotify-Key"] = token }
        case .webhook:
            body = WebhookBody(title: message.title, message: message.body, click: message.click, items: message.items)
            for (name, value) in self.headers { headers[name] = value }
        }
        // Typed bodies through JSONEncoder, not `[String: Any]` through JSONSerialization: its casts of `Any`
        // scanned the protocol conformance tables, 3.2 ms of a fetch's CPU (perf, release build, 3 destinations).
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(body)) ?? Data()
        return HTTPRequest(url: target, headers: headers, timeout: timeout, maxBodyBytes: 64 * 1024, body: data)
    }
}

/// ntfy's JSON publish: absent keys are left out.
private struct NtfyBody: Encodable {
    var title, message, topic: String
    var priority: Int?
    var click: String?
}

/// Gotify's message, the link in its `client::notification` extra.
private struct GotifyBody: Encodable {
    var title, message: String
    var extras: [String: [String: [String: String]]]?
}

/// The plain webhook's `{"title", "message", "click", "items"}`: `click` is always there, null without a link.
private struct WebhookBody: Encodable {
    var title, message: String
    @NullWhenAbsent var click: String?
    var items: Int
}

/// One notification: a title line saying how many items it holds, a line per item, and where a tap leads.
public struct NotifyMessage: Sendable, Equatable {
    public var title: String
    public var body: String
    public var click: String?
    public var items: Int

    public init(title: String, body: String, click: String? = nil, items: Int) {
        (self.title, self.body, self.click, self.items) = (title, body, click, items)
    }
}
