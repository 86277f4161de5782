import Foundation
import MustCore
import TMDBStub
import Testing

/// What a media server's event changes in a real SQLite file: a watch counted once a day, a movie added watched,
/// an un-mark that takes back only a server's mark, users mapped or unknown, tokens replaced.
@Suite struct MediaEventStoreTests {
    let scratch = TemporaryDirectory("media-events")
    let store: Store
    let now = Date(timeIntervalSince1970: 1_790_000_000)

    init() throws {
        store = try Store(path: scratch.file("mustc.sqlite"), logger: quietLogger)
        _ = try store.link(member: "Ann", movie: .title("Amélie", year: 2001), now: now)
    }

    func event(_ kind: MediaEvent.Kind, user: String = "ann", tmdb: Int? = 603, title: String = "The Matrix")
        -> MediaEvent
    {
        MediaEvent(server: .jellyfin, user: user, tmdbId: tmdb, title: title, year: 1999, kind: kind)
    }

    func mark(_ member: String, _ remoteId: Int? = 603, title: String? = nil) throws -> WatchMark? {
        try store.ratings(member: member).members.first?.movies.first {
            remoteId != nil ? $0.remoteId == remoteId : $0.title == title
        }?.mark
    }

    @Test func aWatchIsAddedWatchedAndCountedOncePerDay() throws {
        let day = try #require(WatchDay.parse("2026-11-26"))
        let first = try store.recordMediaEvent(event(.watched), day: day, now: now)
        #expect(first.member == "Ann" && first.link?.linked == true && first.link?.remoteId == 603)
        #expect(first.said == "marked The Matrix (1999) watched on 2026-11-26 for Ann (added to Ann's list)")
        #expect(try mark("Ann") == WatchMark(watched: true, on: day))
        let again = try store.recordMediaEvent(event(.watched), day: day, now: now)
        #expect(again.said == "The Matrix (1999) was already marked watched for Ann: counted once")
        let later = try #require(WatchDay.parse("2026-11-28"))
        _ = try store.recordMediaEvent(event(.watched), day: later, now: now)
        #expect(try mark("Ann") == WatchMark(watched: true, on: later))
        #expect(try store.ratings(member: "Ann").members.first?.movies.count == 2)
    }

    @Test func aMarkByHandANightOrAnImportOverAServersMarkIsNoLongerTheServersToTakeBack() throws {
        let day = try #require(WatchDay.parse("2026-11-26"))
        let unplayed = { (tmdb: Int) throws -> String in
            try self.store.recordMediaEvent(self.event(.unwatched, tmdb: tmdb), day: day, now: self.now).said
        }
        // The server marks The Matrix; Ann marks it by hand the same day: the server's un-mark keeps it.
        _ = try store.recordMediaEvent(event(.watched), day: day, now: now)
        _ = try store.markWatched(member: "Ann", [.tmdb(603)], mark: WatchMark(watched: true, on: day), now: now)
        #expect(try unplayed(603).hasPrefix("kept Ann's watched mark"))
        #expect(try mark("Ann") == WatchMark(watched: true, on: day))
        // The server marks Up; the family records the night: the un-mark keeps it, and the night stands.
        _ = try store.recordMediaEvent(event(.watched, tmdb: 14160, title: "Up"), day: day, now: now)
        guard
            case .recorded(let night) = try store.recordNight(movie: .tmdb(14160), members: ["Ann"], on: day, now: now)
        else {
            Issue.record("no night")
            return
        }
        #expect(try unplayed(14160).hasPrefix("kept Ann's watched mark"))
        #expect(try mark("Ann", 14160)?.watched == true && store.nights().map(\.id) == [night.id])
        // Taking the night back gives the mark back to the server, which may then take it back.
        _ = try store.undoNight(id: night.id)
        #expect(try mark("Ann", 14160) == WatchMark(watched: true, on: day))
        #expect(try unplayed(14160).hasPrefix("took back Ann's watched mark"))
        // The server marks Totoro; an import marks it watched too: the import's word stands.
        _ = try store.recordMediaEvent(event(.watched, tmdb: 8392, title: "My Neighbor Totoro"), day: day, now: now)
        var entry = ImportEntry(title: "My Neighbor Totoro", tmdbId: 8392)
        entry.mark = WatchMark(watched: true, on: day)
        _ = try store.linkImported(member: "Ann", entry, now: now)
        #expect(try unplayed(8392).hasPrefix("kept Ann's watched mark"))
    }

    @Test func anIMDbOnlyEventForAKeptMovieTheLibraryKnowsByTitleFindsItNotASecondCopy() throws {
        let day = try #require(WatchDay.parse("2026-11-26"))
        // Ann keeps Pulp Fiction by title; TMDB has not told its ids yet (down, or not asked).
        let kept = try store.link(member: "Ann", movie: .title("Pulp Fiction", year: 1994), now: now)
        let pulp = MediaEvent(
            server: .emby, user: "Ann", imdbId: "tt0110912", title: "Pulp Fiction", year: 1994, kind: .watched)
        let outcome = try store.recordMediaEvent(pulp, day: day, now: now)
        #expect(outcome.link?.movieId == kept.movieId && outcome.link?.linked == false)
        #expect(outcome.said == "marked Pulp Fiction (1994) watched on 2026-11-26 for Ann (already on Ann's list)")
        let movies = try #require(try store.ratings(member: "Ann").members.first?.movies)
        #expect(movies.map(\.title).sorted() == ["Amélie", "Pulp Fiction"])
        // A kept movie TMDB knows as another film (another IMDb id) is not this one: a movie of its own.
        _ = try sqlite(store.path, "UPDATE movie SET imdbId = 'tt0000001' WHERE id = \(kept.movieId)")
        var other = pulp
        other.imdbId = "tt0110913"
        let second = try store.recordMediaEvent(other, day: day, now: now)
        #expect(second.link?.movieId != kept.movieId && second.link?.linked == true)
    }

    @Test func anUnmarkTakesBackOnlyAMarkAServerSet() throws {
        let day = try #require(WatchDay.parse("2026-11-26"))
        _ = try store.recordMediaEvent(event(.watched), day: day, now: now)
        let undone = try store.recordMediaEvent(event(.unwatched), day: day, now: now)
        #expect(undone.said == "took back Ann's watched mark on The Matrix (1999)")
        #expect(try mark("Ann") == WatchMark())
        // By hand: `mustc watched` (the same path as the page's card).
        _ = try store.markWatched(member: "Ann", [.tmdb(603)], mark: WatchMark(watched: true, on: day), now: now)
        let kept = try store.recordMediaEvent(event(.unwatched), day: day, now: now)
        #expect(kept.said == "kept Ann's watched mark on The Matrix (1999): it was not set by a media server")
        #expect(try mark("Ann") == WatchMark(watched: true, on: day))
        // A server's later watch of a hand mark moves its day, and still cannot take it back.
        let later = try #require(WatchDay.parse("2026-11-27"))
        _ = try store.recordMediaEvent(event(.watched), day: later, now: now)
        _ = try store.recordMediaEvent(event(.unwatched), day: later, now: now)
        #expect(try mark("Ann") == WatchMark(watched: true, on: later))
        // A server's mark taken back by hand (`watched --undo`) and marked again by hand is a mark by hand.
        let other = MediaEvent(server: .plex, user: "Ann", tmdbId: 8587, title: "The Lion King", kind: .watched)
        _ = try store.recordMediaEvent(other, day: day, now: now)
        _ = try store.unmarkWatched(member: "Ann", [.tmdb(8587)])
        _ = try store.markWatched(member: "Ann", [.tmdb(8587)], mark: WatchMark(watched: true, on: day), now: now)
        var undo = other
        undo.kind = .unwatched
        #expect(try store.recordMediaEvent(undo, day: day, now: now).said.hasPrefix("kept Ann's watched mark"))
        #expect(try mark("Ann", 8587) == WatchMark(watched: true, on: day))
    }

    /// `serve` writes the events that came together in one transaction: each is kept or refused alone, in order. The
    /// refusal comes from the database (a trigger, made with plain SQLite) after the event's movie, link and mark
    /// were written: its savepoint takes them back, and the events around it stay.
    @Test func eventsWrittenTogetherAreKeptOrUndoneOneByOne() throws {
        let day = try #require(WatchDay.parse("2026-11-26"))
        _ = try sqlite(
            store.path,
            """
            CREATE TRIGGER refuseUp BEFORE INSERT ON mediaEvent WHEN NEW.movie = 'Up (2009)'
            BEGIN SELECT RAISE(ABORT, 'refused for the test'); END;
            """)
        let up = MediaEvent(server: .emby, user: "Ann", tmdbId: 14160, title: "Up", year: 2009, kind: .watched)
        let unnamed = MediaEvent(server: .emby, user: "Ann", kind: .watched)
        let results = try store.recordMediaEvents(
            [event(.watched), up, unnamed, event(.rated(9))].map { MediaEventWrite($0, day: day, now: now) })
        #expect(results.count == 4)
        #expect(
            try results[0].get().said == "marked The Matrix (1999) watched on 2026-11-26 for Ann (added to Ann's list)")
        #expect(throws: StoreError.self) { try results[1].get() }
        #expect("\(results[1])".contains("refused for the test"))
        #expect(throws: StoreError.self) { try results[2].get() }
        #expect(try results[3].get().said == "rated The Matrix (1999) 9/10 for Ann")
        #expect(try mark("Ann") == WatchMark(watched: true, on: day, rating: 9))
        // Up is on no list and in no table: the savepoint took back its movie, its link and its mark.
        #expect(try store.ratings(member: "Ann").members.first?.movies.compactMap(\.remoteId) == [603])
        #expect(try sqlite(store.path, "SELECT count(*) FROM movie WHERE remoteId = 14160") == "0")
        #expect(try store.status(now: now).mediaServers.last.map(\.server) == ["jellyfin"])
    }

    @Test func aRatingSetsTheOwnRatingOnce() throws {
        let day = try #require(WatchDay.parse("2026-11-26"))
        #expect(try store.recordMediaEvent(event(.rated(8)), day: day, now: now).said.hasPrefix("rated The Matrix"))
        #expect(try mark("Ann") == WatchMark(rating: 8))
        #expect(
            try store.recordMediaEvent(event(.rated(8)), day: day, now: now).said
                == "Ann's rating of The Matrix (1999) was already 8/10")
    }

    @Test func aTitleFindsTheMembersMovieWithoutAYear() throws {
        let day = try #require(WatchDay.parse("2026-11-26"))
        let outcome = try store.recordMediaEvent(
            MediaEvent(server: .plex, user: "ANN", title: "AMELIE", year: 2001, kind: .watched), day: day, now: now)
        #expect(outcome.link?.linked == false)
        #expect(try mark("Ann", nil, title: "Amélie") == WatchMark(watched: true, on: day))
    }

    @Test func unknownUsersAreIgnoredAndListedAndAMappedUserGoesToTheirMember() throws {
        let day = try #require(WatchDay.parse("2026-11-26"))
        let ignored = try store.recordMediaEvent(event(.watched, user: "kidsroom"), day: day, now: now)
        #expect(ignored.member == nil && ignored.link == nil)
        #expect(try store.ratings(member: "Ann").members.first?.movies.count == 1)
        var status = try store.status(now: now)
        #expect(status.mediaServers.unknownUsers.map(\.user) == ["kidsroom"])
        #expect(status.text(now: now).contains("jellyfin at 2026-09-21T14:13:20Z, user kidsroom: The Matrix (1999)"))
        #expect(try store.mapMediaUser("KidsRoom", toMember: "nobody") == nil)
        #expect(try store.mapMediaUser("KidsRoom", toMember: "ann") == "Ann")
        let mapped = try store.recordMediaEvent(event(.watched, user: "kidsroom"), day: day, now: now)
        #expect(mapped.member == "Ann")
        status = try store.status(now: now)
        #expect(status.mediaServers.last.map(\.member) == ["Ann"])
    }

    /// A URL's token is checked against SHA-256 as everyone writes it: 64 lowercase hex digits, a byte below 0x10
    /// with its leading zero (the digests here are Python's `hashlib.sha256(token).hexdigest()`).
    @Test func aTokenMatchesItsStandardSHA256HexDigest() {
        let zeros = String(repeating: "0", count: 64)
        let digest = "60e05bd1b195af2f94112fa7197a5c88289058840ce7c6df9693756bc6250f55"
        #expect(WebhookToken.matches(zeros, storedHash: digest))
        #expect(!WebhookToken.matches(zeros, storedHash: String(digest.dropLast()) + "4"))
        #expect(!WebhookToken.matches(zeros, storedHash: digest.replacingOccurrences(of: "0c", with: "c")))
        #expect(
            WebhookToken.matches(
                String(repeating: "a", count: 64),
                storedHash: "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb"))
    }

    @Test func newTokensReplaceTheOldOnesAndOnlyTheHashIsKept() throws {
        let first = WebhookToken.random()
        try store.replaceWebhookTokens([.plex: first.hash], now: now)
        let stored = try #require(try store.webhookTokenHash(.plex))
        #expect(stored != first.value && WebhookToken.matches(first.value, storedHash: stored))
        #expect(!WebhookToken.matches(WebhookToken.random().value, storedHash: stored))
        #expect(!WebhookToken.matches(first.value.uppercased(), storedHash: stored))
        #expect(!WebhookToken.matches("", storedHash: stored))
        let second = WebhookToken.random()
        try store.replaceWebhookTokens([.plex: second.hash], now: now)
        let replaced = try #require(try store.webhookTokenHash(.plex))
        #expect(!WebhookToken.matches(first.value, storedHash: replaced))
        #expect(WebhookToken.matches(second.value, storedHash: replaced))
        #expect(try store.webhookTokenHash(.jellyfin) == nil)
    }

    /// A bare title's watch is held once per member and movie, a later day moves it forward, the server's un-mark
    /// takes it back, and a movie settled with no watch waiting is not marked.
    @Test func aHeldWatchMovesForwardAndAnUnmarkTakesItBack() throws {
        let bare = MediaEvent(server: .emby, user: "ann", title: "Dune", kind: .watched)
        let (first, later) = (try #require(WatchDay.parse("2026-11-24")), try #require(WatchDay.parse("2026-11-26")))
        #expect(try store.recordMediaEvent(bare, day: first, now: now).said.hasPrefix("held Ann's watched mark"))
        #expect(try store.recordMediaEvent(bare, day: later, now: now).said.hasPrefix("held Ann's watched mark"))
        #expect(try store.recordMediaEvent(bare, day: first, now: now).said.hasSuffix("already held: counted once"))
        #expect(try sqlite(store.path, "SELECT watchedOn, source FROM pendingMark") == "2026-11-26|emby")
        #expect(try mark("Ann", nil, title: "Dune") == WatchMark())
        var unmark = bare
        unmark.kind = .unwatched
        #expect(
            try store.recordMediaEvent(unmark, day: later, now: now).said == "took back Ann's held watched mark on Dune"
        )
        #expect(try sqlite(store.path, "SELECT count(*) FROM pendingMark") == "0")
        let movieId = try #require(try store.libraryMovies(named: .title("Dune", year: nil)).first?.id)
        _ = try store.resolve(
            movieId: movieId, with: RemoteMovie(id: 841, title: "Dune", releaseDate: "1984-12-14"), now: now)
        #expect(try mark("Ann", 841) == WatchMark())
    }
}

/// A database of the schema before 0015 gains it in place, losing nothing: every mark it had is a mark by hand.
@Suite struct MediaServersUpgradeTests {
    let scratch = TemporaryDirectory("upgrade-media-hooks")
    var path: String { scratch.file("old.sqlite") }

    @Test func everyRowSurvivesAndOldMarksAreByHand() throws {
        let applied = try UpgradeTests.writeDatabase(
            at: path, keeping: { $0 < "0015" },
            then: "UPDATE memberMovie SET watched = 1, watchedOn = '2026-10-01', ownRating = 7 WHERE movieId = 1;\n")
        #expect(applied.contains("0013_age_limit.sql") && !applied.contains { $0.hasPrefix("0015") })
        let before = try sqlite(path, "SELECT id, title, remoteId, voteCount FROM movie ORDER BY id")
        let links = try sqlite(
            path, "SELECT memberId, movieId, watched, watchedOn, ownRating FROM memberMovie ORDER BY 1, 2")
        let store = try Store(path: path, logger: quietLogger)
        #expect(try sqlite(path, "SELECT count(*) FROM schemaMigration WHERE identifier LIKE '0015%'") == "1")
        #expect(try sqlite(path, "PRAGMA foreign_key_check") == "")
        #expect(try sqlite(path, "PRAGMA integrity_check") == "ok")
        #expect(try sqlite(path, "SELECT id, title, remoteId, voteCount FROM movie ORDER BY id") == before)
        #expect(
            try sqlite(path, "SELECT memberId, movieId, watched, watchedOn, ownRating FROM memberMovie ORDER BY 1, 2")
                == links)
        #expect(try store.members().map(\.movies) == [2, 3])
        #expect(try sqlite(path, "SELECT count(*) FROM memberMovie WHERE watchedSource IS NOT NULL") == "0")
        // A server's un-mark leaves the old marks alone; its watch works on the old rows.
        let day = try #require(WatchDay.parse("2026-11-26"))
        let undo = MediaEvent(server: .emby, user: "Ann", tmdbId: 194, title: "Amélie", kind: .unwatched)
        #expect(
            try store.recordMediaEvent(undo, day: day, now: Date(timeIntervalSince1970: 1_790_000_000)).said.hasPrefix(
                "kept Ann's watched mark"))
        let watch = MediaEvent(server: .emby, user: "Bob", tmdbId: 438631, title: "Dune", kind: .watched)
        #expect(
            try store.recordMediaEvent(watch, day: day, now: Date(timeIntervalSince1970: 1_790_000_000)).link?.linked
                == true)
        #expect(try store.members().map(\.movies) == [2, 4])
    }
}
