import Foundation
import MustCore

/// Asks TMDB which movie a just-linked reference names through the shared `MovieEditor`, and says plainly what it
/// took, what it merged, or that it needs a choice. Failures are notes, not errors: the link is already saved.
struct MovieLookup {
    var client: TMDBClient
    var editor: MovieEditor

    func settle(_ link: LinkOutcome, named reference: MovieReference) async throws {
        switch try await editor.lookUp(link, named: reference, client: client) {
        case .taken(let remote, let resolved):
            Self.tell(resolved, remote)
        case .remakes(let asked, let remote, let taken, let others):
            Self.tell(taken, remote)
            print(
                "  \(quoted("\(asked)")) is the title of \(others.count + 1) TMDB movies; took the most popular, "
                    + "\(Self.shown(remote)). If you meant another:")
            let named = MovieReference.title(taken.title, year: taken.year)
            for (index, other) in others.enumerated() {
                print(Self.pick(member: link.member, movie: named, other, number: index + 1))
            }
            if Prompt.isInteractive, let chosen = Prompt.choose(others.count, none: "to keep it") {
                Self.tell(try editor.take(others[chosen], movieId: taken.movieId), others[chosen])
            }
        case .needsChoice(let asked, let candidates, let tied):
            if tied {
                print(
                    "  \(candidates.count) TMDB movies are titled exactly \(quoted("\(asked)")) and none is more popular, "
                        + "so none was taken; it is kept without a TMDB id. Pick one:")
            } else {
                print(
                    "  No TMDB title is exactly \(quoted("\(asked)")), so none was taken; it is kept without a TMDB id. "
                        + "Pick one:")
            }
            for (index, candidate) in candidates.enumerated() {
                print(Self.pick(member: link.member, movie: asked, candidate, number: index + 1))
            }
            if Prompt.isInteractive, let chosen = Prompt.choose(candidates.count, none: "for none yet") {
                Self.tell(try editor.take(candidates[chosen], movieId: link.movieId), candidates[chosen])
            }
        case .nothingFound(let asked):
            Output.note("TMDB found nothing for \(quoted("\(asked)")); it is saved and the next fetch will try again.")
        case .unknownIMDb(let id):
            Output.note("TMDB knows no movie with IMDb id \(id); it is kept without a TMDB id.")
        case .unknownToTMDB(let reference):
            Output.note("TMDB has no movie \(reference); it is kept, and the next fetch will try again.")
        case .unavailable(let error):
            Output.note("\(error); \(quoted(link.shown)) is saved and its rating will come with the next fetch.")
        }
    }

    /// What a take stored: a merge, then TMDB's figures.
    private static func tell(_ resolved: ResolveOutcome, _ remote: RemoteMovie) {
        if let merged = resolved.merged {
            print(
                "  \(quoted(merged)) and \(quoted(resolved.shown)) are the same TMDB movie: merged into one, "
                    + "keeping every member and spelling of both.")
        }
        print("  TMDB: \(Describe.ratings(of: remote))")
    }

    /// "    mustc resolve Ann Dune tmdb:841    # Dune (1984)", numbered only for a person at the terminal to choose.
    static func pick(member: String, movie: MovieReference, _ remote: RemoteMovie, number: Int) -> String {
        let command = "mustc resolve \(Shell.quoted(member)) \(movie.argument) tmdb:\(remote.id)    # \(shown(remote))"
        return Prompt.isInteractive ? "  \(number). \(command)" : "    \(command)"
    }

    static func shown(_ remote: RemoteMovie) -> String {
        "\(TerminalText.cell(MovieName.shown(remote.title ?? "untitled", remote.year))), tmdb:\(remote.id)"
    }
}

enum Describe {
    static func ratings(of movie: RemoteMovie) -> String {
        // TMDB's title on one line: a line feed in it would print a second, forged "TMDB:" line.
        var parts = [TerminalText.cell(movie.title ?? "untitled")]
        if let year = movie.releaseDate?.prefix(4) { parts[0] += " (\(year))" }
        parts.append("id \(movie.id)")
        if let average = movie.voteAverage, let count = movie.voteCount {
            parts.append("rated \(FigureText.plain(average)) from \(count) \(count == 1 ? "vote" : "votes")")
        }
        if let popularity = movie.popularity { parts.append("popularity \(FigureText.plain(popularity))") }
        return parts.joined(separator: ", ")
    }
}
