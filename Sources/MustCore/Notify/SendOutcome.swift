import Foundation

/// What a destination answered one message, in words safe to show: never a token, a header's value or the URL.
public enum SendOutcome: Sendable, Equatable, CustomStringConvertible {
    case accepted(status: Int)
    /// A timeout, a refused connection, a 5xx or a 429: tried again later (`after`, from a 429's Retry-After).
    case failed(reason: String, after: TimeInterval?)
    /// 401, 403 or another 4xx: the configuration needs a look; the message still waits.
    case refused(status: Int, reason: String)

    public var accepted: Bool { if case .accepted = self { true } else { false } }

    public var description: String {
        switch self {
        case .accepted(let status): "accepted (\(status))"
        case .failed(let reason, _): reason
        case .refused(_, let reason): reason
        }
    }

    /// An answer or a transport error, classified; `secrets` are cut out of the server's text.
    static func classify(
        _ result: Result<HTTPResponse, any Error>, timeout: TimeInterval, secrets: [String], now: Date
    )
        -> SendOutcome
    {
        let response: HTTPResponse
        switch result {
        case .success(let answer): response = answer
        case .failure(TransportError.timedOut):
            return .failed(reason: "no answer within \(Durations.wholeSeconds(timeout.rounded(.up)))s", after: nil)
        case .failure(TransportError.unreachable(let reason)):
            return .failed(reason: "could not connect: \(TerminalText.cell(reason))", after: nil)
        case .failure(let error):
            return .failed(reason: "could not send: \(TerminalText.cell(String(describing: error)))", after: nil)
        }
        let status = response.status
        if (200..<300).contains(status) { return .accepted(status: status) }
        let text = serverText(response.body, secrets: secrets)
        let said = text.isEmpty ? "" : ": \(text)"
        switch status {
        case 429:
            let wait = RetryAfter.seconds(response.headers["retry-after"], now: now)
            return .failed(reason: "429 too many requests\(said)", after: wait)
        case 500...:
            return .failed(reason: "\(status) from the server\(said)", after: nil)
        case 401, 403:
            return .refused(status: status, reason: "\(status) refused: check the token in the config\(said)")
        default:
            return .refused(status: status, reason: "\(status) refused: check the url in the config\(said)")
        }
    }

    /// The server's own error text: ntfy's `error`, Gotify's `errorDescription`, or the body's start; one line,
    /// control characters visible, at most 200 characters, every secret replaced.
    static func serverText(_ body: Data, secrets: [String]) -> String {
        var text = String(decoding: body.prefix(4096), as: UTF8.self)
        if let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any] {
            let parts = ["error", "errorDescription"].compactMap { object[$0] as? String }
            if !parts.isEmpty { text = parts.joined(separator: ": ") }
        }
        text = secrets.filter { !$0.isEmpty }.reduce(text) { Redaction.text($0, hiding: $1) }
        return TerminalText.cut(TerminalText.cell(text.trimmingCharacters(in: .whitespacesAndNewlines)), width: 200)
    }
}

/// When a message that failed is tried again: at the next run after its first failure, then after 5 minutes,
/// doubling up to 6 hours; a 429's Retry-After wins (up to a day). Pure.
public enum NotifyRetry {
    public static let first: TimeInterval = 5 * 60
    public static let longest: TimeInterval = 6 * 3600
    /// A message older than this is dropped, and `status` says so.
    public static let keep: TimeInterval = 7 * 86400

    /// `attempts` counts this failure.
    public static func next(attempts: Int, now: Date, retryAfter: TimeInterval?) -> Date {
        if let retryAfter { return now.addingTimeInterval(min(max(retryAfter, 0), 86400)) }
        guard attempts > 1 else { return now }
        let doublings = min(attempts - 2, 20)
        return now.addingTimeInterval(min(first * pow(2, Double(doublings)), longest))
    }
}
