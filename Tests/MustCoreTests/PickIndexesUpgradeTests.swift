import Foundation
import MustCore
import TMDBStub
import Testing

/// A database of the schema before 0018 (every earlier migration in `Migrations/`, applied by plain SQLite over
/// the release before identities' rows, with offers in two regions) gains pick's indexes in place, losing nothing,
/// and pick's reads give what they gave.
@Suite struct PickIndexesUpgradeTests {
    let scratch = TemporaryDirectory("upgrade-pick-indexes")
    var path: String { scratch.file("old.sqlite") }

    /// Amélie's offers read for US (Netflix under two names), Dune's for GB.
    static let offers = """
        UPDATE movie SET providersRegion = 'US' WHERE id = 1;
        UPDATE movie SET providersRegion = 'GB' WHERE id = 2;
        INSERT INTO movieProvider VALUES (1, 'flatrate', 8, 'Netflix'), (1, 'ads', 8, 'Netflix Kids'),
          (1, 'rent', 2, 'Apple TV'), (1, 'free', 538, 'Plex'), (2, 'flatrate', 8, 'Netflix UK'),
          (2, 'flatrate', 337, 'Disney Plus');
        UPDATE memberMovie SET watched = 1, ownRating = 9 WHERE memberId = 1 AND movieId = 1;

        """

    @Test func everyRowSurvivesAndPickReadsTheSame() throws {
        let applied = try UpgradeTests.writeDatabase(at: path, keeping: { $0 < "0018" }, then: Self.offers)
        #expect(applied.contains("0017_suggestions.sql") && !applied.contains { $0.hasPrefix("0018") })
        let tables = ["member", "movie", "memberMovie", "movieHistory", "movieSchedule", "movieProvider"]
        let before = try UpgradeTests.rows(path, tables, orderedBy: "1, 2, 3")
        let store = try Store(path: path, logger: quietLogger)
        #expect(
            try sqlite(path, "SELECT identifier FROM schemaMigration WHERE identifier LIKE '0018%'")
                == "0018_pick_indexes")
        #expect(try sqlite(path, "PRAGMA foreign_key_check") == "")
        #expect(try sqlite(path, "PRAGMA integrity_check") == "ok")
        #expect(try UpgradeTests.rows(path, before) == before)
        #expect(try store.members().map(\.movies) == [2, 3])

        // The prior of Amélie (7.9, 11,412 votes) and Dune (7.8, 12,000), read through the new index.
        let prior = try #require(try store.libraryPrior())
        #expect(prior.movies == 2 && abs(prior.mean - 7.85) < 1e-9 && prior.votes == 11_706)
        #expect(
            try sqlite(
                path,
                "EXPLAIN QUERY PLAN SELECT voteCount FROM movie WHERE voteCount > 0 AND voteAverage IS NOT NULL "
                    + "ORDER BY voteCount"
            ).contains("movie_prior"))

        // The providers by region, each by id, each under its greatest name there, as `providers` names them.
        let us = try store.providerNamesSeen(region: "US").map { "\($0.id) \($0.name)" }
        #expect(us == ["2 Apple TV", "8 Netflix Kids", "538 Plex"])
        let listed = try store.providersSeen(region: "US").sorted { $0.id < $1.id }
        #expect(us == listed.map { "\($0.id) \($0.name)" })
        let gb = try store.providerNamesSeen(region: "GB").map { "\($0.id) \($0.name)" }
        #expect(gb == ["8 Netflix UK", "337 Disney Plus"])
        #expect(try store.providerNamesSeen(region: "FR").isEmpty)
    }
}
