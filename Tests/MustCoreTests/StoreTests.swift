import Foundation
import Logging
import MustCore
import TMDBStub
import Testing

let quietLogger = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }

@Suite struct StoreTests {
    let scratch = TemporaryDirectory("store")
    var path: String { scratch.file("db/mustc.sqlite") }

    func open() throws -> Store { try Store(path: path, logger: quietLogger) }

    @Test func createsDirectoryAndUsesWALWithForeignKeys() throws {
        _ = try open()
        #expect(FileManager.default.fileExists(atPath: path))
        #expect(try sqlite(path, "PRAGMA journal_mode") == "wal")
        #expect(
            try sqlite(path, "SELECT group_concat(identifier) FROM schemaMigration")
                == "0001_initial,0002_fetch,0003_movie_schedule,0004_identity,0005_history,0006_settings,"
                + "0007_failing_index,0008_watched,0009_web_sessions,0010_letterboxd_uri,0011_poster_path,"
                + "0012_tonight,0013_age_limit,0014_movie_night,0015_media_hooks,0016_notify,0017_suggestions,"
                + "0018_pick_indexes,0019_suggestion_facts,0020_night_mark_source,0021_profiles,0022_pending_marks")
    }

    @Test func linkFindsOrCreatesByFoldedKeys() throws {
        let store = try open()
        let first = try store.link(member: "Alice", title: "Amélie", now: testStart)
        #expect(first.memberCreated && first.movieCreated && first.linked)
        let second = try store.link(member: "Bob", title: "AMELIE", now: testStart)
        #expect(second.movieId == first.movieId && second.title == "Amélie" && !second.movieCreated)
        let again = try store.link(member: "bob", title: "ame\u{301}lie", now: testStart)
        #expect(!again.linked && !again.memberCreated && again.member == "Bob")
        #expect(try store.members().map(\.name) == ["Alice", "Bob"])
        #expect(try store.movies().map(\.members) == [["Alice", "Bob"]])
    }

    @Test func resolveStoresRatingsAndMergesMoviesWithTheSameRemoteId() throws {
        let store = try open()
        let amelie = try store.link(member: "Alice", title: "Amélie", now: testStart)
        let poulain = try store.link(member: "Bob", title: "Le Fabuleux Destin d'Amélie Poulain", now: testStart)
        _ = try store.link(member: "Alice", title: "Le Fabuleux Destin d'Amélie Poulain", now: testStart)
        let remote = RemoteMovie(id: 194, title: "Amélie", popularity: 7.2, voteAverage: 7.9, voteCount: 100)
        let first = try store.resolve(movieId: amelie.movieId, with: remote, now: testStart)
        #expect(!first.mergedInto)
        let merged = try store.resolve(movieId: poulain.movieId, with: remote, now: testStart)
        #expect(merged.mergedInto && merged.movieId == amelie.movieId && merged.title == "Amélie")
        let movies = try store.movies()
        #expect(movies.count == 1)
        #expect(movies.first?.members == ["Alice", "Bob"])
        #expect(movies.first?.remoteId == 194)
        let report = try store.ratings(member: "alice")
        #expect(report.members.first?.movies.first?.voteCount == 100)
    }

    @Test func unlinkDeletesOrphanedMoviesOnly() throws {
        let store = try open()
        _ = try store.link(member: "Alice", title: "Up", now: testStart)
        _ = try store.link(member: "Bob", title: "Up", now: testStart)
        #expect(
            try store.unlink(member: "alice", title: "UP")
                == .unlinked(member: "Alice", title: "Up", movieDeleted: false))
        #expect(try store.unlink(member: "Alice", title: "Up") == .notLinked(member: "Alice", title: "Up"))
        #expect(
            try store.unlink(member: "Bob", title: "Up") == .unlinked(member: "Bob", title: "Up", movieDeleted: true))
        #expect(try store.movies().isEmpty)
        #expect(try store.unlink(member: "Zed", title: "Up") == .unknownMember)
        #expect(try store.unlink(member: "Bob", title: "Up") == .unknownMovie)
    }

    @Test func ratingsListMembersWithoutMoviesAndNullsForUnfetched() throws {
        let store = try open()
        _ = try store.link(member: "Alice", title: "Up", now: testStart)
        _ = try store.unlink(member: "Alice", title: "Up")
        _ = try store.link(member: "Bob", title: "Heat", now: testStart)
        let report = try store.ratings()
        #expect(report.members.map(\.name) == ["Alice", "Bob"])
        #expect(report.members[0].movies.isEmpty)
        // Every figure null; the row id is there for the page's address of a movie without a TMDB id.
        let heat = try #require(report.members[1].movies.first)
        #expect(heat.localId != nil)
        var figures = heat
        figures.localId = nil
        #expect(report.members[1].movies.count == 1)
        #expect(figures == MovieRating(title: "Heat"))
    }

    @Test func refusesADatabaseFromANewerMustcAndLeavesItUntouched() throws {
        _ = try open()
        _ = try sqlite(path, "INSERT INTO schemaMigration VALUES ('9999_future', '2030-01-01')")
        _ = try sqlite(path, "PRAGMA wal_checkpoint(TRUNCATE)")
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect {
            try open()
        } throws: { error in
            guard case .newerSchema(_, let unknown) = error as? StoreError else { return false }
            return unknown == ["9999_future"] && "\(error)".contains("newer mustc")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    @Test func embeddedMigrationsEqualTheFiles() throws {
        let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appending(path: "../../Migrations").standardized
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
            .filter { $0.hasSuffix(".sql") && $0 != "schema.sql" }.sorted()
        let store = try open()
        #expect(!files.isEmpty)
        for file in files {
            let sql = try String(contentsOf: directory.appending(path: file), encoding: .utf8)
            let identifier = String(file.dropLast(4))
            #expect(store.embeddedMigrationSQL(identifier) == sql, "Migrations/\(file) differs from the embedded copy")
        }
        #expect(store.embeddedMigrationIdentifiers == files.map { String($0.dropLast(4)) })
    }
}
