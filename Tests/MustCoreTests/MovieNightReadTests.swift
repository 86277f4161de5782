import Foundation
import MustCore
import TMDBStub
import Testing

/// `Store.movieNight` reads each fact of the candidates in one statement over the members' links, not
/// one statement a candidate: each candidate still gets its own trend, tonight's facts and offers, and a movie read
/// for another region shows neither that region's certification nor its offers.
@Suite struct MovieNightReadTests {
    let scratch = TemporaryDirectory("movie-night-read")

    let netflix = ProviderOffer(kind: .flatrate, id: 8, name: "Netflix")
    let plex = ProviderOffer(kind: .free, id: 538, name: "Plex")
    let apple = ProviderOffer(kind: .rent, id: 2, name: "Apple TV")

    /// Movie 1 (Ann and Bob) rose from 7.0 to 7.5 this week; Movie 2 (Ann) did not move and was read for GB;
    /// Movie 3 (Bob) has no TMDB figures and no offer in the US.
    func library() throws -> Store {
        let store = try Store(path: scratch.file("mustc.sqlite"), logger: quietLogger)
        let start = testStart.addingTimeInterval(-3 * 86_400)
        var ids: [Int64] = []
        for (remoteId, average) in [(1, 7.0), (2, 6.0), (3, nil)] as [(Int, Double?)] {
            let link = try store.link(member: remoteId == 3 ? "Bob" : "Ann", movie: .tmdb(remoteId), now: start)
            ids.append(link.movieId)
            let remote = RemoteMovie(
                id: remoteId, title: "Movie \(remoteId)", voteAverage: average, voteCount: average.map { _ in 100 })
            _ = try store.resolve(movieId: link.movieId, with: remote, now: start)
        }
        _ = try store.link(member: "Bob", movie: .tmdb(1), now: start)
        let rose = RemoteMovie(id: 1, title: "Movie 1", voteAverage: 7.5, voteCount: 120)
        let writes: [MovieWrite] = [
            .ratings(movieId: ids[0], rose),
            .extras(
                movieId: ids[0],
                MovieExtras(
                    runtime: 100, genres: ["Comedy", "Family"], certification: .some("PG"),
                    providers: [apple, plex, netflix]),
                region: "US"),
            .extras(
                movieId: ids[1],
                MovieExtras(runtime: 90, genres: ["Drama"], certification: .some("15"), providers: [netflix]),
                region: "GB"),
            .extras(
                movieId: ids[2],
                MovieExtras(runtime: 120, genres: ["Horror"], certification: .some(nil), providers: []),
                region: "US"),
        ]
        #expect(try store.apply(writes, now: testStart).isEmpty)
        return store
    }

    @Test func eachCandidateCarriesItsOwnTrendFactsAndOffers() throws {
        let store = try library()
        let since = testStart.addingTimeInterval(-7 * 86_400)
        let night = try store.movieNight(members: ["Ann", "Bob"], trendSince: since, region: "US")
        let byTitle = Dictionary(uniqueKeysWithValues: night.candidates.map { ($0.title, $0) })
        #expect(byTitle.keys.sorted() == ["Movie 1", "Movie 2", "Movie 3"])
        let one = try #require(byTitle["Movie 1"])
        #expect(one.keptBy == ["Ann", "Bob"] && one.trend == 0.5)
        #expect(one.runtime == 100 && one.genres == ["Comedy", "Family"] && one.certification == "PG")
        // By kind (subscription, free, rent), then name: as the movie's page lists them.
        #expect(one.providers == [netflix, plex, apple])
        // Read for GB: its runtime and genres, but neither GB's certification nor its offers count in the US.
        let two = try #require(byTitle["Movie 2"])
        #expect(two.keptBy == ["Ann"] && two.trend == 0 && two.runtime == 90 && two.genres == ["Drama"])
        #expect(two.certification == nil && two.providers == nil)
        // Read for the US and offered nowhere: an empty list, not "never read"; no figures, so no trend.
        let three = try #require(byTitle["Movie 3"])
        #expect(three.keptBy == ["Bob"] && three.trend == nil && three.providers == [] && three.certification == nil)
    }

    @Test func withoutARegionNoneOfTonightsFactsAreRead() throws {
        let store = try library()
        let night = try store.movieNight(members: ["Bob"], trendSince: testStart.addingTimeInterval(-86_400))
        #expect(night.candidates.map(\.title).sorted() == ["Movie 1", "Movie 3"])
        #expect(night.candidates.allSatisfy { $0.runtime == nil && $0.genres.isEmpty && $0.providers == nil })
        // A window opening after the baseline starts from the change's "before" figure.
        #expect(night.candidates.first { $0.title == "Movie 1" }?.trend == 0.5)
    }
}
