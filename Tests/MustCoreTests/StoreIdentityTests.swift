import Foundation
import MustCore
import TMDBStub
import Testing

/// Identity, aliases and merges in the store, and the upgrade of a database written by the schema before 0004.
@Suite struct StoreIdentityTests {
    let scratch = TemporaryDirectory("store-identity")
    var path: String { scratch.file("mustc.sqlite") }

    func open() throws -> Store { try Store(path: path, logger: quietLogger) }

    static let dune1984 = RemoteMovie(
        id: 841, title: "Dune", originalTitle: "Dune", popularity: 31, voteAverage: 6.3, voteCount: 2_900,
        releaseDate: "1984-12-14")
    static let dune2021 = RemoteMovie(
        id: 438631, title: "Dune", originalTitle: "Dune", popularity: 160.4, voteAverage: 7.8, voteCount: 12_000,
        releaseDate: "2021-09-15")
    static let amelie = RemoteMovie(id: 194, title: "Amélie", popularity: 7.2, voteAverage: 7.9, voteCount: 100)

    @Test func remakesWithOneTitleAreTwoMovies() throws {
        let store = try open()
        let old = try store.link(member: "Ann", movie: .title("Dune", year: 1984), now: testStart)
        let new = try store.link(member: "Bob", movie: .title("DUNE", year: 2021), now: testStart)
        #expect(old.movieId != new.movieId && old.shown == "Dune (1984)" && new.shown == "DUNE (2021)")
        #expect(try store.link(member: "Ann", movie: .title("dune", year: 1984), now: testStart).movieId == old.movieId)
        _ = try store.resolve(movieId: old.movieId, with: Self.dune1984, now: testStart)
        _ = try store.resolve(movieId: new.movieId, with: Self.dune2021, now: testStart)
        let movies = try store.movies()
        // Linked, each shows TMDB's title; "DUNE" stays an alias.
        #expect(movies.map(\.shown) == ["Dune (1984)", "Dune (2021)"])
        #expect(movies.map(\.remoteId) == [841, 438631])
        #expect(movies.map(\.members) == [["Ann"], ["Bob"]])
    }

    @Test func aMergeKeepsEverySpellingForAddAndRemove() throws {
        let store = try open()
        let amelie = try store.link(member: "Ann", title: "Amélie", now: testStart)
        let poulain = try store.link(member: "Bob", title: "Le Fabuleux Destin d'Amélie Poulain", now: testStart)
        _ = try store.resolve(movieId: amelie.movieId, with: Self.amelie, now: testStart)
        let merged = try store.resolve(movieId: poulain.movieId, with: Self.amelie, now: testStart)
        #expect(merged.movieId == amelie.movieId && merged.merged == "Le Fabuleux Destin d'Amélie Poulain")
        let again = try store.link(member: "Cleo", title: "le fabuleux destin d'amelie poulain", now: testStart)
        #expect(again.movieId == amelie.movieId && again.remoteId == 194 && !again.movieCreated)
        #expect(
            try store.unlink(member: "Bob", title: "LE FABULEUX DESTIN D'AMELIE POULAIN")
                == .unlinked(member: "Bob", title: "Amélie", movieDeleted: false))
        #expect(
            try store.unlink(member: "Ann", title: "amelie")
                == .unlinked(member: "Ann", title: "Amélie", movieDeleted: false))
        #expect(try sqlite(path, "SELECT count(*) FROM movieAlias WHERE movieId = \(amelie.movieId)") == "2")
        #expect(try store.movies().map(\.members) == [["Cleo"]])
    }

    @Test func removeAsksWhichRemakeInsteadOfGuessing() throws {
        let store = try open()
        let old = try store.link(member: "Ann", movie: .title("Dune", year: 1984), now: testStart)
        let new = try store.link(member: "Ann", movie: .title("Dune", year: 2021), now: testStart)
        _ = try store.resolve(movieId: old.movieId, with: Self.dune1984, now: testStart)
        _ = try store.resolve(movieId: new.movieId, with: Self.dune2021, now: testStart)
        guard case .ambiguous(let member, let movies) = try store.unlink(member: "ann", title: "Dune") else {
            Issue.record("two movies called Dune must not be guessed between")
            return
        }
        #expect(member == "Ann" && movies.map(\.shown) == ["Dune (1984)", "Dune (2021)"])
        #expect(
            try store.unlink(member: "Ann", movie: .title("Dune", year: 1984))
                == .unlinked(member: "Ann", title: "Dune (1984)", movieDeleted: true))
        #expect(
            try store.unlink(member: "Ann", movie: .tmdb(438631))
                == .unlinked(member: "Ann", title: "Dune (2021)", movieDeleted: true))
    }

    @Test func anIdNamesTheMovieBeforeTMDBNamesIt() throws {
        let store = try open()
        let byId = try store.link(member: "Ann", movie: .tmdb(841), now: testStart)
        #expect(byId.title == "tmdb:841" && byId.remoteId == 841 && byId.updatedAt == nil)
        _ = try store.resolve(movieId: byId.movieId, with: Self.dune1984, now: testStart)
        #expect(try store.link(member: "Bob", movie: .tmdb(841), now: testStart).shown == "Dune (1984)")
        let byImdb = try store.link(member: "Ann", movie: .imdb("tt1160419"), now: testStart)
        #expect(byImdb.remoteId == nil && byImdb.title == "imdb:tt1160419")
        _ = try store.resolve(movieId: byImdb.movieId, with: Self.dune2021, now: testStart)
        let found = try store.link(member: "Bob", movie: .imdb("tt1160419"), now: testStart)
        #expect(found.movieId == byImdb.movieId && found.shown == "Dune (2021)" && found.remoteId == 438631)
    }

    @Test func resolvingAgainMovesAMovieToAnotherIdOrIntoItsHolder() throws {
        let store = try open()
        let wrong = try store.link(member: "Ann", title: "Dune", now: testStart)
        _ = try store.resolve(movieId: wrong.movieId, with: Self.dune2021, now: testStart)
        let moved = try store.resolve(movieId: wrong.movieId, with: Self.dune1984, now: testStart)
        #expect(moved.movieId == wrong.movieId && moved.merged == nil && moved.shown == "Dune (1984)")
        #expect(try sqlite(path, "SELECT identityKey, remoteId FROM movie") == "tmdb:841|841")
        let other = try store.link(member: "Bob", movie: .tmdb(438631), now: testStart)
        _ = try store.resolve(movieId: other.movieId, with: Self.dune2021, now: testStart)
        // Ann's movie was added first, so it keeps its row whichever of the two is resolved onto the other.
        let merged = try store.resolve(movieId: wrong.movieId, with: Self.dune2021, now: testStart)
        #expect(merged.movieId == wrong.movieId && merged.merged == "Dune (2021)")
        #expect(try store.movies().map(\.members) == [["Ann", "Bob"]])
        #expect(try store.link(member: "Cleo", title: "dune", now: testStart).movieId == wrong.movieId)
        #expect(
            try sqlite(path, "SELECT id, identityKey, remoteId FROM movie") == "\(wrong.movieId)|tmdb:438631|438631")
    }

    @Test func candidatesWaitInStatusUntilTheMovieIsResolved() throws {
        let store = try open()
        let disney = try store.link(member: "Ann", title: "Disney", now: testStart)
        _ = try store.link(member: "Bob", title: "disney", now: testStart)
        let candidates = [
            MovieCandidate(remoteId: 1_027_159, title: "Andor: A Disney+ Day Special Look", year: 2022),
            MovieCandidate(remoteId: 603_692, title: "Disneyland Dream", year: nil),
        ]
        try store.saveCandidates(movieId: disney.movieId, candidates)
        let status = try store.status(now: testStart)
        #expect(status.needsChoice.map(\.candidates) == [candidates])
        #expect(status.needsChoice.first?.members == ["Ann", "Bob"])
        let text = status.text(now: testStart)
        #expect(text.contains("mustc resolve Ann Disney tmdb:1027159    # Andor: A Disney+ Day Special Look (2022)"))
        _ = try store.resolve(
            movieId: disney.movieId, with: RemoteMovie(id: 603_692, title: "Disneyland Dream"), now: testStart)
        #expect(try store.status(now: testStart).needsChoice.isEmpty)
        #expect(try sqlite(path, "SELECT count(*) FROM movieCandidate") == "0")
    }
}
