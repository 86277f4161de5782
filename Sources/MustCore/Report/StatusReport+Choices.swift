import Foundation

/// The `status` section for movies that need a choice: kept apart from the schedule lines on purpose.
extension StatusReport {
    /// "Movies that need a choice:" and, per movie, each candidate with the command that picks it.
    func choiceLines() -> [String] {
        guard !needsChoice.isEmpty else { return [] }
        var lines = ["", "Movies that need a choice (no TMDB title matched exactly):"]
        for movie in needsChoice {
            let keptBy = movie.members.isEmpty ? "" : " (kept by \(movie.members.joined(separator: ", ")))"
            lines.append("  \(TerminalText.cell(movie.shown))\(keptBy):")
            lines += movie.held.map { "    " + TerminalText.cell($0.waiting) }
            let member = Shell.quoted(movie.members.first ?? "<member>")
            let named = MovieReference.title(movie.title, year: movie.year).argument
            for candidate in movie.candidates {
                lines.append(
                    "    mustc resolve \(member) \(named) tmdb:\(candidate.remoteId)    # \(candidate.shown)")
            }
        }
        return lines
    }
}

extension HeldMark {
    /// "Ann's watched mark of 2026-11-24 (from jellyfin) waits for this choice": why choosing matters.
    public var waiting: String { "\(member)'s watched mark of \(day) (from \(source)) waits for this choice" }
}
