import Foundation
import MustCore

/// Asks TMDB which movie a just-linked reference names and stores the answer, saying plainly what it took, what it
/// merged, or that it needs a choice. Failures are notes, not errors: the link is already saved.
struct MovieLookup {
    var client: TMDBClient
    var store: Store
    /// A lookup is the movie's first check: the next fetch leaves it alone until this says it is due.
    var checks: MovieSchedulePolicy

    func settle(_ link: LinkOutcome, named reference: MovieReference) async throws {
        do {
            switch reference {
            case .tmdb(let id):
                try resolve(link, with: try await client.details(id: id))
            case .imdb(let id):
                guard let found = try await client.find(imdbId: id) else {
                    Output.note("TMDB knows no movie with IMDb id \(id); it is kept without a TMDB id.")
                    return
                }
                try resolve(link, with: found)
            case .title(let title, let year):
                try match(link, title: title, year: year, await client.match(title: title, year: year))
            }
        } catch TMDBError.notFound {
            Output.note("TMDB has no movie \(reference); it is kept, and the next fetch will try again.")
        } catch let error as TMDBError {
            Output.note("\(error); \(quoted(link.shown)) is saved and its rating will come with the next fetch.")
        }
    }

    private func match(_ link: LinkOutcome, title: String, year: Int?, _ match: MovieMatch<RemoteMovie>) throws {
        let asked = MovieReference.title(title, year: year)
        switch match {
        case .exact(let remote):
            try resolve(link, with: remote)
        case .mostPopular(let remote, let others):
            let taken = try resolve(link, with: remote)
            print(
                "  \(quoted("\(asked)")) is the title of \(others.count + 1) TMDB movies; took the most popular, "
                    + "\(Self.shown(remote)). If you meant another:")
            let named = MovieReference.title(taken.title, year: taken.year)
            for (index, other) in others.enumerated() {
                print(Self.pick(member: link.member, movie: named, other, number: index + 1))
            }
            if Prompt.isInteractive, let chosen = Prompt.choose(others.count, none: "to keep it") {
                try resolve(link.moved(to: taken), with: others[chosen])
            }
        case .needsChoice(let candidates) where candidates.isEmpty:
            Output.note("TMDB found nothing for \(quoted("\(asked)")); it is saved and the next fetch will try again.")
        case .needsChoice(let candidates), .tied(let candidates):
            try store.saveCandidates(
                movieId: link.movieId,
                candidates.map { MovieCandidate(remoteId: $0.id, title: $0.title ?? "untitled", year: $0.year) })
            if case .tied = match {
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
                try resolve(link, with: candidates[chosen])
            }
        }
    }

    @discardableResult
    private func resolve(_ link: LinkOutcome, with remote: RemoteMovie) throws -> ResolveOutcome {
        let now = Date()
        let check = checks.next(after: .changed, from: nil, at: now, random: Double.random(in: 0..<1))
        let resolved = try store.resolve(movieId: link.movieId, with: remote, now: now, check: check)
        if let merged = resolved.merged {
            print(
                "  \(quoted(merged)) and \(quoted(resolved.shown)) are the same TMDB movie: merged into one, "
                    + "keeping every member and spelling of both.")
        }
        print("  TMDB: \(Describe.ratings(of: remote))")
        return resolved
    }

    /// "    mustc resolve Ann Dune tmdb:841    # Dune (1984)", numbered only for a person at the terminal to choose.
    static func pick(member: String, movie: MovieReference, _ remote: RemoteMovie, number: Int) -> String {
        let command = "mustc resolve \(Shell.quoted(member)) \(movie.argument) tmdb:\(remote.id)    # \(shown(remote))"
        return Prompt.isInteractive ? "  \(number). \(command)" : "    \(command)"
    }

    static func shown(_ remote: RemoteMovie) -> String {
        "\(MovieName.shown(remote.title ?? "untitled", remote.year)), tmdb:\(remote.id)"
    }
}

enum Describe {
    static func ratings(of movie: RemoteMovie) -> String {
        var parts = ["\(movie.title ?? "untitled")"]
        if let year = movie.releaseDate?.prefix(4) { parts[0] += " (\(year))" }
        parts.append("id \(movie.id)")
        if let average = movie.voteAverage, let count = movie.voteCount {
            parts.append("rated \(FigureText.plain(average)) from \(count) \(count == 1 ? "vote" : "votes")")
        }
        if let popularity = movie.popularity { parts.append("popularity \(FigureText.plain(popularity))") }
        return parts.joined(separator: ", ")
    }
}

extension LinkOutcome {
    /// The same link, to the movie a resolve left it on (after a merge, the surviving row).
    fileprivate func moved(to resolved: ResolveOutcome) -> LinkOutcome {
        var link = self
        link.movieId = resolved.movieId
        return link
    }
}
