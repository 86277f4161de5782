import Foundation
import Hummingbird
import MustCore

/// /night's "Not for us": the family's "not for us", the same row as `mustc suggest --hide`, which
/// `mustc suggest --forget` clears. ("Add to …" is the member page's add, `POST /members/{name}/movies`.)
enum SuggestionEditRoutes {
    static func register(on router: Router<PageContext>, edits: WebEdits, pages: EditPages) {
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
