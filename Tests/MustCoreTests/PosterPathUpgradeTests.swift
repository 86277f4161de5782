import Foundation
import MustCore
import TMDBStub
import Testing

/// A database written by the schema of 0001–0010 (the repository's migration files, applied by the stock sqlite3
/// CLI) gains 0011's poster paths in place, losing nothing; each movie learns its path at its next check.
@Suite struct PosterPathUpgradeTests {
    let scratch = TemporaryDirectory("upgrade-poster")
    var path: String { scratch.file("old.sqlite") }

    @Test func everyRowSurvivesAndPathsArriveWithTheNextAnswer() throws {
        let applied = try UpgradeTests.writeDatabase(at: path, keeping: { $0 < "0011" })
        #expect(applied.last == "0010_letterboxd_uri.sql")
        let store = try Store(path: path, logger: quietLogger)
        #expect(try sqlite(path, "SELECT count(*) FROM schemaMigration WHERE identifier = '0011_poster_path'") == "1")
        #expect(try sqlite(path, "PRAGMA foreign_key_check") == "")
        #expect(try sqlite(path, "PRAGMA integrity_check") == "ok")
        #expect(try store.members().map(\.movies) == [2, 3])
        let ann = try #require(try store.ratings().members.first?.movies)
        #expect(ann.map(\.shown) == ["Amélie (2001)", "Dune (2021)"])
        #expect(ann.map(\.remoteId) == [194, 438631] && ann.first?.voteCount == 11_412)
        #expect(ann.map(\.posterPath) == [nil, nil])
        #expect(try sqlite(path, "SELECT count(*) FROM movie WHERE posterPath IS NULL") == "4")

        // Amélie's figures move: the same write brings the path. Dune's stay: the path alone is written.
        var amelie = RemoteMovie(id: 194, title: "Amélie", voteAverage: 8.0, voteCount: 11_500, posterPath: "/a1.jpg")
        amelie.releaseDate = "2001-04-25"
        try store.apply([.ratings(movieId: 1, amelie), .poster(movieId: 2, path: "/dune_2021-x.webp")], now: testStart)
        #expect(try sqlite(path, "SELECT id, posterPath FROM movie WHERE id < 3") == "1|/a1.jpg\n2|/dune_2021-x.webp")
        // An answer without a path (or with one refused) keeps the one stored.
        amelie.posterPath = nil
        amelie.voteCount = 11_600
        try store.apply([.ratings(movieId: 1, amelie)], now: testStart)
        #expect(try sqlite(path, "SELECT posterPath FROM movie WHERE id = 1") == "/a1.jpg")
        // Resolving an unresolved movie stores its path with its figures.
        _ = try store.resolve(
            movieId: 4, with: RemoteMovie(id: 841, title: "Dune", releaseDate: "1984-12-14", posterPath: "/d84.png"),
            now: testStart)
        #expect(try store.movieReport(.tmdb(841))?.posterPath == "/d84.png")
        #expect(try store.ratings(member: "Bob").members.first?.movies.map(\.posterPath).contains("/d84.png") == true)
    }
}
