import Foundation
import Hummingbird
import MustCore

/// /night's "Not for us" (issue 34): the family's "not for us", the same row as `mustc suggest --hide`, which
/// `mustc suggest --forget` clears. ("Add to …" is the member page's add, `POST /members/{name}/movies`.)
enum SuggestionEditRoutes {
    static func register(on router: Router<PageContext>, edits: WebEdits, pages: EditPages) {
        router.post("/night/not-for-us") { request, _ in
            try await EditRoutes.guarded(request, pages) { form, token in
                let notice = await edits.notForUs(movie: form["movie"] ?? "")
                return edits.redirect(notice, token, to: EditRoutes.sitePath(form["back"] ?? "/night"))
            }
        }
    }
}

extension WebEdits {
    /// Hides the suggestion from the family's suggestions, for every member and every later fetch.
    func notForUs(movie text: String) async -> EditNotice {
        guard case .tmdb(let id)? = try? MovieReference.parse(text) else {
            return .error("“\(text)” does not name a suggestion; nothing was changed.")
        }
        let now = time.now()
        do {
            let hidden = try await blocking { try self.editor().store.hideSuggestion(.tmdb(id), now: now) }
            guard let shown = hidden.first else {
                return .error("tmdb:\(id) is no suggestion any more; nothing was changed.")
            }
            return EditNotice(lines: [
                "Not for us: “\(shown)” is never suggested again. `mustc suggest --forget` takes every “not for us” "
                    + "back."
            ])
        } catch {
            return failed(error)
        }
    }
}
