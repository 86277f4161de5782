import Foundation
import Hummingbird
import MustCore

/// /night's "Not for us": the family's "not for us", the same row as `mustc suggest --hide`, which
/// `mustc suggest --forget` clears; and a suggestion's "We're watching this". ("Add to …" is the member page's add,
/// `POST /members/{name}/movies`.)
enum SuggestionEditRoutes {
    static func register(on router: Router<PageContext>, edits: WebEdits, pages: EditPages) {
        router.post("/night/new/watching") { request, _ in
            try await EditRoutes.guarded(request, pages, may: { _ in .nights }) { form, token in
                // The watchers come as w0, w1, …, as on a pick's card.
                let watchers = (0..<100).compactMap { form["w\($0)"] }.filter { !$0.isEmpty }
                let back = EditRoutes.sitePath(form["back"] ?? "/night")
                let notice = await edits.watchingSuggestion(movie: form["movie"] ?? "", members: watchers, back: back)
                return edits.redirect(notice, token, to: back)
            }
        }
        router.post("/night/not-for-us") { request, _ in
            try await EditRoutes.guarded(request, pages, may: { _ in .nights }) { form, token in
                let back = EditRoutes.sitePath(form["back"] ?? "/night")
                let notice = await edits.notForUs(movie: form["movie"] ?? "", back: back)
                return edits.redirect(notice, token, to: back)
            }
        }
        // The notice's Undo: its button carries the page to return to in its address, as the notice's buttons
        // have no field of their own for it.
        router.post("/night/not-for-us/undo") { request, _ in
            let back = EditRoutes.sitePath(request.uri.queryParameters["back"].map(String.init) ?? "/night")
            return try await EditRoutes.guarded(request, pages, may: { _ in .nights }) { form, token in
                let notice = await edits.takeBackNotForUs(movie: form["movie"] ?? "")
                return edits.redirect(notice, token, to: back)
            }
        }
    }
}

extension WebEdits {
    /// A suggestion's "We're watching this": the movie on every watcher's list, through the add's own step (so it
    /// keeps the facts its card showed), then the night recorded as a pick's button records it, owning the links
    /// it made, so its Undo takes the movie off those lists again. A second tap adds nothing and answers with the
    /// same night. Every watcher must be a member already: the add makes a member of any name it is given, and the
    /// form names them.
    func watchingSuggestion(movie text: String, members: [String], back: String) async -> EditNotice {
        guard case .tmdb(let id)? = try? MovieReference.parse(text) else {
            return .error("“\(text)” does not name a suggestion; nothing was changed.")
        }
        guard !members.isEmpty else { return .error("Tick who is watching first; nothing was changed.") }
        do {
            let editor = try await blocking { try self.editor() }
            let unknown = try await blocking { try members.filter { !(try editor.store.hasMember($0)) } }
            guard unknown.isEmpty else {
                return .error(
                    "There is no member \(unknown.map { "“\($0)”" }.joined(separator: ", ")); nothing was changed.")
            }
            var shown = try await blocking { try editor.store.suggestionShown(remoteId: id) }
            var links: [LinkOutcome] = []
            for member in members {
                links.append(try await blocking { try editor.add(member: member, movie: .tmdb(id)) })
            }
            if let first = links.first, MovieEditor.needsLookup(first), let client = lookupClient {
                // Its title and rating, as "Add to …" asks; a failure leaves them to the next fetch.
                switch try await editor.lookUp(first, named: .tmdb(id), client: client) {
                case .taken(_, let resolved): shown = MovieName.shown(resolved.title, resolved.year)
                case let other: logger.info("a suggestion watched was not looked up", metadata: ["outcome": "\(other)"])
                }
            }
            let added = links.filter(\.linked).map(\.member)
            // The lists it was put on are the night's doing: its Undo makes it a suggestion again.
            var notice = await night(
                movie: "tmdb:\(id)", members: members, back: back, shown: shown, linkedFor: added)
            if !notice.isError, !added.isEmpty {
                let lists = added.count == 1 ? "\(added[0])'s list" : "\(MovieNight.names(added))'s lists"
                notice.lines.insert("\(shown ?? "It") is on \(lists).", at: 0)
            }
            return notice
        } catch {
            return failed(error)
        }
    }

    /// Hides the suggestion from the family's suggestions, for every member and every later fetch.
    func notForUs(movie text: String, back: String) async -> EditNotice {
        guard case .tmdb(let id)? = try? MovieReference.parse(text) else {
            return .error("“\(text)” does not name a suggestion; nothing was changed.")
        }
        let now = time.now()
        do {
            let hidden = try await blocking { try self.editor().store.hideSuggestion(.tmdb(id), now: now) }
            guard let shown = hidden.first else {
                return .error("tmdb:\(id) is no suggestion any more; nothing was changed.")
            }
            var notice = EditNotice(lines: [
                "Not for us: “\(shown)” is never suggested again."
            ])
            var query = CharacterSet.alphanumerics
            query.insert(charactersIn: "-._~/")
            let undo = "/night/not-for-us/undo?back=" + (back.addingPercentEncoding(withAllowedCharacters: query) ?? "")
            notice.adds = [AddChoice(action: undo, movie: "tmdb:\(id)", label: "Undo")]
            return notice
        } catch {
            return failed(error)
        }
    }

    /// The Undo of "Not for us": the movie may be suggested again.
    func takeBackNotForUs(movie text: String) async -> EditNotice {
        guard case .tmdb(let id)? = try? MovieReference.parse(text) else {
            return .error("“\(text)” does not name a suggestion; nothing was changed.")
        }
        do {
            guard let title = try await blocking({ try self.editor().store.unhideSuggestion(remoteId: id) }) else {
                return .error("tmdb:\(id) was not hidden (already taken back?); nothing was changed.")
            }
            return EditNotice(lines: ["Took back “not for us”: “\(title)” may be suggested again."])
        } catch {
            return failed(error)
        }
    }
}
