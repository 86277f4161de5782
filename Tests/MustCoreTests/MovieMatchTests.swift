import Foundation
import MustCore
import Testing

/// The match decision over search answers shaped like TMDB's: whole numbers as ints, `release_date` "" or missing.
@Suite struct MovieMatchTests {
    static let dune = """
        {"page":1,"results":[
          {"adult":false,"backdrop_path":null,"genre_ids":[878],"id":438631,"original_language":"en",
           "original_title":"Dune","overview":"","popularity":160.4,"poster_path":null,
           "release_date":"2021-09-15","title":"Dune","video":false,"vote_average":7.8,"vote_count":12000},
          {"adult":false,"id":841,"original_title":"Dune","popularity":31,"release_date":"1984-12-14",
           "title":"Dune","vote_average":6,"vote_count":2900},
          {"id":1000001,"original_title":"Dune Drifter","popularity":1,"release_date":"",
           "title":"Dune Drifter","vote_average":0,"vote_count":0},
          {"id":1000002,"original_title":"Jodorowsky's Dune","popularity":0,"release_date":"2013-05-18",
           "title":"Jodorowsky's Dune","vote_average":7,"vote_count":700}
        ],"total_pages":1,"total_results":4}
        """

    static let disney = """
        {"page":1,"results":[
          {"id":1027159,"original_title":"Andor: A Disney+ Day Special Look","popularity":2,
           "release_date":"2022-09-08","title":"Andor: A Disney+ Day Special Look","vote_average":7,"vote_count":4},
          {"id":603692,"original_title":"Disneyland Dream","popularity":1.4,"release_date":"",
           "title":"Disneyland Dream","vote_average":6,"vote_count":3},
          {"id":5,"title":"Disney Nature","popularity":0,"vote_count":0},
          {"id":6,"title":"Disney Four","popularity":0.0168,"release_date":"2001-01-01","vote_count":0}
        ],"total_pages":1,"total_results":4}
        """

    struct Page: Decodable { var results: [RemoteMovie] }

    func results(_ json: String) throws -> [RemoteMovie] {
        try JSONDecoder().decode(Page.self, from: Data(json.utf8)).results
    }

    @Test func oneExactTitleIsTaken() throws {
        let match = MovieMatch.decide(title: "JODOROWSKY’S DUNE", year: nil, results: try results(Self.dune))
        #expect(match == .exact(try results(Self.dune)[3]))
    }

    @Test func remakesTakeTheMostPopularAndListTheOthers() throws {
        let all = try results(Self.dune)
        #expect(MovieMatch.decide(title: "dune", year: nil, results: all) == .mostPopular(all[0], others: [all[1]]))
    }

    @Test func equallyPopularRemakesAreAChoiceListingEveryOne() throws {
        let all = try results(Self.dune)
        let tied = all.map { movie in
            var copy = movie
            copy.popularity = 0.6
            return copy
        }
        let match = MovieMatch.decide(title: "Dune", year: nil, results: tied)
        #expect(match.taken == nil)
        #expect(match == .tied([tied[0], tied[1]]))
        // Tied at the top, a less popular third is listed after them; one clear winner is still taken.
        var three = [all[0], all[1], all[0]]
        three[2].id = 99
        three[0].popularity = 3
        three[1].popularity = 1
        three[2].popularity = 3
        #expect(MovieMatch.decide(title: "Dune", year: nil, results: three) == .tied([three[0], three[2], three[1]]))
        three[2].popularity = 2.9
        #expect(MovieMatch.decide(title: "Dune", year: nil, results: three).taken == three[0])
    }

    @Test func theYearPicksOneRemake() throws {
        let all = try results(Self.dune)
        #expect(MovieMatch.decide(title: "Dune", year: 1984, results: all) == .exact(all[1]))
        #expect(MovieMatch.decide(title: "Dune", year: 2021, results: all) == .exact(all[0]))
        // A year no exact title has: nothing taken, the results offered.
        #expect(MovieMatch.decide(title: "Dune", year: 2000, results: all) == .needsChoice(Array(all.prefix(3))))
    }

    @Test func anEmptyReleaseDateNeverMatchesAGivenYear() throws {
        let all = try results(Self.dune)
        #expect(all[2].year == nil && all[2].releaseDate == nil)
        #expect(MovieMatch.decide(title: "Dune Drifter", year: nil, results: all) == .exact(all[2]))
        #expect(MovieMatch.decide(title: "Dune Drifter", year: 2022, results: all).taken == nil)
    }

    @Test func noExactTitleTakesNothingAndOffersThreeInTMDBsOrder() throws {
        let all = try results(Self.disney)
        #expect(MovieMatch.decide(title: "Disney", year: nil, results: all) == .needsChoice(Array(all.prefix(3))))
        #expect(MovieMatch.decide(title: "007", year: nil, results: [RemoteMovie]()) == .needsChoice([]))
    }

    @Test func theOriginalTitleCountsAndDuplicatesDoNotMakeRemakes() {
        let amelie = RemoteMovie(
            id: 194, title: "Amélie", originalTitle: "Le Fabuleux Destin d'Amélie Poulain", popularity: 7,
            releaseDate: "2001-04-25")
        let other = RemoteMovie(id: 9, title: "Amélie Poulain's Day", popularity: 90)
        let match = MovieMatch.decide(
            title: "le fabuleux destin d'amelie poulain", year: 2001, results: [other, amelie, amelie])
        #expect(match == .exact(amelie))
    }
}
