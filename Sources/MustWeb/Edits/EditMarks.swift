import Foundation
import MustCore

/// The cards' controls: watched today, not watched after all, and the member's own rating, through the same
/// `MovieEditor` steps as `mustc watched` (and `--undo`, `--rating`).
extension WebEdits {
    /// Today, in the zone the pages write times in.
    var today: WatchDay {
        WatchDay.of(time.now(), in: config.serve.timeZone.flatMap(TimeZone.init(identifier:)) ?? .current)
    }

    func watched(member: String, movie text: String, undo: Bool) async -> EditNotice {
        guard let reference = try? MovieReference.parse(text) else {
            return .error("“\(text)” does not name a movie; nothing was changed.")
        }
        let day = today
        do {
            let outcome = try await blocking {
                let editor = try self.editor()
                return undo
                    ? try editor.unwatched(member: member, [reference])
                    : try editor.watched(member: member, [reference], mark: WatchMark(watched: true, on: day))
            }
            return Self.told(outcome, reference) { member, movie in
                undo
                    ? (movie.changed
                        ? "\(member) has not watched “\(movie.movie.shown)” after all."
                        : "\(member) had not marked “\(movie.movie.shown)” watched; nothing changed.")
                    : "\(member) watched “\(movie.movie.shown)” today, \(Shown.day(day))."
            }
        } catch {
            return failed(error)
        }
    }

    /// The member's own rating, 1–10; a movie not marked watched yet is marked watched today, one already watched
    /// keeps its day.
    func rate(member: String, movie text: String, rating: String) async -> EditNotice {
        guard let reference = try? MovieReference.parse(text) else {
            return .error("“\(text)” does not name a movie; nothing was changed.")
        }
        guard let value = OwnRating.outOfTen(rating) else {
            return .error("A rating is a whole number from 1 to 10; nothing was changed.")
        }
        let day = today
        do {
            let outcome = try await blocking {
                try self.editor().watched(
                    member: member, [reference], mark: WatchMark(watched: true, on: day, rating: value),
                    keepingDay: true)
            }
            return Self.told(outcome, reference) { member, movie in
                "\(member) rated “\(movie.movie.shown)” \(value)/10."
            }
        } catch {
            return failed(error)
        }
    }

    private static func told(
        _ outcome: WatchOutcome, _ reference: MovieReference, _ line: (String, WatchedMovie) -> String
    ) -> EditNotice {
        switch outcome {
        case .unknownMember: return .error("There is no such member; nothing was changed.")
        case .unknownMovie: return .error("There is no movie “\(reference)”; nothing was changed.")
        case .ambiguous(_, let movies):
            return .error("\(movies.count) movies are named “\(reference)”; nothing was changed.")
        case .done(let member, let movies):
            return EditNotice(lines: movies.map { line(member, $0) })
        }
    }
}
