import Foundation
import MustCore
import TMDBStub
import Testing

/// Which stored movie an imported row names, and what the row teaches it, without TMDB.
@Suite struct StoreImportTests {
    let scratch = TemporaryDirectory("store-import")

    func open() throws -> Store { try Store(path: scratch.file("mustc.sqlite"), logger: quietLogger) }

    static let dune1984 = RemoteMovie(id: 841, title: "Dune", popularity: 31, releaseDate: "1984-12-14")

    @Test func knownMoviesAreLinkedAndOnlyTheOthersNeedALookup() throws {
        let store = try open()
        let dune = try store.link(member: "Bob", movie: .title("Dune", year: 1984), now: testStart)
        _ = try store.resolve(movieId: dune.movieId, with: Self.dune1984, now: testStart)
        let entries = [
            ImportEntry(title: "DUNE", year: 1984),  // a spelling typed before, with its year
            ImportEntry(title: "Dune", year: 2021),  // the remake: not known
            ImportEntry(title: "Somewhere", year: 2000, imdbId: "tt0000001"),
            ImportEntry(title: "Up", year: 2009, tmdbId: 14160),  // a TMDB id: linked without a lookup
            ImportEntry(title: "Dune", year: 1984),
        ]
        #expect(
            try store.placeKnown(member: "Ann", entries, now: testStart) == [
                .linked, .needsLookup, .needsLookup, .linked, .alreadyLinked,
            ])
        #expect(
            try store.placeKnown(member: "ann", entries, now: testStart) == [
                .alreadyLinked, .needsLookup, .needsLookup, .alreadyLinked, .alreadyLinked,
            ])
        let ann = try #require(try store.ratings(member: "Ann").members.first)
        #expect(ann.movies.map(\.shown) == ["Dune (1984)", "Up (2009)"])
        #expect(ann.movies.map(\.remoteId) == [841, 14160])
    }

    @Test func aRowWithAnotherTMDBIdIsAnotherMovieOfThatName() throws {
        let store = try open()
        let dune = try store.link(member: "Bob", movie: .title("Dune", year: 1984), now: testStart)
        _ = try store.resolve(movieId: dune.movieId, with: Self.dune1984, now: testStart)
        #expect(
            try store.placeKnown(member: "Ann", [ImportEntry(title: "Dune", year: 1984, tmdbId: 999)], now: testStart)
                == [
                    .linked
                ])
        let movies = try store.movies()
        #expect(movies.map(\.remoteId) == [841, 999])
    }

    @Test func aRowTeachesAnUnresolvedMovieItsIds() throws {
        let store = try open()
        _ = try store.link(member: "Bob", movie: .title("Heat", year: 1995), now: testStart)
        let entry = ImportEntry(title: "heat", year: 1995, tmdbId: 949, imdbId: "tt0113277")
        #expect(try store.placeKnown(member: "Ann", [entry], now: testStart) == [.linked])
        let movies = try store.movies()
        #expect(movies.map(\.remoteId) == [949] && movies.map(\.members) == [["Ann", "Bob"]])
        // The IMDb id is kept: a later row naming it by that id finds it.
        let byIMDb = ImportEntry(title: "Heat (the film)", imdbId: "tt0113277")
        #expect(try store.placeKnown(member: "Cleo", [byIMDb], now: testStart) == [.linked])
        #expect(try store.movies().map(\.members) == [["Ann", "Bob", "Cleo"]])
    }

    @Test func aLookedUpRowIsKeptWithItsYearWhateverTMDBSaid() throws {
        let store = try open()
        let link = try store.linkImported(member: "Ann", ImportEntry(title: "Nowhere", year: 1999), now: testStart)
        #expect(link.linked && link.shown == "Nowhere (1999)" && link.remoteId == nil)
        let again = try store.linkImported(member: "Ann", ImportEntry(title: "NOWHERE", year: 1999), now: testStart)
        #expect(!again.linked && again.movieId == link.movieId)
    }
}
