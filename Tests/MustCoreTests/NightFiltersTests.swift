import Foundation
import MustCore
import Testing

/// Tonight's filters over plain rows: the strictest limit, unrated movies, services by id or name, genres, runtime.
@Suite struct NightFiltersTests {
    static let us = [
        RegionCertification(certification: "R", order: 4), RegionCertification(certification: "NR", order: 0),
        RegionCertification(certification: "G", order: 1), RegionCertification(certification: "PG-13", order: 3),
        RegionCertification(certification: "PG", order: 2),
    ]

    static func movie(
        _ id: Int64, _ title: String, runtime: Int?, certification: String?, genres: [String] = [],
        providers: [ProviderOffer]? = nil
    ) -> NightCandidate {
        var candidate = NightCandidate(
            movieId: id, title: title, voteAverage: 7, voteCount: 100 + Int(id), keptBy: ["Ann"])
        (candidate.runtime, candidate.certification, candidate.genres) = (runtime, certification, genres)
        candidate.providers = providers
        return candidate
    }

    static var library: NightLibrary {
        var library = NightLibrary(
            members: ["Ann", "Cleo"],
            candidates: [
                movie(
                    1, "Gentle", runtime: 95, certification: "G", genres: ["Family"],
                    providers: [ProviderOffer(kind: .flatrate, id: 8, name: "Netflix")]),
                movie(
                    2, "Rough", runtime: 120, certification: "R", genres: ["Horror"],
                    providers: [ProviderOffer(kind: .rent, id: 8, name: "Netflix")]),
                movie(3, "Unrated", runtime: nil, certification: nil, genres: ["Drama"]),
                movie(
                    4, "Not Rated", runtime: 80, certification: "NR",
                    providers: [ProviderOffer(kind: .ads, id: 207, name: "The Roku Channel")]),
            ], prior: NightPrior(mean: 7, votes: 100, movies: 4))
        library.certifications = us
        return library
    }

    func titles(_ filters: NightFilters, _ library: NightLibrary = Self.library) -> Set<String> {
        Set(MovieNight.rank(library, count: 10, filters: filters).map(\.candidate.title))
    }

    @Test func theStrictestLimitAppliesAndUnknownCertificationsWaitForIncludeUnrated() {
        var library = Self.library
        library.ageLimits = ["Cleo": "PG"]
        #expect(titles(NightFilters(), library) == ["Gentle"])
        #expect(titles(NightFilters(ageLimit: "R"), library) == ["Gentle"])
        #expect(titles(NightFilters(includeUnrated: true), library) == ["Gentle", "Unrated", "Not Rated"])
        #expect(titles(NightFilters(ageLimit: "R")) == ["Gentle", "Rough"])
        // A limit the list lacks lets nothing rated through.
        #expect(titles(NightFilters(ageLimit: "U")) == [])
        #expect(NightFilters(ageLimit: "R").appliedLimit(library) == "PG")
    }

    @Test func servicesByIdOrNameAtNoExtraCostGenresAndRuntime() {
        let streaming = NightFilters(streaming: ServiceMatcher(["netflix", "207"]))
        #expect(titles(streaming) == ["Gentle", "Not Rated"])
        let picks = MovieNight.rank(Self.library, count: 10, filters: streaming)
        #expect(picks.first { $0.candidate.title == "Gentle" }?.why.hasSuffix("; on Netflix") == true)
        #expect(titles(NightFilters(genres: ["family", "DRAMA"])) == ["Gentle", "Unrated"])
        #expect(titles(NightFilters(maxMinutes: 95)) == ["Gentle", "Not Rated"])
        let both = MovieNight.rank(
            Self.library, count: 10,
            filters: NightFilters(maxMinutes: 100, ageLimit: "PG", streaming: streaming.streaming))
        #expect(both.map(\.why) == ["Gentle: Ann keeps it; 7.0 from 101 votes; on Netflix · 1 h 35 min · G"])
    }

    @Test func minutesReadAsHoursAndMinutes() {
        #expect(NightFilters.minutes(106) == "1 h 46 min")
        #expect(NightFilters.minutes(120) == "2 h")
        #expect(NightFilters.minutes(45) == "45 min")
    }

    @Test func closeServiceNames() {
        let seen = ["Netflix", "Disney Plus", "Apple TV", "Plex"]
        #expect(ServiceNames.closest(to: "Disney+", among: seen) == ["Disney Plus"])
        #expect(ServiceNames.closest(to: "Netflx", among: seen) == ["Netflix"])
        #expect(ServiceNames.closest(to: "Crunchyroll", among: seen).isEmpty)
    }
}
