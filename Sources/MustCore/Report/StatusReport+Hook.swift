import Foundation

/// The `status` section for the newData hook: kept apart from the schedule lines on purpose.
extension StatusReport {
    /// "newData hook notify-send: failed (exit status 1) at …, 0.2s, 2 movies" and the end of its stderr.
    public func hookLines() -> [String] {
        guard let hook else { return [] }
        var outcome = hook.outcome.rawValue
        if let status = hook.exitStatus {
            outcome += status < 0 ? " (killed by signal \(-status))" : " (exit status \(status))"
        }
        let elapsed = RatingsReport.oneDecimal(hook.elapsed)
        // The page leaves out the program: its path names a file on the server, and its arguments were never shown.
        let program = showsHookDetails ? " " + hook.program : ""
        var lines = [
            "",
            "newData hook\(program): \(outcome) at \(ISO8601.string(hook.startedAt)), \(elapsed)s, "
                + "\(hook.changes) movie\(hook.changes == 1 ? "" : "s") in its input.",
        ]
        if showsHookDetails, !hook.stderrTail.isEmpty {
            lines.append(
                "  stderr: " + hook.stderrTail.split(separator: "\n").suffix(5).joined(separator: "\n          "))
        }
        return lines
    }
}

extension HookRecord: Encodable {
    private enum CodingKeys: String, CodingKey {
        case program, startedAt, elapsed, changes, outcome, exitStatus, stderrTail
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(program, forKey: .program)
        try container.encode(startedAt, forKey: .startedAt)
        try container.encode((elapsed * 1000).rounded() / 1000, forKey: .elapsed)
        try container.encode(changes, forKey: .changes)
        try container.encode(outcome.rawValue, forKey: .outcome)
        try container.encode(exitStatus, forKey: .exitStatus)
        try container.encode(stderrTail, forKey: .stderrTail)
    }
}

extension HookRecord {
    /// What the page and `/api/status` say of the hook: the record without `program` and `stderrTail`.
    struct Outline: Encodable {
        var startedAt: Date
        var elapsed: Double
        var changes: Int
        var outcome: String
        @NullWhenAbsent var exitStatus: Int32?

        init(_ hook: HookRecord) {
            startedAt = hook.startedAt
            elapsed = (hook.elapsed * 1000).rounded() / 1000
            changes = hook.changes
            outcome = hook.outcome.rawValue
            exitStatus = hook.exitStatus
        }
    }
}
