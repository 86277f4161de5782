import Foundation
import Testing

@testable import MustCore

/// The notifications' words: each kind of news becomes the family's sentence, a rating counts only when it moves at one
/// decimal, votes and popularity never make a message alone, and untrusted text cannot act on the phone.
@Suite struct NotifyWordsTests {
    let at = Date(timeIntervalSince1970: 1_800_000_000)

    func arrival(
        _ title: String, _ year: Int?, _ provider: String, arrived: Bool = true, members: [String] = [], id: Int? = nil
    )
        -> AvailabilityChange
    {
        AvailabilityChange(
            title: title, year: year, remoteId: id, at: at, providerId: 8, provider: provider, arrived: arrived,
            members: members)
    }

    func move(
        _ title: String, _ year: Int?, from: Double?, to: Double?, votes: (Int, Int) = (100, 100),
        popularity: (Double, Double) = (5, 5), members: [String] = [], id: Int? = nil
    ) -> MovieChanges {
        var movie = MovieChanges(
            title: title, year: year, remoteId: id, changes: 1,
            first: DatedFigures(
                at: at, figures: Figures(popularity: popularity.0, voteAverage: from, voteCount: votes.0)),
            last: DatedFigures(at: at, figures: Figures(popularity: popularity.1, voteAverage: to, voteCount: votes.1)),
            members: members, popularity: [])
        movie.posterPath = nil
        return movie
    }

    let every: Set<Config.Notify.Kind> = [.availability, .rating]

    @Test func eachKindOfNewsBecomesTheFamilysWords() throws {
        let report = ChangesReport(
            since: at,
            changes: [move("Up", 2009, from: 7.94, to: 8.06, members: ["Sofia", "Leo"])],
            availability: [
                arrival("Up", 2009, "Disney Plus", arrived: false, members: ["Sofia"]),
                arrival("Dune", 2021, "Netflix", members: ["Claire", "Daniel"]),
            ])
        let message = try #require(NotifyWords.news(report, kinds: every, publicURL: nil))
        #expect(message.title == "Movie news: 3 items")
        #expect(
            message.body.split(separator: "\n") == [
                "Now on Netflix: Dune (2021), kept by Claire and Daniel",
                "Left Disney Plus: Up (2009)",
                "Up (2009) rose to 8.1 (Sofia and Leo keep it)",
            ])
        #expect(message.items == 3 && message.click == nil)
        let fell = move("Amélie", nil, from: 8.0, to: 7.9, members: ["Ann"])
        #expect(
            NotifyWords.news(ChangesReport(since: at, changes: [fell]), kinds: [.rating], publicURL: nil)?.body
                == "Amélie fell to 7.9 (Ann keeps it)")
    }

    @Test func votesPopularityOrAMoveBelowOneDecimalSendNothing() {
        let quiet = ChangesReport(
            since: at,
            changes: [
                move("Votes", 2000, from: 7.0, to: 7.0, votes: (100, 900)),
                move("Popular", 2001, from: 6.5, to: 6.5, popularity: (5, 90)),
                // 8.02 and 7.96 both show as 8.0 on the page.
                move("Steady", 2002, from: 7.96, to: 8.02),
                move("Unknown", 2003, from: nil, to: 8.0),
            ])
        #expect(NotifyWords.news(quiet, kinds: every, publicURL: nil) == nil)
        // The default kinds hear of availability only: a real rating move alone says nothing.
        let moved = ChangesReport(since: at, changes: [move("Up", 2009, from: 7.9, to: 8.4)])
        #expect(NotifyWords.news(moved, kinds: [.availability], publicURL: nil) == nil)
        #expect(NotifyWords.news(moved, kinds: [.rating], publicURL: nil)?.body == "Up (2009) rose to 8.4")
    }

    @Test func titlesAndNamesCannotActOrFakeALine() throws {
        let report = ChangesReport(
            since: at, changes: [],
            availability: [
                arrival("Evil\u{1B}]0;owned\u{07}\nNow on Netflix: Fake", nil, "Net\u{202E}flix", members: ["A\nB"])
            ])
        let message = try #require(NotifyWords.news(report, kinds: every, publicURL: nil))
        #expect(!message.body.contains("\n") && !message.body.contains("\u{1B}") && !message.body.contains("\u{202E}"))
        #expect(message.body == #"Now on Net\u202Eflix: Evil\u001B]0;owned\u0007\nNow on Netflix: Fake, kept by A\nB"#)
    }

    @Test func theLinkIsTheMoviesPageForOneItemAndTheFamilysForSeveral() throws {
        let one = ChangesReport(since: at, changes: [], availability: [arrival("Dune", 2021, "Netflix", id: 438631)])
        #expect(
            NotifyWords.news(one, kinds: every, publicURL: "https://movies.example.org/")?.click
                == "https://movies.example.org/movies/438631")
        let two = ChangesReport(
            since: at, changes: [],
            availability: [arrival("Dune", 2021, "Netflix", id: 1), arrival("Up", 2009, "Netflix", id: 2)])
        #expect(
            NotifyWords.news(two, kinds: every, publicURL: "https://movies.example.org")?.click
                == "https://movies.example.org/")
    }

    @Test func aLongListNamesTheRestAndTheTitleCountsThemAll() throws {
        let many = (1...25).map { arrival("Movie \($0)", 2000 + $0, "Netflix") }
        let message = try #require(
            NotifyWords.news(ChangesReport(since: at, changes: [], availability: many), kinds: every, publicURL: nil))
        let lines = message.body.split(separator: "\n")
        #expect(message.title == "Movie news: 25 items" && lines.count == 21 && lines.last == "and 5 more")
    }

    @Test func tonightListsTheTopThreeWithWhereEachStreams() {
        var first = NightCandidate(
            movieId: 1, title: "Dune", year: 2021, voteAverage: 8.06, voteCount: 9000, keptBy: ["Ann"])
        first.providers = [
            ProviderOffer(kind: .rent, id: 2, name: "Apple TV"), ProviderOffer(kind: .flatrate, id: 8, name: "Netflix"),
            ProviderOffer(kind: .flatrate, id: 337, name: "Disney Plus"),
        ]
        var second = NightCandidate(
            movieId: 2, title: "Up", year: 2009, voteAverage: 7.9, voteCount: 100, keptBy: ["Bob"])
        second.providers = [ProviderOffer(kind: .buy, id: 2, name: "Apple TV")]
        let third = NightCandidate(movieId: 3, title: "New", year: nil, keptBy: ["Bob"])
        let picks = [first, second, third].map { NightPick(candidate: $0, weighted: nil, why: "") }
        let report = PickReport(members: ["Ann", "Bob", "Cleo"], picks: picks, prior: nil)
        let message = NotifyWords.tonight(report, services: ["Netflix"], publicURL: "https://m.example")
        #expect(message.title == "Tonight for Ann, Bob and Cleo: 3 picks")
        #expect(
            message.body.split(separator: "\n") == [
                "1. Dune (2021), 8.1: on Netflix",
                "2. Up (2009), 7.9: not streaming on the family's services",
                "3. New: where it streams is not known yet",
            ])
        #expect(message.click == "https://m.example/night")
        #expect(
            NotifyWords.tonight(report, services: [], publicURL: nil).body.hasPrefix(
                "1. Dune (2021), 8.1: on Disney Plus and Netflix"))
    }

    @Test func theWeeklyTimeParsesAndFallsInTheFamilysZone() throws {
        #expect(WeeklyTime.parse("Fri 18:00") == WeeklyTime(weekday: 6, hour: 18, minute: 0))
        #expect(WeeklyTime.parse("sunday 7:30") == WeeklyTime(weekday: 1, hour: 7, minute: 30))
        for bad in ["Fri", "Fri 24:00", "Fri 18:60", "Fri 18", "Frei 18:00", "Fri 18:00 now", "Fri 1８:00", ""] {
            #expect(WeeklyTime.parse(bad) == nil, "\(bad)")
        }
        let berlin = try #require(TimeZone(identifier: "Europe/Berlin"))
        // Friday 27 November 2026, 17:30 UTC is 18:30 in Berlin.
        let now = try #require(ISO8601DateFormatter().date(from: "2026-11-27T17:30:00Z"))
        let friday = try #require(WeeklyTime.parse("Fri 18:00"))
        #expect(friday.latest(atOrBefore: now, in: berlin) == ISO8601DateFormatter().date(from: "2026-11-27T17:00:00Z"))
        // In UTC it is not 18:00 yet: last week's.
        #expect(
            friday.latest(atOrBefore: now, in: TimeZone(identifier: "UTC")!)
                == ISO8601DateFormatter().date(from: "2026-11-20T18:00:00Z"))
    }

    @Test func aFailedMessageIsTriedAtTheNextRunThenWithBackoff() {
        #expect(NotifyRetry.next(attempts: 1, now: at, retryAfter: nil) == at)
        #expect(NotifyRetry.next(attempts: 2, now: at, retryAfter: nil) == at.addingTimeInterval(300))
        #expect(NotifyRetry.next(attempts: 3, now: at, retryAfter: nil) == at.addingTimeInterval(600))
        #expect(NotifyRetry.next(attempts: 40, now: at, retryAfter: nil) == at.addingTimeInterval(6 * 3600))
        #expect(NotifyRetry.next(attempts: 1, now: at, retryAfter: 120) == at.addingTimeInterval(120))
    }
}
