import Foundation
import MustCore

/// How a member's list is ordered: `?sort=` on the member page.
enum MemberSort: String, CaseIterable, Sendable {
    case best, title, year, rating, moved

    var label: String {
        switch self {
        case .best: "Best"
        case .title: "Title"
        case .year: "Year"
        case .rating: "Rating"
        case .moved: "Moved this week"
        }
    }

    /// `?sort=`; "trend" is the name earlier links used for "moved".
    init?(query: String?) {
        guard let query else {
            self = .best
            return
        }
        self.init(rawValue: query == "trend" ? "moved" : query)
    }

    /// Best is `pick`'s weighted rating (`MovieNight.weighted` over the library's prior), so 9.1 from 1,524 votes
    /// does not come before 8.4 from 30,000. Title keeps the store's order (folded title, year); the others put
    /// the unknown last, then that order. Year is newest first; moved is the biggest rise first.
    func sorted(_ movies: [MovieRating], prior: NightPrior?) -> [MovieRating] {
        guard self != .title else { return movies }
        func key(_ movie: MovieRating) -> Double? {
            switch self {
            case .title: nil
            case .best:
                movie.voteAverage.flatMap { average in
                    guard let votes = movie.voteCount, votes > 0 else { return nil }
                    return prior.map { -MovieNight.weighted(average: average, votes: votes, prior: $0) } ?? -average
                }
            case .year: movie.year.map { -Double($0) }
            case .rating: movie.voteAverage.map { -$0 }
            case .moved: movie.trend?.voteAverage.map { -$0 }
            }
        }
        let keyed = movies.enumerated().map { (offset: $0.offset, movie: $0.element, key: key($0.element)) }
        return keyed.sorted { lhs, rhs in
            switch (lhs.key, rhs.key) {
            case (let left?, let right?) where left != right: left < right
            case (.some, .none): true
            case (.none, .some): false
            default: lhs.offset < rhs.offset
            }
        }.map(\.movie)
    }
}

/// `?show=` on the member page.
enum MemberFilter: String, CaseIterable, Sendable {
    case all
    case unwatched = "not-watched"
    case watched

    var label: String {
        switch self {
        case .all: "All"
        case .unwatched: "Not watched"
        case .watched: "Watched"
        }
    }

    func keeps(_ movie: MovieRating) -> Bool {
        switch self {
        case .all: true
        case .unwatched: !movie.mark.watched
        case .watched: movie.mark.watched
        }
    }
}

/// What the member page was asked for: `?sort=&show=&q=&page=`.
struct MemberQuery: Sendable, Equatable {
    var sort = MemberSort.best
    var filter = MemberFilter.all
    var search = ""
    var page = 1

    static let perPage = 48

    /// The query's fields; a value that is not one of the choices is a 400 that names them.
    init(sort: String?, show: String?, q: String?, page: String?) throws {
        guard let order = MemberSort(query: sort) else {
            throw PageError.badRequest(
                "sort=\(Shown.text(sort ?? "")) is not a way to sort; use best, title, year, rating or moved.")
        }
        guard let filter = show.map(MemberFilter.init(rawValue:)) ?? .all else {
            throw PageError.badRequest(
                "show=\(Shown.text(show ?? "")) is not a choice; use all, not-watched or watched.")
        }
        guard let number = page.map({ Int($0) }) ?? 1, number >= 1 else {
            throw PageError.badRequest("page=\(Shown.text(page ?? "")) is not a page number; pages count from 1.")
        }
        (self.sort, self.filter, self.page) = (order, filter, number)
        search = String((q ?? "").trimmingCharacters(in: .whitespaces).prefix(200))
    }

    init() {}

    /// The address of this query on the member's page, with only what differs from the defaults.
    func href(_ base: String) -> String {
        var parts: [String] = []
        if sort != .best { parts.append("sort=\(sort.rawValue)") }
        if filter != .all { parts.append("show=\(filter.rawValue)") }
        if !search.isEmpty { parts.append("q=" + WebPath.queryEncoded(search)) }
        if page > 1 { parts.append("page=\(page)") }
        return parts.isEmpty ? base : base + "?" + parts.joined(separator: "&")
    }
}

/// `/members/{name}`: the member's movies as poster cards, best first, with a search, a filter, and 48 a page.
struct MemberPage: Sendable {
    struct Link: Sendable {
        var label: String
        var href: String
        var current: Bool
    }

    var title: String
    var name: String
    var count: String
    var showing: String?
    var search: String
    var sortValue: String
    var showValue: String
    /// "Sorted by best, showing all": the closed sort and filter choices' summary.
    var viewLine: String
    var sorts: [Link]
    var filters: [Link]
    var cards: [MovieCard]
    var previous: String?
    var next: String?
    var pageLine: String?
    var emptyNote: String?
    /// Signed in: the add field and each card's controls, posting with `csrf`.
    var edit: MemberEdit?

    init(member: MemberRatings, query: MemberQuery, prior: NightPrior?, edit: MemberEdit?) {
        let shownName = Shown.text(member.name)
        (title, name, self.edit) = (shownName, shownName, edit)
        let watched = member.movies.filter(\.mark.watched).count
        count = "\(Self.movies(member.movies.count)), \(watched) watched."
        let base = WebPath.member(member.name)
        (search, sortValue, showValue) = (Shown.text(query.search), query.sort.rawValue, query.filter.rawValue)
        sorts = MemberSort.allCases.map { sort in
            var link = query
            (link.sort, link.page) = (sort, 1)
            return Link(label: sort.label, href: link.href(base), current: sort == query.sort)
        }
        filters = MemberFilter.allCases.map { filter in
            var link = query
            (link.filter, link.page) = (filter, 1)
            return Link(label: filter.label, href: link.href(base), current: filter == query.filter)
        }
        viewLine = "Sorted by \(query.sort.label.lowercased()), showing \(query.filter.label.lowercased())"
        let key = TitleKey.make(query.search)
        let chosen = member.movies.filter { movie in
            query.filter.keeps(movie) && (key.isEmpty || TitleKey.make(movie.title).contains(key))
        }
        let pages = max(1, (chosen.count + MemberQuery.perPage - 1) / MemberQuery.perPage)
        let page = min(query.page, pages)
        let start = (page - 1) * MemberQuery.perPage
        let shown = query.sort.sorted(chosen, prior: prior).dropFirst(start).prefix(MemberQuery.perPage)
        let back = query.href(base)
        cards = shown.enumerated().map { index, movie in
            MovieCard(movie, index: start + index, member: member.name, edit: edit, back: back)
        }
        func at(_ number: Int) -> String {
            var link = query
            link.page = number
            return link.href(base)
        }
        previous = page > 1 ? at(page - 1) : nil
        next = page < pages ? at(page + 1) : nil
        pageLine = pages > 1 ? "Page \(page) of \(pages)" : nil
        if chosen.count != member.movies.count || pages > 1 {
            let range = chosen.isEmpty ? "" : "\(start + 1)–\(start + shown.count) of "
            showing =
                "Showing \(range)\(Self.movies(chosen.count))"
                + (query.filter == .all ? "" : ", \(query.filter.label.lowercased())")
                + (query.search.isEmpty ? "" : ", matching “\(Shown.text(query.search))”") + "."
        }
        if member.movies.isEmpty {
            emptyNote = "No movies on this list yet."
        } else if chosen.isEmpty {
            emptyNote = "No movie here matches; try another search or show all."
        }
    }

    static func movies(_ count: Int) -> String { count == 1 ? "1 movie" : "\(Charts.whole(Double(count))) movies" }
}

/// What a signed-in page's cards need to post: the form's token (a placeholder the server fills in for each
/// viewer, so one rendered page serves them all) and the member's form addresses.
struct MemberEdit: Sendable {
    var csrf: String
    var addAction: String
    var watchedAction: String
    var ratingAction: String
    var removeBase: String

    init(member: String) {
        csrf = EditSlot.csrf
        let base = WebPath.member(member)
        (addAction, watchedAction, ratingAction) = (base + "/movies", base + "/watched", base + "/rating")
        removeBase = base + "/remove?movie="
    }
}

/// Where a signed-in page's per-viewer parts go: the page is rendered once with this in place of the session's
/// CSRF token, kept like any other page, and the token is put in as the page is sent.
enum EditSlot {
    static let csrf = "\u{1}csrf\u{1}"
}

/// One movie on a member's page: poster, title and year, rating to one decimal with the week's move, votes for
/// people, the member's mark; signed in, the controls.
struct MovieCard: Sendable {
    struct Option: Sendable {
        var value: Int
        var selected: Bool
    }

    var id: String
    var title: String
    var year: String?
    var href: String?
    var poster: PosterView
    var rating: String
    var rated: Bool
    var move: Shown.Move?
    var votes: String
    var watched: String?
    var own: String?
    var spark: ChartLine?
    var sparkLabel: String
    // Signed in only.
    var reference: String
    var back: String
    var isWatched: Bool
    var removeHref: String
    var options: [Option]
    var edit: MemberEdit?

    init(_ movie: MovieRating, index: Int, member: String, edit: MemberEdit?, back: String) {
        id = "m\(index)"
        title = Shown.text(movie.title)
        year = movie.year.map(String.init)
        href = WebPath.movie(remoteId: movie.remoteId, localId: movie.localId)
        poster = PosterView(posterPath: movie.posterPath, title: Shown.text(movie.shown))
        rated = movie.voteAverage != nil
        rating = rated ? Shown.rating(movie.voteAverage) : "Not rated yet"
        move = rated ? Shown.Move(movie.trend?.voteAverage) : nil
        votes = rated ? Shown.votes(movie.voteCount) : ""
        let mark = movie.mark
        watched = mark.watched ? (mark.on.map { "Watched \(Shown.day($0))" } ?? "Watched") : nil
        own = mark.rating.map { "Rated \($0)/10" }
        // The week's figures, or the current rating alone when nothing moved; the same 0.5 floor as the charts.
        let series = movie.trendVoteAverage.isEmpty ? [movie.voteAverage] : movie.trendVoteAverage
        spark = Charts.sparkline(series, width: 64, height: 16, floor: MoviePage.ratingFloor, format: Charts.oneDecimal)
        sparkLabel = spark.map { "Rating this week: " + $0.figures.joined(separator: ", ") } ?? ""
        let named = movie.remoteId.map { MovieReference.tmdb($0) } ?? .title(movie.title, year: movie.year)
        reference = named.description
        // A mark or a rating comes back to the same order and page, its notice beside this card (the forms send
        // its id); a removal to the same list, where the notice opens the page.
        self.back = back
        isWatched = mark.watched
        self.edit = edit
        removeHref =
            (edit?.removeBase ?? "") + WebPath.queryEncoded(named.description) + "&back=" + WebPath.queryEncoded(back)
        options = edit == nil ? [] : OwnRating.range.map { Option(value: $0, selected: $0 == mark.rating) }
    }
}
