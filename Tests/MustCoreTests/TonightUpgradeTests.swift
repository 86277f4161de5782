import Foundation
import MustCore
import TMDBStub
import Testing

/// A database of the schema before 0012 (0001–0010 from `Migrations/`, and 0011 when this tree has it, applied by
/// plain SQLite over the release before identities' rows) gains 0012 and 0013 in place, losing nothing; every
/// old movie's tonight data is unknown and due at its next check.
@Suite struct TonightUpgradeTests {
    let scratch = TemporaryDirectory("upgrade-tonight")
    var path: String { scratch.file("old.sqlite") }

    @Test func everyRowSurvivesAndTonightsDataStartsUnknown() throws {
        let applied = try UpgradeTests.writeDatabase(
            at: path, keeping: { $0 < "0012" },
            then:
                "UPDATE member SET name = name; INSERT INTO movieHistory (movieId, at, popularity) VALUES (1, 5, 1);\n")
        #expect(applied.contains("0010_letterboxd_uri.sql") && !applied.contains { $0.hasPrefix("0012") })
        let before = try sqlite(path, "SELECT id, title, remoteId, voteCount FROM movie ORDER BY id")
        let history = try sqlite(path, "SELECT count(*) FROM movieHistory")
        let store = try Store(path: path, logger: quietLogger)
        #expect(
            try sqlite(
                path, "SELECT count(*) FROM schemaMigration WHERE identifier IN ('0012_tonight', '0013_age_limit')")
                == "2")
        #expect(try sqlite(path, "PRAGMA foreign_key_check") == "")
        #expect(try sqlite(path, "PRAGMA integrity_check") == "ok")
        #expect(try sqlite(path, "SELECT id, title, remoteId, voteCount FROM movie ORDER BY id") == before)
        #expect(try store.members().map(\.movies) == [2, 3])
        #expect(try sqlite(path, "SELECT count(*) FROM movieHistory") == history && history == "3")
        #expect(
            try sqlite(
                path,
                "SELECT count(*) FROM movie JOIN movieSchedule ON movieId = id WHERE extrasCheckedAt IS NULL AND certification IS NULL"
            )
                == "4")
        #expect(try sqlite(path, "SELECT count(*) FROM member WHERE ageLimit IS NULL") == "2")
        // The new parts work on the old rows: a limit, a night read for the region, nothing seen yet.
        #expect(try store.setAgeLimit(member: "ann", to: "PG") == "Ann")
        let night = try store.movieNight(members: ["Ann"], trendSince: testStart, region: "US")
        #expect(night.ageLimits == ["Ann": "PG"] && night.candidates.count == 2)
        #expect(night.candidates.allSatisfy { $0.providers == nil && $0.certification == nil })
        #expect(try store.providersSeen(region: "US").isEmpty)
    }
}
