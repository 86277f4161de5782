import Foundation
import MustCore

/// Asks TMDB which movie a just-linked reference names through the shared `MovieEditor`, and says plainly what it
/// took, what it merged, or that it needs a choice. Failures are notes, not errors: the link is already saved.
struct MovieLookup {
    var client: TMDBClient
    var editor: MovieEditor

    /// The one wording of a lookup's outcome (MustCore's `LookupWording`), quoted for a terminal.
    static let wording = LookupWording(quote: { quoted($0) })

    func settle(_ link: LinkOutcome, named reference: MovieReference) async throws {
        let outcome = try await editor.lookUp(link, named: reference, client: client)
        let cause = if case .unavailable(let error) = outcome { "\(error)" } else { "" }
        let lines = Self.wording.lines(outcome, link: link, cause: cause)
        if LookupWording.isNote(outcome) {
            lines.forEach(Output.note)
            if case .nothingFound(let asked) = outcome {
                for line in try Self.didYouMean(asked, member: link.member, store: editor.store) { print(line) }
            }
            return
        }
        for line in lines { print("  " + line) }
        switch outcome {
        case .remakes(_, _, let taken, let others):
            let named = MovieReference.title(taken.title, year: taken.year)
            for (index, other) in others.enumerated() {
                print(Self.pick(member: link.member, movie: named, other, number: index + 1))
            }
            if Prompt.isInteractive, let chosen = Prompt.choose(others.count, none: "to keep it") {
                Self.tell(try editor.take(others[chosen], movieId: taken.movieId), others[chosen])
            }
        case .needsChoice(let asked, let candidates, _):
            for (index, candidate) in candidates.enumerated() {
                print(Self.pick(member: link.member, movie: asked, candidate, number: index + 1))
            }
            if Prompt.isInteractive, let chosen = Prompt.choose(candidates.count, none: "for none yet") {
                Self.tell(try editor.take(candidates[chosen], movieId: link.movieId), candidates[chosen])
            }
        case .taken, .nothingFound, .unknownIMDb, .unknownToTMDB, .unavailable:
            break
        }
    }

    /// "Did you mean Spirited Away (2001)?" for a typed title TMDB found nothing for, when the library keeps a
    /// movie a typo away (the page's own test, `Store.closeTitles`); then the command that makes the typed movie
    /// that one. The title stays kept as typed: `add` and `import` ask nobody. No lines when nothing is close.
    static func didYouMean(_ asked: MovieReference, member: String, store: Store) throws(StoreError) -> [String] {
        guard case .title(let title, _) = asked else { return [] }
        let close = try store.closeTitles(to: title)
        guard !close.isEmpty else { return [] }
        return ["  Did you mean \(close.map { TerminalText.cell($0.shown) }.joined(separator: " or "))?"]
            + close.compactMap { movie in
                movie.remoteId.map {
                    "    mustc resolve \(Shell.quoted(member)) \(asked.argument) tmdb:\($0)    # "
                        + TerminalText.cell(movie.shown)
                }
            }
    }

    /// What a take stored: a merge, then TMDB's figures.
    static func tell(_ resolved: ResolveOutcome, _ remote: RemoteMovie) {
        for line in wording.stored(resolved, remote) { print("  " + line) }
    }

    /// "    mustc resolve Ann Dune tmdb:841    # Dune (1984)", numbered only for a person at the terminal to choose.
    static func pick(member: String, movie: MovieReference, _ remote: RemoteMovie, number: Int) -> String {
        let command =
            "mustc resolve \(Shell.quoted(member)) \(movie.argument) tmdb:\(remote.id)    # \(LookupWording.shown(remote))"
        return Prompt.isInteractive ? "  \(number). \(command)" : "    \(command)"
    }
}
