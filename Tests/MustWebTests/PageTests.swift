import Foundation
import MustCore
import Testing

@testable import MustWeb

/// The view models and templates together, without a server: every text is escaped, addresses are encoded.
@Suite struct PageTests {
    static let hostile = "<img src=x onerror=alert(1)> \"quoted\" & 'single'"

    static func movie(_ title: String, year: Int? = 2001, rating: Double?, trend: Double? = nil) -> MovieRating {
        var movie = MovieRating(
            title: title, year: year, remoteId: 1, popularity: 1, voteAverage: rating, voteCount: 1234)
        movie.localId = 1
        if let rating {
            movie.trend = MovieTrend(
                since: Date(), popularity: 0, voteAverage: trend ?? 0, voteCount: 0)
            movie.trendVoteAverage = [rating - (trend ?? 0), rating]
        }
        return movie
    }

    @Test func aMemberPageEscapesEveryTextAndEncodesTheAddress() throws {
        let member = MemberRatings(name: "Zoë/" + Self.hostile, movies: [Self.movie(Self.hostile, rating: 7.5)])
        let html = try Site().library.render(
            MemberPage(member: member, sort: .title, window: "7d"), withTemplate: "member")
        let page = try #require(html)
        #expect(!page.contains("<img"))
        #expect(page.contains("&lt;img src=x onerror=alert(1)&gt; &quot;quoted&quot; &amp; &#39;single&#39;"))
        #expect(page.contains("href=\"/members/Zo%C3%AB%2F%3Cimg%20src%3Dx"))
        #expect(page.contains("aria-label=\"Rating over 7d: 7.5, 7.5\""))
        #expect(!page.contains("style="), "inline styles would break the policy")
    }

    @Test func sortingPutsUnknownFiguresLastAndKeepsTheStoreOrderOtherwise() {
        let movies = [
            Self.movie("A", year: nil, rating: nil), Self.movie("B", year: 1999, rating: 6, trend: -0.2),
            Self.movie("C", year: 2010, rating: 8, trend: 0.1), Self.movie("D", year: 1999, rating: 8, trend: 0.3),
        ]
        func titles(_ sort: MemberSort) -> [String] { sort.sorted(movies).map(\.title) }
        #expect(titles(.title) == ["A", "B", "C", "D"])
        #expect(titles(.year) == ["B", "D", "C", "A"])
        #expect(titles(.rating) == ["C", "D", "B", "A"])
        #expect(titles(.trend) == ["D", "C", "B", "A"])
    }

    @Test func aMoviePageHasAChartPerFigureWithItsFiguresAsText() throws {
        let start = Date(timeIntervalSince1970: 1_700_000_000)
        let history = [(7.9, 100), (8.0, 150), (8.2, 175)].enumerated().map { index, figures in
            DatedFigures(
                at: start.addingTimeInterval(Double(index) * 86400),
                figures: Figures(popularity: 10, voteAverage: figures.0, voteCount: figures.1))
        }
        let report = MovieReport(
            localId: 7, title: Self.hostile, year: 2009, remoteId: 14160, imdbId: "tt1049413\"><script>",
            figures: history.last!.figures, updatedAt: start, members: ["Ann"], lastCheckedAt: start,
            nextCheckAt: start, history: history)
        let page = try #require(try Site().library.render(MoviePage(report), withTemplate: "movie"))
        #expect(page.components(separatedBy: "<figure class=\"chart\">").count == 4)
        #expect(page.contains("Vote average: 7.9 8.0 8.2"))
        #expect(page.contains("Vote count: 100 150 175"))
        #expect(page.contains("https://www.themoviedb.org/movie/14160"))
        #expect(!page.contains("imdb.com"), "an IMDb id that is not tt and digits gets no link")
        #expect(!page.contains("<script"))
    }

    @Test func anErrorPageEscapesItsMessage() throws {
        let page = try #require(
            try Site().library.render(PageError.badRequest("since=\(Self.hostile) is bad"), withTemplate: "error"))
        #expect(page.contains("<h1>Bad request</h1>"))
        #expect(page.contains("since=&lt;img"))
    }
}
