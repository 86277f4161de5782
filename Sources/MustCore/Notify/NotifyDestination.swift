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
        var body: [String: Any] = ["title": message.title, "message": message.body]
        switch service {
        case .ntfy:
            // JSON publishing: POST to the server's root with the topic inside, so titles need no header encoding.
            let topic = url.lastPathComponent
            target = url.deletingLastPathComponent()
            body["topic"] = topic
            if let priority { body["priority"] = priority }
            if let click = message.click { body["click"] = click }
            if let token { headers["Authorization"] = "Bearer \(token)" }
        case .gotify:
            target = url.appending(path: "message")
            if let click = message.click { body["extras"] = ["client::notification": ["click": ["url": click]]] }
            if let token { headers["X-Gotify-Key"] = token }
        case .webhook:
            body["click"] = message.click ?? NSNull()
            body["items"] = message.items
            for (name, value) in self.headers { headers[name] = value }
        }
        let data = (try? JSONSerialization.data(withJSONObject: body, options: [.sortedKeys])) ?? Data()
        return HTTPRequest(url: target, headers: headers, timeout: timeout, maxBodyBytes: 64 * 1024, body: data)
    }
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
