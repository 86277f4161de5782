import Foundation
import MustCore

/// One card of /night's "Something new" row, in the form of a pick's: poster, title and year, runtime ·
/// certification · genres, the start of the overview, where it streams for the family, and why; signed in, "We're
/// watching this" (on every watcher's list, and the night recorded), "Add to …" for each watcher (the member page's
/// add) and "Not for us".
struct SuggestionCard: Sendable {
    /// One watcher's "Add to …": the same POST as the member page's "Add a movie", back to this page.
    struct Add: Sendable {
        var action: String
        var member: String
    }

    /// The hidden fields of the card's forms, and one "Add to …" per watcher.
    struct Edit: Sendable {
        var csrf = EditSlot.csrf
        var movie: String
        var back: String
        var adds: [Add]
        /// "We're watching this": the members ticked, as a pick's button sends them.
        var watchers: [NightPage.Watch.Field]
    }

    var id: String
    var title: String
    var year: String?
    /// The movie on TMDB: it is on nobody's list, so it has no page here.
    var href: String
    var poster: PosterView
    var facts: String?
    var overview: String?
    var whereText: String?
    var why: String
    var edit: Edit?

    /// `back` is this page's address when signed in (nil: no buttons).
    init(_ suggestion: Suggestion, rank: Int, watchers: [String], where place: NightWhere, back: String?) {
        let movie = suggestion.candidate
        let shown = MovieName.shown(movie.title, movie.year)
        let facts =
            [movie.runtime.map(NightFilters.minutes), movie.certification].compactMap { $0 }
            + (movie.genres.isEmpty ? [] : [movie.genres.joined(separator: ", ")])
        id = "new-\(rank)"
        title = Shown.text(movie.title)
        year = movie.year.map(String.init)
        href = "https://www.themoviedb.org/movie/\(movie.remoteId)"
        poster = PosterView(posterPath: movie.posterPath, title: Shown.text(shown))
        self.facts = facts.isEmpty ? nil : Shown.text(facts.joined(separator: " · "))
        overview = movie.overview.map { Shown.text(NightPage.excerpt($0)) }
        whereText = place.kind == .unknown ? nil : Shown.text(place.text)
        why = Shown.text(Self.reason(suggestion))
        edit = back.map { back in
            Edit(
                movie: MovieReference.tmdb(movie.remoteId).description, back: back,
                // "Add to …" only for the lists this viewer may change: a grown-up's own, or any for the password.
                adds: watchers.filter { Viewer.current.access?.mayEdit(member: $0) ?? true }.map {
                    Add(action: WebPath.member($0) + "/movies", member: Shown.text($0))
                },
                watchers: watchers.enumerated().map { NightPage.Watch.Field(name: "w\($0.offset)", value: $0.element) })
        }
    }

    /// "Because Claire loved Spirited Away (9) and Sofia loved My Neighbor Totoro (10) · 8.5 from 4k votes · Claire
    /// rates animation higher than usual (9 films, +0.6)".
    static func reason(_ suggestion: Suggestion) -> String {
        let because = Suggestions.because(suggestion.because)
        var parts = [because.prefix(1).uppercased() + because.dropFirst()]
        if let average = suggestion.candidate.voteAverage {
            parts.append("\(Shown.rating(average)) from \(Shown.votes(suggestion.candidate.voteCount))")
        }
        return (parts + suggestion.taste).joined(separator: " · ")
    }
}

extension NightPage {
    /// Fills the "Something new" row; with none, one quiet sentence says why (no seed yet, or nothing new that
    /// tonight's choices allow).
    mutating func suggest(
        _ report: SuggestReport, services: [String], region: String, back: String?
    ) {
        let matcher = ServiceMatcher(services)
        suggestions = report.suggestions.enumerated().map { index, suggestion in
            SuggestionCard(
                suggestion, rank: index + 1, watchers: report.members,
                where: NightWhere.of(suggestion.candidate.providers, services: matcher, region: region), back: back)
        }
        guard suggestions.isEmpty else { return suggestNote = nil }
        suggestNote =
            report.seedless
            ? "Something new comes from movies they loved: rate what they watch, and the fetch looks for more like it."
            : "Nothing new for them yet" + (report.filtered ? " that tonight's choices allow." : ".")
    }
}
