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
