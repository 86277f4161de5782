import Foundation

/// The `status` section for the media servers' webhooks: what each server said last and what was done, and the
/// users whose events were ignored because no member has their name, so a parent sees why a film was not marked.
extension StatusReport {
    public func mediaLines() -> [String] {
        guard !mediaServers.isEmpty else { return [] }
        var lines = ["", "Media servers' last events:"]
        for event in mediaServers.last {
            lines.append(
                "  \(event.server) at \(ISO8601.string(event.receivedAt)), user \(TerminalText.cell(event.user)): "
                    + "\(TerminalText.cell(event.movie)): \(TerminalText.cell(event.outcome))")
        }
        if !mediaServers.unknownUsers.isEmpty {
            lines.append("Ignored, from users who are no member (`mustc member NAME --media-user USER`):")
            for event in mediaServers.unknownUsers {
                lines.append(
                    "  \(event.server) at \(ISO8601.string(event.receivedAt)), user \(TerminalText.cell(event.user)): "
                        + TerminalText.cell(event.movie))
            }
        }
        return lines
    }
}
