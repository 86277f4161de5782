import Foundation
import MustCore
import TMDBStub
import Testing

/// A database of the schema before 0017 (every earlier migration in `Migrations/`, applied by plain SQLite over
/// the release before identities' rows) gains the suggestion tables in place, losing nothing.
@Suite struct SuggestionsUpgradeTests {
    let scratch = TemporaryDirectory("upgrade-suggestions")
    var path: String { scratch.file("old.sqlite") }

    @Test func everyRowSurvivesAndSuggestionsStartEmpty() throws {
        let applied = try UpgradeTests.writeDatabase(
            at: path, keeping: { $0 < "0017" },
            then: "UPDATE memberMovie SET watched = 1, ownRating = 9 WHERE memberId = 1 AND movieId = 1;\n")
        #expect(applied.contains("0013_age_limit.sql") && !applied.contains { $0.hasPrefix("0017") })
        let tables = ["member", "movie", "memberMovie", "movieHistory", "movieSchedule"]
        let before = try UpgradeTests.rows(path, tables, orderedBy: "1, 2")
        let store = try Store(path: path, logger: quietLogger)
        #expect(
            try sqlite(path, "SELECT identifier FROM schemaMigration WHERE identifier LIKE '0017%'")
                == "0017_suggestions")
        #expect(try sqlite(path, "PRAGMA foreign_key_check") == "")
        #expect(try sqlite(path, "PRAGMA integrity_check") == "ok")
        #expect(try UpgradeTests.rows(path, before) == before)
        #expect(try store.members().map(\.movies) == [2, 3])
        // The new parts work on the old rows: Ann's 9 for Amélie is a seed, due at once; nothing suggested yet.
        let seeds = try store.suggestionSeeds()
        #expect(seeds.map(\.remoteId) == [194] && seeds.first?.member == "Ann" && seeds.first?.love == 9)
        #expect(
            try store.seedsDue(now: Date(timeIntervalSince1970: 1_790_000_000), every: 604_800, retry: 86_400).count
                == 1)
        let library = try store.suggestionLibrary(members: ["Ann", "Bob"], region: "US")
        #expect(library.candidates.isEmpty && library.seeds.count == 1 && library.unknown.isEmpty)
    }
}
