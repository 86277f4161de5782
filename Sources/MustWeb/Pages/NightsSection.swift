import Foundation
import MustCore

/// The family page's recent movie nights: for 7 days after a night, "Friday: Up, with Claire and Leo"
/// and the ratings given; signed in, "How was Up?" with a 1–10 choice and a button for each watcher who has not
/// rated it yet, through the cards' own rating form (a rating given any way counts the same), which comes back to
/// this night (its heading's id is the notice's card). The prompt goes when everyone has rated, and the night after
/// its 7 days. Signed in, a night of today has "Undo", the notice's Undo, until the day is over.
struct NightsSection: Sendable {
    struct Night: Sendable {
        /// The night's heading id (`n` and the night's id): where a rating's notice shows.
        var id: String
        var questionId: String
        var line: String
        var ratings: String?
        var question: String?
        var asks: [Ask]
        var undo: Undo?
    }

    /// One watcher's rating form.
    struct Ask: Sendable {
        var id: String
        var label: String
        var action: String
        var movie: String
        var card: String
        var csrf = EditSlot.csrf
        var options = OwnRating.range.map(String.init)
    }

    /// Today's night's Undo: the same POST as the notice's, back to the family page.
    struct Undo: Sendable {
        var action: String
        var csrf = EditSlot.csrf
    }

    static let days = 7
    var nights: [Night]

    /// `asking`: who is signed in. The family password alone asks every watcher; a profile asks only its member.
    init(_ records: [MovieNightRecord], today: WatchDay, asking access: PageAccess?) {
        let signedIn = access != nil
        let mine = { (name: String) in access?.profile.map { TitleKey.make($0.name) == TitleKey.make(name) } ?? true }
        nights = records.enumerated().map { index, night in
            let title = Shown.text(night.movie.title)
            let names = MovieNight.names(night.watchers.map { Shown.text($0.name) })
            let rated = night.watchers.filter { $0.rating != nil }
            let unrated = night.watchers.filter { $0.rating == nil && mine($0.name) }
            let reference =
                night.movie.remoteId.map { MovieReference.tmdb($0) }
                ?? .title(night.movie.title, year: night.movie.year)
            let card = "n\(night.id)"
            return Night(
                id: card, questionId: "night-\(index)",
                line: "\(Self.when(night.day, today: today)): \(title), with \(names)",
                ratings: rated.isEmpty
                    ? nil : rated.map { "\(Shown.text($0.name)) \($0.rating ?? 0)/10" }.joined(separator: ", "),
                question: signedIn && !unrated.isEmpty ? "How was \(title)?" : nil,
                asks: signedIn
                    ? unrated.enumerated().map { number, watcher in
                        Ask(
                            id: "night-\(index)-\(number)", label: Shown.text(watcher.name),
                            action: WebPath.member(watcher.name) + "/rating", movie: reference.description, card: card)
                    } : [],
                undo: access?.mayRecordNights == true && night.day == today
                    ? Undo(action: "/nights/\(night.id)/undo") : nil)
        }
    }

    /// "Today", "Yesterday", a weekday within the week ("Friday"), else the day ("20 Nov 2026").
    static func when(_ day: WatchDay, today: WatchDay) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parse = { (text: String) -> Date? in
            let parts = text.split(separator: "-").compactMap { Int($0) }
            guard parts.count == 3 else { return nil }
            return calendar.date(from: DateComponents(year: parts[0], month: parts[1], day: parts[2]))
        }
        guard let then = parse(day.text), let now = parse(today.text),
            let apart = calendar.dateComponents([.day], from: then, to: now).day
        else { return Shown.day(day) }
        switch apart {
        case 0: return "Today"
        case 1: return "Yesterday"
        case 2..<7: return calendar.weekdaySymbols[calendar.component(.weekday, from: then) - 1]
        default: return Shown.day(day)
        }
    }

    static let template = """
        <section aria-labelledby="nights-heading">
        <h2 id="nights-heading">Movie nights</h2>
        <ul class="nights">
        {{#nights}}<li><h3 id="{{id}}"><bdi>{{line}}</bdi></h3>{{#undo}}<form class="undo-night" method="post" action="{{action}}"><input type="hidden" name="csrf" value="{{csrf}}"><input type="hidden" name="back" value="/"><button type="submit" class="button" aria-describedby="{{id}}">Undo</button></form>{{/undo}}{{#ratings}}<p class="ratings"><bdi>{{ratings}}</bdi></p>{{/ratings}}
        {{#question}}<p id="{{questionId}}"><bdi>{{question}}</bdi></p>{{#asks}}<form class="rate-night" method="post" action="{{action}}"><input type="hidden" name="csrf" value="{{csrf}}"><input type="hidden" name="movie" value="{{movie}}"><input type="hidden" name="back" value="/"><input type="hidden" name="card" value="{{card}}"><label for="{{id}}"><bdi>{{label}}</bdi></label> <select id="{{id}}" name="rating" required><option value="">–</option>{{#options}}<option>{{.}}</option>{{/options}}</select> <button type="submit" aria-describedby="{{questionId}}">Rate</button></form>{{/asks}}{{/question}}</li>
        {{/nights}}
        </ul>
        </section>
        """
}
