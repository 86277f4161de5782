import Foundation
import MustCore
import TMDBStub
import Testing

/// The edit path the commands and the page share, against the stub over loopback: what it links, what it takes,
/// what it leaves for a choice, and that TMDB's failures never lose the link.
@Suite final class MovieEditorTests {
    let stub = TMDBStubServer(movies: StubMovie.identity)
    let scratch = TemporaryDirectory("editor")
    let editor: MovieEditor

    init() throws {
        try stub.start()
        let store = try Store(path: scratch.file("family.sqlite"), logger: quietLogger)
        editor = MovieEditor(
            store: store, checks: MovieSchedulePolicy(),
            time: TimeSource(now: { testStart }, clock: TimeSource.system.clock, random: { 0.5 }))
    }

    deinit { stub.stop() }

    func client(_ baseURL: URL? = nil) -> TMDBClient {
        TMDBClient(
            baseURL: baseURL ?? stub.baseURL, credentials: .apiKey(stub.apiKey), timeout: 30, retry: .none,
            transport: HTTPTransportKind.curl.stack(maxConnections: 2, time: .system).transport, time: .system,
            logger: quietLogger)
    }

    func add(_ member: String, _ text: String, client: TMDBClient? = nil) async throws -> LookupOutcome {
        let reference = try MovieReference.parse(text)
        let link = try editor.add(member: member, movie: reference)
        #expect(MovieEditor.needsLookup(link))
        return try await editor.lookUp(link, named: reference, client: client ?? self.client())
    }

    @Test func aTitleWithItsYearIsTakenExactly() async throws {
        guard case .taken(let remote, let resolved) = try await add("Ann", "Dune (2021)") else {
            Issue.record("not taken")
            return
        }
        #expect(remote.id == 438631 && resolved.merged == nil)
        let ann = try #require(try editor.store.ratings(member: "Ann").members.first?.movies)
        #expect(ann.map(\.remoteId) == [438631])
    }

    @Test func remakesTakeTheMostPopularAndOfferTheOthers() async throws {
        let outcome = try await add("Ann", "Dune")
        guard case .remakes(_, let remote, let taken, let others) = outcome else {
            Issue.record("\(outcome)")
            return
        }
        #expect(remote.id == 438631 && others.map(\.id) == [841])
        // The other one, picked: the same movie row now carries 841.
        let moved = try editor.take(others[0], movieId: taken.movieId)
        #expect(moved.movieId == taken.movieId)
        #expect(try editor.store.ratings(member: "Ann").members.first?.movies.map(\.remoteId) == [841])
    }

    @Test func aFuzzyTitleLinksNothingAndSavesItsCandidates() async throws {
        let outcome = try await add("Bob", "Lion King")
        guard case .needsChoice(_, let candidates, tied: false) = outcome else {
            Issue.record("\(outcome)")
            return
        }
        #expect(Set(candidates.map(\.id)) == [8587, 420818])
        let waiting = try editor.store.status(now: testStart).needsChoice
        #expect(waiting.map(\.members) == [["Bob"]])
        #expect(Set(waiting.first?.candidates.map(\.remoteId) ?? []) == [8587, 420818])
        #expect(try editor.store.ratings(member: "Bob").members.first?.movies.map(\.remoteId) == [nil])
    }

    @Test func anUnreachableTMDBKeepsTheMovieForTheNextFetch() async throws {
        let outcome = try await add("Cy", "Dune (2021)", client: client(TMDBStubServer.unreachableBaseURL))
        guard case .unavailable = outcome else {
            Issue.record("\(outcome)")
            return
        }
        #expect(try editor.store.ratings(member: "Cy").members.first?.movies.map(\.shown) == ["Dune (2021)"])
    }

    /// The page's card: Watched today, a rating later keeps that day, Not watched takes the mark and keeps the
    /// rating; `mustc watched` runs the same steps.
    @Test func watchedThenRatedKeepsTheDayAndUndoKeepsTheRating() async throws {
        _ = try await add("Ann", "Dune (2021)")
        let dune = [MovieReference.tmdb(438631)]
        let day = try #require(WatchDay.parse("2026-11-01"))
        guard case .done = try editor.watched(member: "Ann", dune, mark: WatchMark(watched: true, on: day)) else {
            Issue.record("not marked")
            return
        }
        let later = WatchMark(watched: true, on: WatchDay.parse("2026-11-20"), rating: 9)
        _ = try editor.watched(member: "Ann", dune, mark: later, keepingDay: true)
        var mark = try #require(try editor.store.ratings(member: "Ann").members.first?.movies.first?.mark)
        #expect(mark == WatchMark(watched: true, on: day, rating: 9))
        _ = try editor.unwatched(member: "Ann", dune)
        mark = try #require(try editor.store.ratings(member: "Ann").members.first?.movies.first?.mark)
        #expect(mark == WatchMark(watched: false, on: nil, rating: 9))
        // Without keepingDay (`mustc watched --on`), the day given is the day kept.
        _ = try editor.watched(member: "Ann", dune, mark: later)
        mark = try #require(try editor.store.ratings(member: "Ann").members.first?.movies.first?.mark)
        #expect(mark.on == WatchDay.parse("2026-11-20"))
    }

    @Test func removeTakesItOffTheList() async throws {
        _ = try await add("Ann", "tmdb:438631")
        #expect(
            try editor.remove(member: "Ann", movie: .tmdb(438631))
                == .unlinked(
                    member: "Ann", title: "Dune (2021)", movieDeleted: true))
        #expect(try editor.remove(member: "Ann", movie: .tmdb(438631)) == .unknownMovie)
    }
}
