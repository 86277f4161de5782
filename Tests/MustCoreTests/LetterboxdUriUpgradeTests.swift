import Foundation
import MustCore
import TMDBStub
import Testing

/// A database written by the schema of 0001–0007 (the repository's migration files, applied by the stock sqlite3
/// CLI, with the rows of the release before identities) gains 0010's Letterboxd URIs in place, losing nothing.
@Suite struct LetterboxdUriUpgradeTests {
    let scratch = TemporaryDirectory("upgrade-letterboxd")
    var path: String { scratch.file("old.sqlite") }

    static func writeDatabaseBeforeURIs(at path: String) throws {
        try UpgradeTests.writeDatabase(at: path, keeping: { $0 < "0008" })
    }

    @Test func everyMemberMovieLinkAndRatingSurvivesAndURIsNameFilms() throws {
        try Self.writeDatabaseBeforeURIs(at: path)
        let store = try Store(path: path, logger: quietLogger)
        #expect(
            try sqlite(path, "SELECT count(*) FROM schemaMigration WHERE identifier = '0010_letterboxd_uri'") == "1")
        #expect(try sqlite(path, "PRAGMA foreign_key_check") == "")
        #expect(try sqlite(path, "PRAGMA integrity_check") == "ok")
        #expect(try store.members().map(\.movies) == [2, 3])
        let ann = try #require(try store.ratings().members.first?.movies)
        #expect(ann.map(\.shown) == ["Amélie (2001)", "Dune (2021)"])
        #expect(ann.map(\.remoteId) == [194, 438631] && ann.first?.voteCount == 11_412)
        #expect(try store.unresolvedMovies() == ["Dune (1984)", "No Such Film"])
        #expect(try sqlite(path, "SELECT count(*) FROM movie WHERE letterboxdUri IS NULL") == "4")
        // An old movie learns its URI from a row naming it by title; a film of another URI is another movie.
        let rows = [
            ImportEntry(title: "No Such Film", letterboxdUri: "https://boxd.it/nsf"),
            ImportEntry(title: "no such film", letterboxdUri: "https://boxd.it/other"),
        ]
        #expect(try store.placeKnown(member: "Ann", rows, now: testStart) == [.linked, .needsLookup])
        #expect(try sqlite(path, "SELECT letterboxdUri FROM movie WHERE id = 3") == "https://boxd.it/nsf")
        let other = try store.linkImported(member: "Ann", rows[1], now: testStart)
        #expect(other.movieId > 4 && other.linked)
        #expect(try store.placeKnown(member: "Ann", rows, now: testStart) == [.alreadyLinked, .alreadyLinked])
    }
}
