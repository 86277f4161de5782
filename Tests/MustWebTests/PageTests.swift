import Foundation
import MustCore
import Testing

@testable import MustWeb

/// The view models and templates together, without a server: every text is escaped, addresses are encoded,
/// figures are written for people.
@Suite struct PageTests {
    static let hostile = "<img src=x onerror=alert(1)> \"quoted\" & 'single'"
    static let time = TimeText(zone: TimeZone(identifier: "UTC")!, now: Date(timeIntervalSince1970: 1_700_000_000))

    static func movie(
        _ title: String, year: Int? = 2001, rating: Double?, votes: Int = 1234, trend: Double? = nil,
        watched: Bool = false
    ) -> MovieRating {
        var movie = MovieRating(
            title: title, year: year, remoteId: 1, popularity: 1, voteAverage: rating, voteCount: votes)
        movie.localId = 1
        if let rating {
            movie.trend = MovieTrend(
                since: Date(), popularity: 0, voteAverage: trend ?? 0, voteCount: 0)
            movie.trendVoteAverage = [rating - (trend ?? 0), rating]
        }
        movie.mark = WatchMark(watched: watched)
        return movie
    }

    static func render(_ member: MemberRatings, _ query: MemberQuery = MemberQuery(), edit: Bool = false) throws
        -> String
    {
        let page = MemberPage(
            member: member, query: query, prior: nil, edit: edit ? MemberEdit(member: member.name) : nil)
        return try #require(try Site().library.render(page, withTemplate: "member"))
    }

    @Test func aMemberPageEscapesEveryTextAndEncodesTheAddress() throws {
        let member = MemberRatings(name: "Zoë/" + Self.hostile, movies: [Self.movie(Self.hostile, rating: 7.5)])
        let page = try Self.render(member, edit: true)
        #expect(!page.contains("<img"))
        #expect(page.contains("&lt;img src=x onerror=alert(1)&gt; &quot;quoted&quot; &amp; &#39;single&#39;"))
        #expect(page.contains("action=\"/members/Zo%C3%AB%2F%3Cimg%20src%3Dx"))
        #expect(page.contains("aria-label=\"Rating this week: 7.5, 7.5\""))
        #expect(!page.contains("style="), "inline styles would break the policy")
    }

    @Test func textDirectionControlsShowAsEscapesInsideBdi() throws {
        let title = "Evil\u{202E}gnp.exe"
        let member = MemberRatings(name: "Ann\u{202E}", movies: [Self.movie(title, rating: 7.5)])
        let page = try Self.render(member)
        #expect(!page.unicodeScalars.contains { $0.value == 0x202E })
        #expect(page.contains("<bdi>Evil\\u202Egnp.exe</bdi>"))
        #expect(page.contains("<h1><bdi>Ann\\u202E</bdi></h1>"))
    }

    @Test func cardsWriteFiguresForPeople() throws {
        let member = MemberRatings(
            name: "Ann",
            movies: [
                Self.movie("Up", rating: 8.237, votes: 19_650, trend: 0.25),
                Self.movie("Flat", rating: 7.1, votes: 850, trend: 0.001),
            ])
        let page = try Self.render(member)
        #expect(page.contains("<span class=\"rating\">8.2</span>"))
        // 19,650 is 19.65 thousand: to one decimal, half away from zero as every figure on the page, 19.7k.
        #expect(page.contains("19.7k votes"), "\(page)")
        #expect(page.contains("▲</span><span class=\"vh\">up</span> 0.3"), "\(page)")
        #expect(page.contains("<span class=\"move \">steady</span>"))
        #expect(page.contains("850 votes"))
        #expect(!page.contains("Popularity"))
        #expect(page.contains("2 movies, 0 watched."))
    }

    @Test func votesAndMovesReadAsPeopleSayThem() {
        #expect(Shown.votes(1) == "1 vote")
        #expect(Shown.votes(999) == "999 votes")
        // One decimal, half away from zero, as the page writes ratings (8.25 reads 8.3): 19.65k is 19.7k, 1.25M
        // is 1.3M, and a move of -0.05 is -0.1, "down 0.1"; only a move that rounds to 0.0 is steady (docs/page.md).
        #expect(Shown.votes(19_650) == "19.7k votes")
        #expect(Shown.votes(1_000) == "1k votes")
        #expect(Shown.votes(196_400) == "196k votes")
        #expect(Shown.votes(1_250_000) == "1.3M votes")
        #expect(Shown.Move(0.001)?.words == "steady")
        #expect(Shown.Move(-0.049)?.words == "steady")
        #expect(Shown.Move(-0.05)?.words == "down 0.1")
        #expect(Shown.Move(0.05)?.words == "up 0.1")
        #expect(Charts.oneDecimal(8.25) == "8.3")
        #expect(Shown.Move(0.3)?.words == "up 0.3")
        #expect(Shown.Move(nil) == nil)
    }

    @Test func sortingPutsUnknownFiguresLastAndBestIsPicksWeightedRating() {
        let movies = [
            Self.movie("A", year: nil, rating: nil), Self.movie("B", year: 1999, rating: 6, trend: -0.2),
            Self.movie("C", year: 2010, rating: 8, trend: 0.1), Self.movie("D", year: 1999, rating: 8, trend: 0.3),
            Self.movie("E", year: 2020, rating: 9.1, votes: 15, trend: 0),
        ]
        func titles(_ sort: MemberSort) -> [String] {
            sort.sorted(movies, prior: NightPrior(mean: 7, votes: 1234, movies: 5)).map(\.title)
        }
        #expect(titles(.title) == ["A", "B", "C", "D", "E"])
        #expect(titles(.year) == ["E", "C", "B", "D", "A"])
        #expect(titles(.rating) == ["E", "C", "D", "B", "A"])
        #expect(titles(.moved) == ["D", "C", "E", "B", "A"])
        // 9.1 from 15 votes weighs little against 8 from 1,234: pick's order.
        #expect(titles(.best) == ["C", "D", "E", "B", "A"])
    }

    @Test func aSearchFiltersAndPagesAt48() throws {
        let movies =
            (1...100).map { Self.movie("Film \($0)", rating: 7, watched: $0 % 2 == 0) }
            + [Self.movie("Amélie", rating: 8)]
        let member = MemberRatings(name: "Ann", movies: movies)
        var query = try MemberQuery(sort: "title", show: nil, q: nil, page: "2")
        var page = MemberPage(member: member, query: query, prior: nil, edit: nil)
        #expect(page.cards.count == 48)
        #expect(page.previous == "/members/Ann?sort=title")
        #expect(page.next == "/members/Ann?sort=title&page=3")
        #expect(page.count == "101 movies, 50 watched.")
        query = try MemberQuery(sort: nil, show: "not-watched", q: "AMELIE", page: nil)
        page = MemberPage(member: member, query: query, prior: nil, edit: nil)
        #expect(page.cards.map(\.title) == ["Amélie"])
        #expect(throws: PageError.self) { try MemberQuery(sort: "popularity", show: nil, q: nil, page: nil) }
        #expect(throws: PageError.self) { try MemberQuery(sort: nil, show: nil, q: nil, page: "0") }
    }

    @Test func aMoviePageHasAChartPerFigureWithItsFiguresInAClosedDetails() throws {
        let start = Date(timeIntervalSince1970: 1_700_000_000)
        let history = [(7.9, 100), (8.0, 150), (8.2, 175)].enumerated().map { index, figures in
            DatedFigures(
                at: start.addingTimeInterval(Double(index) * 86400),
                figures: Figures(popularity: 10, voteAverage: figures.0, voteCount: figures.1))
        }
        var report = MovieReport(
            localId: 7, title: Self.hostile, year: 2009, remoteId: 14160, imdbId: "tt1049413\"><script>",
            figures: history.last!.figures, updatedAt: start, members: ["Ann"], lastCheckedAt: start,
            nextCheckAt: start, history: history)
        report.marks = [WatchMark(watched: true, on: WatchDay.parse("2026-11-01"), rating: 9)]
        let page = try #require(
            try Site().library.render(MoviePage(report, time: Self.time), withTemplate: "movie"))
        #expect(page.components(separatedBy: "<figure class=\"chart\">").count == 4)
        #expect(page.contains("<summary>Rating: the figures</summary><p class=\"figures-text\">7.9 8.0 8.2 </p>"))
        #expect(page.contains("<details><summary>Votes: the figures</summary><p class=\"figures-text\">100 150 175"))
        #expect(!page.contains("<details open"))
        #expect(page.contains("<span>14 Nov</span><span>15 Nov</span><span>16 Nov</span>"), "\(page)")
        #expect(page.contains("watched 1 Nov 2026, rated 9/10"))
        #expect(page.contains("TMDB popularity"))
        #expect(page.contains("https://www.themoviedb.org/movie/14160"))
        #expect(!page.contains("imdb.com"), "an IMDb id that is not tt and digits gets no link")
        #expect(!page.contains("<script"))
    }

    @Test func aSmallMoveStaysFlatWithinTheFloor() throws {
        let line = try #require(Charts.sparkline([8.0, 7.999, 8.0], floor: MoviePage.ratingFloor))
        let ys = line.points.split(separator: " ").map { Double($0.split(separator: ",")[1])! }
        #expect(ys.max()! - ys.min()! < 0.1, "\(line.points)")
        #expect(Charts.range([8.0, 7.999], floor: 0.5).high - Charts.range([8.0, 7.999], floor: 0.5).low == 0.5)
    }

    @Test func timesReadInTheServersZoneWithWords() {
        let zone = TimeZone(identifier: "Europe/Berlin")!
        let now = Date(timeIntervalSince1970: 1_764_080_000)
        let time = TimeText(zone: zone, now: now)
        #expect(time.time(Date(timeIntervalSince1970: 1_764_079_200)) == "25 Nov 2025, 15:00")
        #expect(time.ago(now.addingTimeInterval(-12 * 60)) == "12 minutes ago")
        #expect(time.until(now.addingTimeInterval(3 * 3600 + 100)) == "in 3 hours")
        #expect(time.ago(now) == "just now")
    }

    @Test func anErrorPageEscapesItsMessageAndHasATitle() throws {
        let page = try #require(
            try Site().library.render(PageError.badRequest("since=\(Self.hostile) is bad"), withTemplate: "error"))
        #expect(page.contains("<h1>Bad request</h1>"))
        #expect(page.contains("<title>Bad request · mustc</title>"))
        #expect(page.contains("since=&lt;img"))
    }
}
