import Foundation
import MustCore
import Testing

@testable import MustWeb

/// The posters' contract with the templates: addresses on this server only, sizes set, the placeholder otherwise.
@Suite struct PosterViewTests {
    @Test func aListPosterComesFromThisServerWithItsDenseScreenSource() {
        let poster = PosterView(posterPath: "/abc_D-9.jpg", title: "Dune (2021)")
        #expect(poster.src == "/posters/w185/abc_D-9.jpg")
        #expect(poster.srcset == "/posters/w342/abc_D-9.jpg 2x")
        #expect((poster.width, poster.height) == (120, 180) && !poster.placeholder)
        #expect(poster.alt == "Poster of Dune (2021)")
    }

    @Test func theMoviePageShowsW342() {
        let poster = PosterView(posterPath: "/abc.png", title: "Up", place: .page)
        #expect(poster.src == "/posters/w342/abc.png" && poster.srcset == nil)
        #expect((poster.width, poster.height) == (342, 513))
    }

    @Test(arguments: [nil, "/../../etc/passwd", "http://elsewhere/x.jpg", "/x.svg"])
    func anythingButAKeptPathIsThePlaceholder(_ path: String?) {
        let poster = PosterView(posterPath: path, title: "Up")
        #expect(poster.placeholder && poster.src == nil && poster.srcset == nil)
        #expect(poster.title == "Up")
    }

    @Test func theMemberPageDrawsPostersLazilyAndPlaceholdersWithTitles() throws {
        var withPoster = PageTests.movie("Amélie", rating: 7.9)
        withPoster.posterPath = "/amelie.jpg"
        let without = PageTests.movie(PageTests.hostile, rating: 6)
        let member = MemberRatings(name: "Ann", movies: [withPoster, without])
        let page = try #require(
            try Site().library.render(
                MemberPage(member: member, query: MemberQuery(), prior: nil, edit: nil), withTemplate: "member"))
        #expect(
            page.contains(
                #"<img class="poster" src="/posters/w185/amelie.jpg" srcset="/posters/w342/amelie.jpg 2x" "#
                    + #"width="120" height="180" alt="Poster of Amélie (2001)" loading="lazy""#))
        #expect(page.components(separatedBy: "<img").count == 2, "one image; the other movie has none")
        #expect(page.contains(#"<span class="poster placeholder" role="img" aria-label="Poster of &lt;img"#))
        #expect(page.contains(#"data-title="&lt;img src=x onerror=alert(1)&gt; &quot;quoted&quot;"#))
        #expect(!page.contains("image.tmdb.org") && !page.contains("style="))
        #expect(page.contains("<footer><p>\(MustcVersion.tmdbNotice)</p></footer>"))
    }
}
