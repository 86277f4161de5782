import Foundation
import MustCore

/// `/night`: tick the members watching tonight and get `mustc pick`'s answer, from the same ranking
/// (`MovieNight` through `PickReport`). A plain GET form, so it works without JavaScript and can be bookmarked.
struct NightPage: Sendable {
    struct Choice: Sendable {
        /// The name as stored: the box's value, sent back as typed.
        var name: String
        /// The name as the page shows it (controls visible).
        var label: String
        var id: String
        var checked: Bool
    }

    /// A pick as a card: poster, title and year, runtime · certification · genres, the start of the
    /// overview, where it streams for the family, and why; signed in, "We're watching this".
    struct Pick: Sendable {
        var rank: Int
        var id: String
        var shown: String
        var title: String
        var year: String?
        var href: String?
        var poster: PosterView
        var facts: String?
        var overview: String?
        var whereText: String?
        var why: String
        /// Signed in: the form's fields.
        var watch: Watch?
    }

    /// The hidden fields of a card's "We're watching this": the movie, the members ticked, the page to return to.
    struct Watch: Sendable {
        struct Field: Sendable {
            var name: String
            var value: String
        }
        var csrf = EditSlot.csrf
        var movie: String
        var watchers: [Field]
        var back: String
    }

    /// One count of what tonight's choices left out, with the address that relaxes that choice alone.
    struct LeftOut: Sendable {
        var text: String
        var href: String?
    }

    struct Option: Sendable {
        var value: String
        var label: String
        var selected: Bool
    }

    static let count = 5
    /// Tonight's choices, as the form shows them again.
    var minutes: String = ""
    var ages: [Option] = []
    var genres: [Option] = []
    var streaming = false
    var hasServices = false
    var includeUnrated = false
    /// "Cleo's limit applies: PG." when the ticked members or the form set one.
    var limitNote: String?
    var title = "Movie night"
    var members: [Choice]
    var picks: [Pick]
    var includeWatched: Bool
    /// What the page says above the picks: who they are for, or what to do first.
    var heading: String?
    var note: String?
    /// "3 movies left out:", then each choice's count: said when the picks are fewer than the page shows.
    var leftOutLine: String?
    var leftOut: [LeftOut] = []
    /// "Something new": suggestions for the watchers under tonight's limits, or one quiet sentence.
    var suggestions: [SuggestionCard] = []
    var suggestNote: String?

    init(
        members all: [MemberSummary], chosen: [String], report: PickReport?, includeWatched: Bool,
        back: String? = nil
    ) {
        let ticked = Set(chosen.map(TitleKey.make))
        members = all.enumerated().map { index, member in
            Choice(
                name: member.name, label: Shown.text(member.name), id: "member-\(index)",
                checked: ticked.contains(TitleKey.make(member.name)))
        }
        self.includeWatched = includeWatched
        let watchers = report?.members ?? []
        picks =
            report?.picks.enumerated().map { index, pick in
                Self.card(pick, rank: index + 1, watchers: watchers, back: back)
            } ?? []
        if let report {
            heading = "Tonight for \(Shown.text(MovieNight.names(report.members))), best first"
            note = report.picks.isEmpty ? Self.emptyNote(report, includeWatched: includeWatched) : nil
        } else {
            note = all.isEmpty ? nil : "Tick who is watching, then Pick."
        }
    }

    /// Why there is no pick: tonight's choices, said with what they left out below; otherwise there is nothing
    /// left that nobody has watched (or, with watched ones included, nothing kept at all).
    static func emptyNote(_ report: PickReport, includeWatched: Bool) -> String {
        if report.leftOut.movies > 0 { return "Nothing to pick with tonight's choices." }
        return includeWatched
            ? "Nothing to pick: they keep no movie yet."
            : "Nothing left to pick: they have watched everything they keep."
    }

    /// What tonight's choices left out, when the picks are fewer than the page shows, each count with a link
    /// that relaxes that one choice.
    mutating func explain(_ report: PickReport, choices: NightChoices, includeWatched: Bool) {
        let left = report.leftOut
        guard left.movies > 0, report.picks.count < Self.count else { return }
        leftOutLine = left.summary + ":"
        leftOut = left.reasons.map { reason in
            LeftOut(
                text: Shown.text(left.phrase(reason)),
                href: choices.relaxed(reason, limit: left.limit).map {
                    $0.href(members: report.members, includeWatched: includeWatched)
                })
        }
    }

    static func card(_ pick: NightPick, rank: Int, watchers: [String], back: String?) -> Pick {
        let movie = pick.candidate
        let shown = MovieName.shown(movie.title, movie.year)
        let facts =
            [movie.runtime.map(NightFilters.minutes), movie.certification]
            .compactMap { $0 } + (movie.genres.isEmpty ? [] : [movie.genres.joined(separator: ", ")])
        let reference = movie.remoteId.map { MovieReference.tmdb($0) } ?? .title(movie.title, year: movie.year)
        return Pick(
            rank: rank, id: "pick-\(rank)", shown: Shown.text(shown), title: Shown.text(movie.title),
            year: movie.year.map(String.init),
            href: WebPath.movie(remoteId: movie.remoteId, localId: movie.movieId),
            poster: PosterView(posterPath: movie.posterPath, title: Shown.text(shown)),
            facts: facts.isEmpty ? nil : Shown.text(facts.joined(separator: " · ")),
            overview: movie.overview.map { Shown.text(Self.excerpt($0)) },
            whereText: pick.whereToWatch.map { Shown.text($0.text) }, why: Shown.text(Self.reason(pick)),
            watch: back.map { back in
                Watch(
                    movie: reference.description,
                    watchers: watchers.enumerated().map { Watch.Field(name: "w\($0.offset)", value: $0.element) },
                    back: back)
            })
    }

    /// The card's reason, written for people: "Ann and Bob keep it · 8.1 from 29.5k votes, up 0.2 this week ·
    /// Claire rates animation higher than usual (9 films, +0.6)". The command's reason keeps TMDB's figures as sent.
    static func reason(_ pick: NightPick) -> String {
        let movie = pick.candidate
        var parts = [MovieNight.names(movie.keptBy) + (movie.keptBy.count == 1 ? " keeps it" : " keep it")]
        if movie.isRated, let average = movie.voteAverage {
            var rating = "\(Shown.rating(average)) from \(Shown.votes(movie.voteCount))"
            if let move = Shown.Move(movie.trend), move.arrow != nil {
                rating += ", \(move.word) \(move.size) this week"
            }
            parts.append(rating)
        } else {
            parts.append(movie.voteAverage == nil ? "no TMDB figures yet" : "no votes on TMDB yet")
        }
        if !movie.watchedBy.isEmpty {
            parts.append(
                "\(MovieNight.names(movie.watchedBy)) \(movie.watchedBy.count == 1 ? "has" : "have") seen it")
        }
        return (parts + pick.taste).joined(separator: " · ")
    }

    /// About `limit` characters of `text`, cut after a whole word with "…"; the whole text when short enough.
    static func excerpt(_ text: String, limit: Int = 200) -> String {
        guard text.count > limit else { return text }
        let head = text.prefix(limit + 1)
        let cut = head.lastIndex(where: { $0 == " " }).map { head[..<$0] } ?? head.prefix(limit)
        let trimmed = cut.trimmingCharacters(in: .whitespaces.union(.punctuationCharacters))
        return (trimmed.isEmpty ? String(text.prefix(limit)) : trimmed) + "…"
    }

    mutating func offer(
        _ choices: NightChoices, genres seen: [String], certifications: [String], hasServices: Bool,
        applied: NightLimit?, limits: [String: String]
    ) {
        minutes = choices.minutes.map(String.init) ?? ""
        let wanted = Set(choices.genres.map(TitleKey.make))
        genres =
            [Option(value: "", label: "Any genre", selected: wanted.isEmpty)]
            + seen.map { Option(value: $0, label: Shown.text($0), selected: wanted.contains(TitleKey.make($0))) }
        let age = choices.age?.uppercased()
        ages =
            [Option(value: "", label: "The members' own", selected: age == nil)]
            + certifications.map { Option(value: $0, label: Shown.text($0), selected: $0.uppercased() == age) }
        streaming = choices.streaming
        self.hasServices = hasServices
        includeUnrated = choices.includeUnrated
        if let applied {
            limitNote = Shown.text(
                applied.line(ownLimits: limits) + ". Movies with no certification are "
                    + (includeUnrated ? "included." : "left out."))
        }
    }
}
