import Foundation
import TMDBStub
import Testing

@testable import MustCore

/// A database of the schema before 0019 (every earlier migration in `Migrations/`, applied by plain SQLite over
/// the release before identities' rows, with suggestions gathered) gains the index `suggest` reads its candidates'
/// facts through, losing nothing, and `suggest` shows what ranking every candidate shows.
@Suite struct SuggestionFactsUpgradeTests {
    let scratch = TemporaryDirectory("upgrade-suggestion-facts")
    var path: String { scratch.file("old.sqlite") }

    /// Ann loved Amélie (9), which recommends Kind (G, 95 min, on Netflix), Scary (R, 120 min, to rent) and Quiet
    /// (no details read yet); Bob keeps Dune, which is a suggestion too.
    static let suggestions = """
        UPDATE memberMovie SET watched = 1, ownRating = 9 WHERE memberId = 1 AND movieId = 1;
        INSERT INTO suggestionMovie (remoteId, title, year, voteAverage, voteCount, popularity, posterPath, genres,
            overview, runtime, certification, extrasRegion, detailsAt) VALUES
          (930001, 'Kind', 2019, 8.5, 4000, 12.5, '/kind.jpg', 'Family', 'A kind film.', 95, 'G', 'US', 1),
          (930002, 'Scary', 2001, 8.0, 9000, 30.1, NULL, 'Horror' || char(10) || 'Drama', NULL, 120, 'R', 'US', 1),
          (930003, 'Quiet', NULL, 7.0, 10, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
          (438631, 'Dune', 2021, 7.8, 12000, 160.4, NULL, 'Science Fiction', NULL, 155, 'PG-13', 'US', 1);
        INSERT INTO suggestionSource (seedMovieId, remoteId, place) VALUES
          (1, 930001, 1), (1, 930002, 2), (1, 930003, 3), (1, 438631, 4);
        INSERT INTO suggestionProvider VALUES (930001, 'flatrate', 8, 'Netflix'), (930001, 'rent', 2, 'Apple TV'),
          (930002, 'rent', 2, 'Apple TV');

        """

    @Test func everyRowSurvivesAndSuggestReadsTheSame() throws {
        let applied = try UpgradeTests.writeDatabase(at: path, keeping: { $0 < "0019" }, then: Self.suggestions)
        #expect(applied.contains("0018_pick_indexes.sql") && !applied.contains { $0.hasPrefix("0019") })
        let tables = [
            "member", "movie", "memberMovie", "movieSchedule", "suggestionMovie", "suggestionSource",
            "suggestionProvider",
        ]
        let before = try UpgradeTests.rows(path, tables, orderedBy: "1, 2")
        let store = try Store(path: path, logger: quietLogger)
        #expect(
            try sqlite(path, "SELECT identifier FROM schemaMigration WHERE identifier LIKE '0019%'")
                == "0019_suggestion_facts")
        #expect(try sqlite(path, "PRAGMA foreign_key_check") == "")
        #expect(try sqlite(path, "PRAGMA integrity_check") == "ok")
        #expect(try UpgradeTests.rows(path, before) == before)
        #expect(try store.members().map(\.movies) == [2, 3])
        #expect(try sqlite(path, "SELECT count(*) FROM suggestionMovie INDEXED BY suggestionMovie_facts") == "4")

        // Through the index: Kind alone under every choice, Kind then Scary without one (Quiet has no details,
        // Dune is kept), as ranking every candidate gives them.
        let every = try store.suggestionLibrary(members: ["Ann"], region: "US")
        for filters in [
            NightFilters(),
            NightFilters(
                maxMinutes: 120, ageLimit: "PG-13", includeUnrated: true, streaming: ServiceMatcher(["Netflix"]),
                genres: ["Family", "Horror"]),
        ] {
            var short = try store.suggestionWatchers(members: ["Ann"], region: "US")
            short.candidates = try store.suggestionShortlist(for: short, region: "US", count: 5, filters: filters)
            let shown = Suggestions.rank(short, count: 5, filters: filters).map(\.candidate.remoteId)
            #expect(shown == (filters.streaming == nil ? [930_001, 930_002, 930_003] : [930_001]), "\(filters)")
            #expect(
                SuggestReport(short, count: 5, filters: filters).render(.json)
                    == SuggestReport(every, count: 5, filters: filters).render(.json))
        }
    }
}
