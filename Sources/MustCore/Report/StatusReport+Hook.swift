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

extension HookRecord: JSONShaped {
    /// The hook as `status` writes it: the elapsed time to the millisecond, the exit status null when it never
    /// started. Without `details` (the page and `/api/status`), `program` and `stderrTail` are left out.
    struct Shape: Encodable, Sendable, Equatable {
        var program: String?
        var startedAt: Date
        var elapsed: Double
        var changes: Int
        var outcome: String
        @NullWhenAbsent var exitStatus: Int32?
        var stderrTail: String?

        init(_ hook: HookRecord, details: Bool) {
            (program, stderrTail) = details ? (hook.program, hook.stderrTail) : (nil, nil)
            startedAt = hook.startedAt
            elapsed = (hook.elapsed * 1000).rounded() / 1000
            changes = hook.changes
            outcome = hook.outcome.rawValue
            exitStatus = hook.exitStatus
        }
    }

    public var jsonShape: any Encodable { Shape(self, details: true) }
}
