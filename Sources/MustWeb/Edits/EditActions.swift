import Foundation
import MustCore

/// The page's edits: the same `MovieEditor` steps, clients and rules as `mustc add`, `remove` and `resolve`, told
/// as a notice for the page the browser is sent back to. TMDB's and the store's details go to the log; the page
/// says what happened and what to do next.
extension WebEdits {
    /// Adds a movie to a member's list. A title that names more than one movie the library already keeps ("Dune"
    /// with Dune (1984) and Dune (2021)) is not taken: the notice asks which, with a button for each and one for
    /// another movie, which (`another`) asks TMDB instead of the library.
    func add(member rawMember: String, movie text: String, another: Bool = false, typed: Bool = false) async
        -> EditNotice
    {
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
                let (store, audience, region) = (reader, Viewer.current.audience, config.family.region)
                // A kid is asked about the movies they may see only: no other title is named to them.
                let shown =
                    audience.leavesOut
                    ? try await blocking { try store.visibility(audience, region: region) } : Visibility.everyone
                let kept = shown.filter(try await blocking { try store.libraryMovies(named: reference) })
                if another { return await otherMovies(member: member, reference, kept: kept) }
                if kept.count > 1 { return Self.which(member: member, reference, text: text, kept: kept) }
                if kept.isEmpty, !another, !typed, case .title(let title, _) = reference {
                    let close = shown.filter(try await blocking { try store.closeTitles(to: title) })
                    if !close.isEmpty { return Self.didYouMean(member: member, text: text, close: close) }
                }
            }
            let editor = try await blocking { try self.editor() }
            let link = try await blocking { try editor.add(member: member, movie: reference) }
            let shown = !reference.isTitle && link.title == reference.description ? link.shown : "\"\(link.shown)\""
            var notice = EditNotice(
                lines: [link.linked ? "\(link.member) now has \(shown)." : "\(link.member) already has \(shown)."])
            // A suggestion's "Add to …" names the film as its card did, not by its id.
            if case .tmdb(let id) = reference, link.title == reference.description,
                let known = try await blocking({ try editor.store.suggestionShown(remoteId: id) })
            {
                notice.lines = [Self.onList(known, link)]
            }
            guard MovieEditor.needsLookup(link) else { return notice }
            guard let client = lookupClient else {
                notice.lines.append(
                    "The server has no TMDB credentials; its rating will come with the first fetch after they are set.")
                return notice
            }
            let outcome = try await editor.lookUp(link, named: reference, client: client)
            // A movie named by its id (a suggestion's "Add to …") is told by the title TMDB gave it, in words.
            if !reference.isTitle, case .taken(_, let resolved) = outcome {
                notice.lines = [Self.onList(MovieName.shown(resolved.title, resolved.year), link)]
                if let merged = resolved.merged { notice.lines.append("It was also kept as \"\(merged)\": now one.") }
                return notice
            }
            tell(outcome, link: link, into: &notice)
            for index in notice.choices.indices { notice.choices[index].back = WebPath.member(link.member) }
            return notice
        } catch {
            return failed(error)
        }
    }

    /// "Did you mean Spirited Away (2001)?" for a typed title the library does not keep but keeps one a typo away:
    /// a button for each close movie, and one that adds the title as typed. Nothing is added until one is pressed.
    static func didYouMean(member: String, text: String, close: [MovieName]) -> EditNotice {
        let action = WebPath.member(member) + "/movies"
        var notice = EditNotice(lines: [
            "Did you mean \(close.map(\.shown).joined(separator: " or "))? Nothing was added yet."
        ])
        notice.adds =
            close.map { movie in
                let named = movie.remoteId.map { MovieReference.tmdb($0) } ?? .title(movie.title, year: movie.year)
                return AddChoice(action: action, movie: named.description, label: movie.shown)
            } + [AddChoice(action: action, movie: text, label: "Add “\(text)” as typed", typed: true)]
        return notice
    }

    /// "Dune (1984) is on Claire's list.", or was already.
    static func onList(_ title: String, _ link: LinkOutcome) -> String {
        link.linked ? "\(title) is on \(link.member)'s list." : "\(title) was already on \(link.member)'s list."
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

    /// The one wording of a lookup's outcome (MustCore's `LookupWording`); TMDB's error goes to the log, not the page.
    private func tell(_ outcome: LookupOutcome, link: LinkOutcome, into notice: inout EditNotice) {
        if case .unavailable(let error) = outcome {
            logger.warning("lookup from the page failed", metadata: ["error": "\(error)"])
        }
        notice.lines += LookupWording().lines(outcome, link: link, cause: "TMDB could not be asked just now")
        // The choices settle the movie as the member's list names it: the taken remake by its title and year.
        let named =
            switch outcome {
            case .remakes(_, _, let taken, _): MovieReference.title(taken.title, year: taken.year).description
            case .needsChoice(let asked, _, _): asked.description
            default: ""
            }
        notice.choices = LookupWording.choices(outcome).map { Self.choice(member: link.member, movie: named, $0) }
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
            notice.lines += LookupWording().stored(resolved, remote)
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

    static func shown(_ remote: RemoteMovie) -> String { LookupWording.shown(remote) }

    static func choice(member: String, movie: String, _ remote: RemoteMovie) -> SettleChoice {
        SettleChoice(member: member, movie: movie, target: "tmdb:\(remote.id)", label: "It is \(shown(remote))")
    }
}

extension EditNotice {
    static func error(_ line: String) -> EditNotice { EditNotice(lines: [line], isError: true) }
}
