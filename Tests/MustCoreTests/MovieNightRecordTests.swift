import Foundation
import MustCore
import TMDBStub
import Testing

/// Movie nights as the store keeps them: one write marks the watchers and records the night, an undo
/// puts back exactly what was there, and a re-watch never erases an earlier night.
@Suite struct MovieNightRecordTests {
    let directory = TemporaryDirectory("mustc-nights")
    let store: Store
    let t0 = Date(timeIntervalSince1970: 1_795_000_000)

    init() throws {
        store = try Store(path: directory.file("mustc.sqlite"), logger: quietLogger)
    }

    func day(_ text: String) throws -> WatchDay { try #require(WatchDay.parse(text)) }

    /// Every link and night, as rows of text, in a fixed order: what "exactly the state" means.
    func links() throws -> String {
        try sqlite(
            store.path,
            """
            SELECT group_concat(row, ' | ') FROM (SELECT member.name || ':' || movie.title || ':' || memberMovie.addedAt
                || ':' || memberMovie.watched || ':' || coalesce(memberMovie.watchedOn, '-') || ':'
                || coalesce(memberMovie.ownRating, '-') AS row
            FROM memberMovie JOIN member ON member.id = memberId JOIN movie ON movie.id = movieId
            ORDER BY member.name, movie.title)
            """)
    }

    func nightCount() throws -> String { try sqlite(store.path, "SELECT count(*) FROM movieNight") }

    /// Ann keeps Up, unwatched; Bob watched it on 5 January and rated it 8; Cleo keeps only Totoro.
    func family() throws {
        _ = try store.link(member: "Ann", title: "Up", now: t0)
        _ = try store.link(member: "Bob", title: "Up", now: t0)
        _ = try store.link(member: "Cleo", title: "Totoro", now: t0)
        _ = try store.markWatched(
            member: "Bob", [.title("Up", year: nil)],
            mark: WatchMark(watched: true, on: try day("2026-01-05"), rating: 8),
            now: t0)
    }

    @Test func undoPutsBackExactlyTheStateBefore() throws {
        try family()
        let before = try links()
        let outcome = try store.recordNight(
            movie: .title("Up", year: nil), members: ["ann", "Bob", "Cleo"], on: try day("2026-11-27"), now: t0 + 60)
        guard case .recorded(let night) = outcome else {
            Issue.record("not recorded: \(outcome)")
            return
        }
        #expect(night.watchers.map(\.name) == ["Ann", "Bob", "Cleo"])
        #expect(night.watchers.map(\.rating) == [nil, 8, nil])
        let during = try links()
        #expect(during.contains("Ann:Up:") && during.contains(":1:2026-11-27:-"))
        #expect(during.contains("Bob:Up:") && during.contains(":1:2026-11-27:8"), "\(during)")
        #expect(during.contains("Cleo:Up:"), "Cleo did not keep Up: the night puts it on her list, watched")
        #expect(try nightCount() == "1")

        let undone = try store.undoNight(id: night.id)
        #expect(undone?.movie.title == "Up")
        #expect(try links() == before, "Bob keeps his day and rating, Ann is unwatched, Cleo no longer has Up")
        #expect(try nightCount() == "0")
        #expect(try sqlite(store.path, "SELECT count(*) FROM movieNightWatcher") == "0")
        #expect(try store.undoNight(id: night.id) == nil, "a second undo finds nothing and changes nothing")
        #expect(try links() == before)
    }

    @Test func aRewatchKeepsTheEarlierNightAndTheLatestDay() throws {
        try family()
        let before = try links()
        guard
            case .recorded(let first) = try store.recordNight(
                movie: .title("Up", year: nil), members: ["Ann"], on: try day("2026-10-01"), now: t0),
            case .recorded(let second) = try store.recordNight(
                movie: .title("Up", year: nil), members: ["Ann"], on: try day("2026-11-27"), now: t0 + 60)
        else {
            Issue.record("a night was not recorded")
            return
        }
        #expect(try store.nights().map(\.id) == [second.id, first.id])
        #expect(try links().contains(":1:2026-11-27:-"))
        // A night told late, of an earlier day, is kept too, and does not move the day back.
        guard
            case .recorded(let late) = try store.recordNight(
                movie: .title("Up", year: nil), members: ["Ann"], on: try day("2026-09-01"), now: t0 + 120)
        else {
            Issue.record("the late night was not recorded")
            return
        }
        #expect(try store.nights().map(\.day.text) == ["2026-11-27", "2026-10-01", "2026-09-01"])
        #expect(try links().contains(":1:2026-11-27:-"))

        // Undoing the first night while later ones stand keeps Ann's mark; undoing them all ends where it began.
        _ = try store.undoNight(id: first.id)
        #expect(try store.nights().map(\.id) == [second.id, late.id])
        #expect(try links().contains(":1:2026-11-27:-"))
        _ = try store.undoNight(id: late.id)
        _ = try store.undoNight(id: second.id)
        #expect(try links() == before)
    }

    @Test func theSameNightTwiceIsOneNightAndAnotherWatcherMakesASecond() throws {
        try family()
        let record = { (members: [String], day: String, at: Date) throws -> MovieNightRecord? in
            guard
                case .recorded(let night) = try self.store.recordNight(
                    movie: .title("Up", year: nil), members: members, on: try self.day(day), now: at)
            else { return nil }
            return night
        }
        let first = try #require(try record(["Ann", "Bob"], "2026-11-27", t0))
        let during = try links()
        // A double tap, a resubmitted form, the names in another order or case: the first night, unchanged.
        let again = try #require(try record(["bob", "ANN"], "2026-11-27", t0 + 5))
        #expect(again == first)
        #expect(try nightCount() == "1")
        #expect(try links() == during)
        // Another day, or other watchers, is another night.
        let cleo = try #require(try record(["Ann", "Bob", "Cleo"], "2026-11-27", t0 + 10))
        let later = try #require(try record(["Ann", "Bob"], "2026-11-28", t0 + 20))
        #expect(Set([first.id, cleo.id, later.id]).count == 3)
        #expect(try nightCount() == "3")
    }

    @Test func linksMadeForTheNightAreTakenBackWithItAndAMovieNobodyKeepsGoes() throws {
        try family()
        let before = try links()
        // Ann and Dan were just given Soul for tonight (a suggestion); Cleo keeps Totoro only.
        _ = try store.link(member: "Ann", title: "Soul", now: t0 + 30)
        _ = try store.link(member: "Dan", title: "Soul", now: t0 + 30)
        let outcome = try store.recordNight(
            movie: .title("Soul", year: nil), members: ["Ann", "Dan"], on: try day("2026-11-27"), now: t0 + 60,
            linkedFor: ["ann", "Dan"])
        guard case .recorded(let night) = outcome else {
            Issue.record("not recorded: \(outcome)")
            return
        }
        #expect(try links().contains("Dan:Soul:"))
        #expect(try store.undoNight(id: night.id) != nil)
        // Dan keeps his (empty) membership; the links and the movie are gone, everything else as before.
        let after = try links()
        #expect(after == before, "\(after)")
        #expect(try sqlite(store.path, "SELECT count(*) FROM movie WHERE title = 'Soul'") == "0")
        #expect(try nightCount() == "0")
    }

    @Test func unknownMembersAndMoviesWriteNothing() throws {
        try family()
        let before = try links()
        #expect(
            try store.recordNight(
                movie: .title("Up", year: nil), members: ["Ann", "Nobody"], on: try day("2026-11-27"), now: t0)
                == .unknownMembers(["Nobody"]))
        #expect(
            try store.recordNight(
                movie: .title("Jaws", year: nil), members: ["Ann"], on: try day("2026-11-27"), now: t0)
                == .unknownMovie(.title("Jaws", year: nil)))
        #expect(try links() == before && nightCount() == "0")
    }

    @Test func aRatingGivenAfterTheNightShowsInTheNightsAndSurvivesItsUndo() throws {
        try family()
        guard
            case .recorded(let night) = try store.recordNight(
                movie: .title("Up", year: nil), members: ["Cleo"], on: try day("2026-11-27"), now: t0)
        else {
            Issue.record("not recorded")
            return
        }
        _ = try store.markWatched(
            member: "Cleo", [.title("Up", year: nil)], mark: WatchMark(watched: true, on: nil, rating: 9),
            keepingDay: true, now: t0 + 60)
        #expect(try store.nights().first?.watchers == [NightWatcher(name: "Cleo", rating: 9)])
        _ = try store.undoNight(id: night.id)
        let after = try links()
        #expect(after.contains("Cleo:Up:") && after.contains(":0:-:9"), "her rating keeps Up on her list: \(after)")
    }
}
