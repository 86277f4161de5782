import Foundation
import MustCore
import TMDBStub
import Testing

/// A database written by the schema just before 0008 (0001–0007, the repository's own migration files applied by
/// the stock sqlite3 CLI, with rows as mustc wrote them) gains the watched marks in place: every member, movie,
/// link and rating stays, and no link is watched or rated until someone says so.
@Suite struct WatchedUpgradeTests {
    let scratch = TemporaryDirectory("upgrade-0008")
    var path: String { scratch.file("old.sqlite") }

    func writeDatabaseBefore0008() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: UpgradeTests.migrations.path)
            .filter { $0.hasSuffix(".sql") && $0 < "0008" }.sorted()
        #expect(files.last == "0007_failing_index.sql")
        func migration(_ file: String) throws -> String {
            try String(contentsOf: UpgradeTests.migrations.appending(path: file), encoding: .utf8) + "\n"
                + "INSERT INTO schemaMigration VALUES ('\(file.dropLast(4))', '2026-11-01 10:00:00.000');\n"
        }
        var script = "PRAGMA foreign_keys = ON; BEGIN;\n"
        script += "CREATE TABLE schemaMigration (identifier TEXT PRIMARY KEY NOT NULL, appliedAt TEXT NOT NULL);\n"
        for file in files where file < "0004" { script += try migration(file) }
        script += UpgradeTests.oldRows + "\n"
        for file in files where file >= "0004" { script += try migration(file) }
        script += "INSERT INTO setting VALUES ('titleKeyFold', '\(TitleKey.version)');\n"
        _ = try sqlite(path, script + "COMMIT;")
        #expect(try sqlite(path, "SELECT count(*) FROM memberMovie") == "5")
    }

    @Test func everyMemberMovieLinkAndRatingSurvivesAndNothingIsWatched() throws {
        try writeDatabaseBefore0008()
        let store = try Store(path: path, logger: quietLogger)
        #expect(try sqlite(path, "SELECT count(*) FROM schemaMigration WHERE identifier = '0008_watched'") == "1")
        #expect(try sqlite(path, "PRAGMA foreign_key_check") == "")
        #expect(try sqlite(path, "PRAGMA integrity_check") == "ok")
        #expect(try store.members().map(\.name) == ["Ann", "Bob"])
        #expect(try store.members().map(\.movies) == [2, 3])
        let report = try store.ratings()
        let ann = try #require(report.members.first?.movies)
        #expect(ann.map(\.shown) == ["Amélie (2001)", "Dune (2021)"])
        #expect(ann.map(\.voteCount) == [11_412, 12_000] && ann.map(\.voteAverage) == [7.9, 7.8])
        #expect(report.members.last?.movies.map(\.shown) == ["Amélie (2001)", "Dune (1984)", "No Such Film"])
        #expect(report.members.flatMap(\.movies).allSatisfy { $0.mark == WatchMark() })
        #expect(
            try sqlite(
                path, "SELECT count(*) FROM memberMovie WHERE watched = 0 AND watchedOn IS NULL AND ownRating IS NULL")
                == "5")
        #expect(try sqlite(path, "SELECT count(*) FROM movieHistory WHERE baseline = 1") == "2")

        // The new columns take marks, and their checks refuse what is not one.
        let marked = try store.markWatched(
            member: "bob", [.title("Amélie", year: nil)],
            mark: WatchMark(watched: true, on: WatchDay.parse("2024-03-01"), rating: 9))
        #expect(
            marked
                == .done(
                    member: "Bob",
                    [
                        WatchedMovie(
                            movie: MovieName(id: 1, title: "Amélie", year: 2001, remoteId: 194), linked: false,
                            changed: true)
                    ]))
        #expect(
            try sqlite(
                path, "SELECT memberId, movieId, watched, watchedOn, ownRating FROM memberMovie WHERE watched = 1")
                == "2|1|1|2024-03-01|9")
        _ = try sqlite(path, "UPDATE memberMovie SET ownRating = 11")
        _ = try sqlite(path, "UPDATE memberMovie SET watchedOn = 'March 1'")
        #expect(
            try sqlite(path, "SELECT count(*) FROM memberMovie WHERE ownRating = 11 OR watchedOn = 'March 1'") == "0")
    }
}
