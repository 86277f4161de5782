import Foundation

/// The columns of a list that say what the member watched and thought: Letterboxd's `Watched Date` (diary) and
/// `Rating` (0.5–5 stars; ratings and diary), IMDb's `Your Rating` (1–10) and `Date Rated`, mustc's `watched`,
/// `watchedOn` and `ownRating`.
struct MarkColumns: Sendable, Equatable {
    var format: ImportFormat = .csv
    var rating: Int?
    var day: Int?
    var watched: Int?
    /// Every row of this file is a movie the member watched: Letterboxd's watched, diary and ratings lists (a film
    /// rated or logged there is a film watched there).
    var everyRowWatched = false

    init() {}

    init(_ header: [String], format: ImportFormat, list: LetterboxdList?) {
        let names = header.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        func column(_ name: String) -> Int? { names.firstIndex(of: name.lowercased()) }
        self.format = format
        switch format {
        case .letterboxd:
            (rating, day) = (column("Rating"), column("Watched Date"))
            everyRowWatched = list?.everyRowWatched ?? (rating != nil || day != nil)
        case .imdb:
            (rating, day) = (column("Your Rating"), column("Date Rated"))
        case .csv:
            (rating, day, watched) = (column("ownRating"), column("watchedOn"), column("watched"))
        case .netflix, .trakt:
            // Their readers read the marks themselves.
            break
        }
    }

    /// The row's mark, and what could not be read (its day, after `today` or not a day, or its rating, which are
    /// then not taken).
    func read(_ field: (Int?) -> String, today: WatchDay) -> (WatchMark, String?) {
        var mark = WatchMark()
        var problems: [String] = []
        let (ratingText, dayText, watchedText) = (field(rating), field(day), field(watched).lowercased())
        if !ratingText.isEmpty {
            switch format {
            case .letterboxd:
                mark.rating = OwnRating.stars(ratingText)
                if mark.rating == nil { problems.append("a half star from 0.5 to 5", ratingText, "Rating") }
            case .imdb, .csv, .netflix, .trakt:
                mark.rating = OwnRating.outOfTen(ratingText)
                if mark.rating == nil {
                    let name = format == .imdb ? "Your Rating" : "ownRating"
                    problems.append("a whole number from 1 to 10", ratingText, name)
                }
            }
        }
        if !dayText.isEmpty {
            if let problem = WatchDay.problem(dayText, today: today) {
                problems.append("the watched day \(Excerpt.quoted(dayText)) \(problem); not taken")
            } else {
                mark.on = WatchDay.parse(dayText)
            }
        }
        // IMDb's ratings export: a rated title is a watched one, on the day it was rated.
        mark.watched =
            everyRowWatched || ["true", "yes", "1"].contains(watchedText) || !dayText.isEmpty
            || (format == .imdb && !ratingText.isEmpty)
        return (mark, problems.isEmpty ? nil : problems.joined(separator: "; "))
    }
}

extension [String] {
    fileprivate mutating func append(_ wanted: String, _ value: String, _ column: String) {
        append("the \(column) \(Excerpt.quoted(value)) is not \(wanted); not taken")
    }
}
