import Foundation

/// The `status` section for notifications: per destination, the last success, the last failure in the
/// server's words (sanitised, never a token) and how many messages wait.
extension StatusReport {
    /// "Notifications to ntfy: last delivered …; last failed … (403 refused: …); 2 waiting."
    public func notifyLines() -> [String] {
        guard !notify.isEmpty else { return [] }
        return [""] + notify.map(Self.line)
    }

    static func line(_ destination: NotifyDestinationStatus) -> String {
        var parts: [String] = []
        parts.append(
            destination.lastSuccessAt.map { "last delivered \(ISO8601.string($0))" } ?? "nothing delivered yet")
        if let failed = destination.lastFailureAt,
            destination.lastSuccessAt.map({ failed > $0 }) ?? true || destination.configProblem
        {
            let why = destination.lastFailure.map { " (\(TerminalText.cell($0)))" } ?? ""
            parts.append("last failed \(ISO8601.string(failed))\(why)")
        }
        if destination.configProblem { parts.append("check notify.\(destination.name) in the config") }
        parts.append("\(destination.waiting) waiting")
        if destination.dropped > 0, let at = destination.lastDroppedAt {
            parts.append(
                "\(destination.dropped) dropped after 7 days unsent, the last at \(ISO8601.string(at))")
        }
        return "Notifications to \(destination.name): " + parts.joined(separator: "; ") + "."
    }
}

extension NotifyDestinationStatus: Encodable {
    private enum CodingKeys: String, CodingKey {
        case name, lastSuccessAt, lastFailureAt, lastFailure, configProblem, waiting, dropped, lastDroppedAt
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(lastSuccessAt.map(ISO8601.string), forKey: .lastSuccessAt)
        try container.encode(lastFailureAt.map(ISO8601.string), forKey: .lastFailureAt)
        try container.encode(lastFailure, forKey: .lastFailure)
        try container.encode(configProblem, forKey: .configProblem)
        try container.encode(waiting, forKey: .waiting)
        try container.encode(dropped, forKey: .dropped)
        try container.encode(lastDroppedAt.map(ISO8601.string), forKey: .lastDroppedAt)
    }
}
