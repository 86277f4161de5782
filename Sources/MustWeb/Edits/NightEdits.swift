import Foundation
import Hummingbird
import MustCore

/// "We're watching this" and its Undo: one POST records the night through `MovieEditor`, as
/// `mustc night` does, and the notice on the page it returns to carries the Undo, which takes back exactly what
/// the POST wrote.
enum NightEditRoutes {
    static func register(on router: Router<PageContext>, edits: WebEdits, pages: EditPages) {
        router.post("/night/watching") { request, _ in
            try await EditRoutes.guarded(request, pages, may: { _ in .nights }) { form, token in
                // The watchers come as w0, w1, …: the form carries the members ticked when the picks were made.
                let watchers = (0..<100).compactMap { form["w\($0)"] }.filter { !$0.isEmpty }
                let back = EditRoutes.sitePath(form["back"] ?? "/night")
                let notice = await edits.night(movie: form["movie"] ?? "", members: watchers, back: back)
                return edits.redirect(notice, token, to: back)
            }
        }
        router.post("/nights/:id/undo") { request, context in
            let id = Int64(try context.decoded("id"))
            return try await EditRoutes.guarded(request, pages, may: { _ in .nights }) { form, token in
                let notice = await edits.undoNight(id: id)
                return edits.redirect(notice, token, to: EditRoutes.sitePath(form["back"] ?? "/night"))
            }
        }
    }
}

extension WebEdits {
    /// Records tonight's night: every watcher marked watched today, the night kept; the notice has the Undo,
    /// which returns to `back`, the evening the night was recorded from (the same watchers and choices). `shown`
    /// names the movie when the library's title is still its id (a suggestion TMDB was not asked about yet);
    /// `linkedFor`, the watchers whose link was just made for the night, which its Undo takes back too.
    func night(
        movie text: String, members: [String], back: String, shown: String? = nil, linkedFor: [String] = []
    ) async -> EditNotice {
        guard let reference = try? MovieReference.parse(text) else {
            return .error("“\(text)” does not name a movie; nothing was changed.")
        }
        guard !members.isEmpty else { return .error("Tick who is watching first; nothing was changed.") }
        let day = today
        do {
            let outcome = try await blocking {
                try self.editor().night(reference, members: members, on: day, linkedFor: linkedFor)
            }
            switch outcome {
            case .unknownMembers(let names):
                return .error(
                    "There is no member \(names.map { "“\($0)”" }.joined(separator: ", ")); nothing was changed.")
            case .unknownMovie: return .error("There is no movie “\(reference)”; nothing was changed.")
            case .ambiguous(_, let movies):
                return .error("\(movies.count) movies are named “\(reference)”; nothing was changed.")
            case .recorded(let night):
                let title = night.movie.title == reference.description ? shown ?? night.movie.shown : night.movie.shown
                var notice = EditNotice(lines: [
                    "Movie night: “\(title)” today, \(Shown.day(night.day)), with "
                        + "\(MovieNight.names(night.watchers.map(\.name))). Each is marked watched; the family page "
                        + "asks how it was."
                ])
                notice.adds = [
                    AddChoice(action: "/nights/\(night.id)/undo", movie: String(night.id), label: "Undo", back: back)
                ]
                return notice
            }
        } catch {
            return failed(error)
        }
    }

    /// Takes a night back, as `mustc night --undo` does, while its day lasts (in the pages' zone): the page's Undo
    /// mends a tap just made, and a night of an earlier day has had its ratings asked for since.
    func undoNight(id: Int64?) async -> EditNotice {
        guard let id else { return .error("That is no movie night; nothing was changed.") }
        let day = today
        do {
            let editor = try await blocking { try self.editor() }
            guard let kept = try await blocking({ try editor.store.night(id: id) }) else {
                return .error("That movie night is not recorded (already undone?); nothing was changed.")
            }
            guard kept.day == day else {
                return .error(
                    "The movie night of “\(kept.movie.shown)” was on \(Shown.day(kept.day)); a night can be taken "
                        + "back only on its day. Nothing was changed.")
            }
            guard let night = try await blocking({ try editor.undoNight(id: id) }) else {
                return .error("That movie night is not recorded (already undone?); nothing was changed.")
            }
            // A suggestion watched before TMDB was asked still has its id for a title: named as its card was.
            var title = night.movie.shown
            if let remoteId = night.movie.remoteId, night.movie.title == "tmdb:\(remoteId)",
                let known = try await blocking({ try editor.store.suggestionShown(remoteId: remoteId) })
            {
                title = known
            }
            return EditNotice(lines: [
                "Took back the movie night of “\(title)” with "
                    + "\(MovieNight.names(night.watchers.map(\.name))): every mark is as it was before it."
            ])
        } catch {
            return failed(error)
        }
    }
}
