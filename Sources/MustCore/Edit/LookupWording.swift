import Foundation

/// The words for a lookup's outcome, written once for `mustc add`, `mustc resolve` and the page's forms. Each
/// caller says how a title is quoted (the command line also makes control characters visible; the page's templates
/// escape) and how it lays the lines out.
public struct LookupWording: Sendable {
    /// Puts a title or name in quotes for a sentence.
    public var quote: @Sendable (String) -> String

    public init(quote: @escaping @Sendable (String) -> String = LookupWording.plainQuote) {
        self.quote = quote
    }

    /// In double quotes, unless it already comes quoted: TMDB has titles such as `"Civil War Minutes-Confederate"`.
    @Sendable public static func plainQuote(_ text: String) -> String {
        text.count >= 2 && text.hasPrefix("\"") && text.hasSuffix("\"") ? text : "\"" + text + "\""
    }

    /// The lines that say what the lookup stored, or why nothing was: for `.unavailable`, `cause` opens the line
    /// (the command prints TMDB's error; the page, whose reader needs no internals, says TMDB could not be asked).
    /// The choices offered after them are the caller's (`choices`).
    public func lines(_ outcome: LookupOutcome, link: LinkOutcome, cause: String) -> [String] {
        switch outcome {
        case .taken(let remote, let resolved):
            return stored(resolved, remote)
        case .remakes(let asked, let remote, let taken, let others):
            return stored(taken, remote) + [
                "\(quote(asked.description)) is the title of \(others.count + 1) TMDB movies; took the most popular, "
                    + "\(Self.shown(remote)). If you meant another:"
            ]
        case .needsChoice(let asked, let candidates, let tied):
            return [
                tied
                    ? "\(candidates.count) TMDB movies are titled exactly \(quote(asked.description)) and none is more "
                        + "popular, so none was taken; it is kept without a TMDB id. Pick one:"
                    : "No TMDB title is exactly \(quote(asked.description)), so none was taken; it is kept without a "
                        + "TMDB id. Pick one:"
            ]
        case .nothingFound(let asked):
            return ["TMDB found nothing for \(quote(asked.description)); it is kept and the next fetch will try again."]
        case .unknownIMDb(let id):
            return ["TMDB knows no movie with IMDb id \(id); it is kept without a TMDB id."]
        case .unknownToTMDB(let reference):
            return ["TMDB has no movie \(reference); it is kept, and the next fetch will try again."]
        case .unavailable:
            return ["\(cause); \(quote(link.shown)) is kept and will be looked up at the next fetch."]
        }
    }

    /// The TMDB movies a person may pick: the other remakes, or the candidates; none for the other outcomes.
    public static func choices(_ outcome: LookupOutcome) -> [RemoteMovie] {
        switch outcome {
        case .remakes(_, _, _, let others): others
        case .needsChoice(_, let candidates, _): candidates
        case .taken, .nothingFound, .unknownIMDb, .unknownToTMDB, .unavailable: []
        }
    }

    /// True when nothing was taken and nothing is offered: the command prints these lines as notes.
    public static func isNote(_ outcome: LookupOutcome) -> Bool {
        switch outcome {
        case .taken, .remakes, .needsChoice: false
        case .nothingFound, .unknownIMDb, .unknownToTMDB, .unavailable: true
        }
    }

    /// What a take stored: the merge when there was one, then TMDB's figures.
    public func stored(_ resolved: ResolveOutcome, _ remote: RemoteMovie) -> [String] {
        var lines: [String] = []
        if let merged = resolved.merged {
            lines.append(
                "\(quote(merged)) and \(quote(resolved.shown)) are the same TMDB movie: merged into one, "
                    + "keeping every member and spelling of both.")
        }
        return lines + [Self.figures(remote)]
    }

    /// "TMDB: Dune (2021), id 438631, rated 7.8 from 12000 votes, popularity 160.4"; the figures TMDB gave.
    /// TMDB's title on one line (`TerminalText.cell`): a line feed in it would print a second, forged "TMDB:" line.
    public static func figures(_ remote: RemoteMovie) -> String {
        var parts = [
            "TMDB: " + TerminalText.cell(MovieName.shown(remote.title ?? "untitled", remote.year)), "id \(remote.id)",
        ]
        if let average = remote.voteAverage, let count = remote.voteCount {
            parts.append("rated \(FigureText.plain(average)) from \(count) \(count == 1 ? "vote" : "votes")")
        }
        if let popularity = remote.popularity { parts.append("popularity \(FigureText.plain(popularity))") }
        return parts.joined(separator: ", ")
    }

    /// "Dune (2021), tmdb:438631": a TMDB movie as a choice names it.
    public static func shown(_ remote: RemoteMovie) -> String {
        "\(TerminalText.cell(MovieName.shown(remote.title ?? "untitled", remote.year))), tmdb:\(remote.id)"
    }
}
