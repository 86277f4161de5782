import Foundation
import MustCore

/// The page's edits: the same `MovieEditor` steps, clients and rules as `mustc add`, `remove` and `resolve`, told
/// as a notice for the page the browser is sent back to. TMDB's and the store's details go to the log; the page
/// says what happened and what to do next.
extension WebEdits {
    /// Adds a movie to a member's list. A title that names more than one movie the library already keeps ("Dune"
    /// with Dune (1984) and Dune (2021)) is not taken: the notice asks which, with a button for each and one for
    /// another movie, which (`another`) asks TMDB instead of the library.
    func add(member rawMember: String, movie text: String, another: Bool = false) async -> EditNotice {
        let member: String
        let reference: MovieReference
        do {
            member = try NameValidation.validate(rawMember, field: "member name")
            reference = try MovieReference.parse(text)
        } catch {
            return .error("\(error); nothing was changed.")
        }
        do {
            if reference.isTitle {
                let store = reader
                let kept = try await blocking { try store.libraryMovies(named: reference) }
                if another { return await otherMovies(member: member, reference, kept: kept) }
                if kept.count > 1 { return Self.which(member: member, reference, text: text, kept: kept) }
            }
            let editor = try await blocking { try self.editor() }
            let link = try await blocking { try editor.add(member: member, movie: reference) }
            let shown = !reference.isTitle && link.title == reference.description ? link.shown : "\"\(link.shown)\""
            var notice = EditNotice(
                lines: [link.linked ? "\(link.member) now has \(shown)." : "\(link.member) already has \(shown)."])
            guard MovieEditor.needsLookup(link) else { return notice }
            guard let client = lookupClient else {
                notice.lines.append(
                    "The server has no TMDB credentials; its rating will come with the first fetch after they are set.")
                return notice
            }
            let outcome = try await editor.lookUp(link, named: reference, client: client)
            tell(outcome, link: link, into: &notice)
            for index in notice.choices.indices { notice.choices[index].back = WebPath.member(link.member) }
            return notice
        } catch {
            return failed(error)
        }
    }

    /// "The family keeps 2 movies called “Dune”: which one?" with a button for each and one for another movie.
    static func which(member: String, _ reference: MovieReference, text: String, kept: [MovieName]) -> EditNotice {
        let action = WebPath.member(member) + "/movies"
        var notice = EditNotice(lines: [
            "The family keeps \(kept.count) movies called “\(reference)”. Which one should \(member) have? "
                + "Nothing was added yet."
        ])
        notice.adds =
            kept.map { movie in
                let named = movie.remoteId.map { MovieReference.tmdb($0) } ?? .title(movie.title, year: movie.year)
                return AddChoice(action: action, movie: named.description, label: movie.shown)
            } + [AddChoice(action: action, movie: text, label: "Another movie: ask TMDB", another: true)]
        return notice
    }

    /// TMDB's movies with the title that the library does not keep yet, as buttons; nothing is added until one is
    /// pressed.
    private func otherMovies(member: String, _ reference: MovieReference, kept: [MovieName]) async -> EditNotice {
        guard case .title(let title, let year) = reference, let client = lookupClient else {
            return .error("The server has no TMDB credentials to search with; nothing was added.")
        }
        do {
            let found: [RemoteMovie] =
                switch try await client.match(title: title, year: year) {
                case .exact(let movie): [movie]
                case .mostPopular(let movie, let others): [movie] + others
                case .needsChoice(let movies), .tied(let movies): movies
                }
            let keptIds = Set(kept.compactMap(\.remoteId))
            let others = found.filter { !keptIds.contains($0.id) }
            guard !others.isEmpty else {
                return EditNotice(lines: ["TMDB has no other movie called “\(reference)”; nothing was added."])
            }
            var notice = EditNotice(lines: [
                "TMDB has these movies called “\(reference)”. Which one? Nothing was added yet."
            ])
            let action = WebPath.member(member) + "/movies"
            notice.adds = others.map {
                AddChoice(action: action, movie: "tmdb:\($0.id)", label: "Add " + Self.shown($0))
            }
            return notice
        } catch {
            logger.warning("search from the page failed", metadata: ["error": "\(error)"])
            return .error("TMDB could not be asked just now; nothing was added. Try again in a moment.")
        }
    }

    private func tell(_ outcome: LookupOutcome, link: LinkOutcome, into notice: inout EditNotice) {
        switch outcome {
        case .taken(let remote, let resolved):
            notice.lines += Self.stored(resolved, remote)
        case .remakes(let asked, let remote, let taken, let others):
            notice.lines += Self.stored(taken, remote)
            notice.lines.append(
                "\"\(asked)\" is the title of \(others.count + 1) TMDB movies; took the most popular, "
                    + "\(Self.shown(remote)). If you meant another:")
            let named = MovieReference.title(taken.title, year: taken.year).description
            notice.choices = others.map { Self.choice(member: link.member, movie: named, $0) }
        case .needsChoice(let asked, let candidates, let tied):
            notice.lines.append(
                tied
                    ? "\(candidates.count) TMDB movies are titled exactly \"\(asked)\" and none is more popular, so "
                        + "none was taken; it is kept without a TMDB id. Pick one:"
                    : "No TMDB title is exactly \"\(asked)\", so none was taken; it is kept without a TMDB id. Pick one:"
            )
            notice.choices = candidates.map { Self.choice(member: link.member, movie: asked.description, $0) }
        case .nothingFound(let asked):
            notice.lines.append("TMDB found nothing for \"\(asked)\"; it is kept and the next fetch will try again.")
        case .unknownIMDb(let id):
            notice.lines.append("TMDB knows no movie with IMDb id \(id); it is kept without a TMDB id.")
        case .unknownToTMDB(let reference):
            notice.lines.append("TMDB has no movie \(reference); it is kept, and the next fetch will try again.")
        case .unavailable(let error):
            logger.warning("lookup from the page failed", metadata: ["error": "\(error)"])
            notice.lines.append(
                "TMDB could not be asked just now; \"\(link.shown)\" is kept and will be looked up at the next fetch.")
        }
    }

    func remove(member: String, movie text: String) async -> EditNotice {
        guard let reference = try? MovieReference.parse(text) else {
            return .error("\"\(text)\" does not name a movie; nothing was changed.")
        }
        do {
            switch try await blocking({ try self.editor().remove(member: member, movie: reference) }) {
            case .unknownMember: return .error("There is no member \"\(member)\"; nothing was changed.")
            case .unknownMovie: return .error("There is no movie \"\(reference)\"; nothing was changed.")
            case .ambiguous(let member, let movies):
                return .error(
                    "\(member) keeps \(movies.count) movies named \"\(reference)\"; remove one from its own line.")
            case .notLinked(let member, let title):
                return EditNotice(lines: ["\(member) does not have \"\(title)\"; nothing changed."])
            case .unlinked(let member, let title, let deleted):
                return EditNotice(
                    lines: [
                        "\(member) no longer has \"\(title)\".\(deleted ? " No one else kept it, so it is gone." : "")"
                    ])
            }
        } catch {
            return failed(error)
        }
    }

    /// Says which TMDB movie a member's movie is, as `mustc resolve` does; also returns the movie's page.
    func settle(member: String, movie text: String, target: String) async -> (EditNotice, page: String?) {
        guard let named = try? MovieReference.parse(text) else {
            return (.error("\"\(text)\" does not name a movie; nothing was changed."), nil)
        }
        guard let id = try? MovieReference.parse(target), !id.isTitle else {
            return (.error("\"\(target)\" is not an id; give tmdb:ID, imdb:ttID, or a TMDB or IMDb link."), nil)
        }
        do {
            let editor = try await blocking { try self.editor() }
            let found: MovieName
            switch try await blocking({ try editor.kept(member: member, named: named) }) {
            case .found(_, _, let movie): found = movie
            case .unknownMember: return (.error("There is no member \"\(member)\"; nothing was changed."), nil)
            case .unknownMovie: return (.error("There is no movie \"\(named)\"; nothing was changed."), nil)
            case .notKept(let member, let movie):
                return (.error("\(member) does not keep \"\(movie.shown)\"; nothing was changed."), nil)
            case .ambiguous(let member, let movies):
                return (.error("\(member) keeps \(movies.count) movies named \"\(named)\"; nothing was changed."), nil)
            }
            guard let client = settleClient else {
                return (.error("The server has no TMDB credentials to ask about \(id); nothing was changed."), nil)
            }
            guard let remote = try await MovieEditor.remoteMovie(id, client: client) else {
                return (.error("TMDB knows no movie \(id); \"\(found.shown)\" is unchanged."), nil)
            }
            let resolved = try await blocking { try editor.take(remote, movieId: found.id) }
            var notice = EditNotice(lines: [
                "\"\(found.shown)\" is now \(Self.shown(remote)) for everyone who keeps it."
            ])
            notice.lines += Self.stored(resolved, remote)
            return (notice, WebPath.movie(remoteId: remote.id, localId: nil))
        } catch let error as TMDBError {
            logger.warning("settle from the page failed", metadata: ["error": "\(error)"])
            return (.error("TMDB could not be asked just now; nothing was changed. Try again in a moment."), nil)
        } catch {
            return (failed(error), nil)
        }
    }

    func failed(_ error: any Error) -> EditNotice {
        if let off = error as? EditsOff { return .error("Edits from this page are off: \(off.reason).") }
        logger.error("edit from the page failed", metadata: ["error": "\(error)"])
        if case StoreError.busy = error {
            return .error("The database stayed busy; nothing was changed. Try again in a moment.")
        }
        return .error("The edit could not be saved; the server's log says why.")
    }

    private static func stored(_ resolved: ResolveOutcome, _ remote: RemoteMovie) -> [String] {
        var lines: [String] = []
        if let merged = resolved.merged {
            lines.append(
                "\"\(merged)\" and \"\(resolved.shown)\" are the same TMDB movie: merged into one, keeping every "
                    + "member and spelling of both.")
        }
        var figures = "TMDB: \(shown(remote))"
        if let average = remote.voteAverage, let count = remote.voteCount {
            figures += ", rated \(FigureText.plain(average)) from \(count) \(count == 1 ? "vote" : "votes")"
        }
        return lines + [figures + "."]
    }

    static func shown(_ remote: RemoteMovie) -> String {
        "\(MovieName.shown(remote.title ?? "untitled", remote.year)), tmdb:\(remote.id)"
    }

    static func choice(member: String, movie: String, _ remote: RemoteMovie) -> SettleChoice {
        SettleChoice(member: member, movie: movie, target: "tmdb:\(remote.id)", label: "It is \(shown(remote))")
    }
}

extension EditNotice {
    static func error(_ line: String) -> EditNotice { EditNotice(lines: [line], isError: true) }
}
