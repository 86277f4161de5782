import Foundation
import MustCore
import Testing

/// The pure parts of movie night: own ratings, watched days, and the ranking of `pick`.
@Suite struct MovieNightTests {
    @Test(arguments: [
        ("4.5/5", 9), ("3.5/5", 7), ("0.5/5", 1), ("5/5", 10), ("9/10", 9), ("10/10", 10), ("1/10", 1), ("9", 9),
        ("7.0", 7), (" 8 ", 8),
    ])
    func ratingsOnEveryScaleLandOnOneToTen(_ text: String, _ expected: Int) {
        #expect(OwnRating.parse(text) == expected)
    }

    @Test(arguments: [
        "11", "6/5", "abc", "0", "0/5", "3.7/5", "7.5", "-1", "9/100", "4/5/5", "", "nan", "inf/5", "/5", "4.5/",
    ])
    func anythingElseIsNoRating(_ text: String) {
        #expect(OwnRating.parse(text) == nil)
    }

    @Test func letterboxdStarsAndIMDbPoints() {
        #expect(OwnRating.stars("3.5") == 7 && OwnRating.stars("0.5") == 1 && OwnRating.stars("5") == 10)
        #expect(OwnRating.stars("0") == nil && OwnRating.stars("5.5") == nil && OwnRating.stars("3.7") == nil)
        #expect(OwnRating.outOfTen("10") == 10 && OwnRating.outOfTen("11") == nil && OwnRating.outOfTen("8.5") == nil)
    }

    @Test func watchDaysAreRealDaysWrittenYYYYMMDD() {
        for good in ["2024-03-01", "2024-02-29", "2000-02-29", "1870-01-01", "2100-12-31"] {
            #expect(WatchDay.parse(good)?.text == good)
        }
        for bad in [
            "2024-02-30", "2023-02-29", "1900-02-29", "2024-13-01", "2024-00-10", "2024-1-5", "24-03-01",
            "2024/03/01", "2024-03-01T10:00", "1869-12-31", "2101-01-01", "yesterday", "", "２０２４-03-01",
        ] {
            #expect(WatchDay.parse(bad) == nil, "\(bad)")
        }
        let noon = Date(timeIntervalSince1970: 1_709_294_400)  // 2024-03-01T12:00:00Z
        #expect(WatchDay.of(noon, in: TimeZone(identifier: "UTC")!).text == "2024-03-01")
        #expect(WatchDay.of(noon, in: TimeZone(identifier: "Pacific/Kiritimati")!).text == "2024-03-02")
    }

    static let prior = NightPrior(mean: 7.2, votes: 5000, movies: 5)

    func library(_ candidates: [NightCandidate]) -> NightLibrary {
        NightLibrary(members: ["Ann", "Bob"], candidates: candidates, prior: Self.prior)
    }

    @Test func manyVotesAt8Point4BeatAHandfulAt9Point5() {
        let picks = MovieNight.rank(
            library([
                NightCandidate(movieId: 1, title: "Tiny Gem", voteAverage: 9.5, voteCount: 4, keptBy: ["Ann"]),
                NightCandidate(movieId: 2, title: "Big Hit", voteAverage: 8.4, voteCount: 30_000, keptBy: ["Ann"]),
            ]), count: 5)
        #expect(picks.map(\.candidate.title) == ["Big Hit", "Tiny Gem"])
        // Worked by hand: (30,000 × 8.4 + 5,000 × 7.2) / 35,000 = 288,000 / 35,000 = 8.228571…;
        // (4 × 9.5 + 5,000 × 7.2) / 5,004 = 36,038 / 5,004 = 7.201838…
        #expect(abs((picks[0].weighted ?? 0) - 8.228_571) < 1e-6)
        #expect(abs((picks[1].weighted ?? 0) - 7.201_838) < 1e-6)
    }

    @Test func keptByMoreComesFirstThenWeightedThenTrendThenTitle() {
        let candidates = [
            NightCandidate(movieId: 1, title: "Zeta", voteAverage: 7, voteCount: 5000, trend: 0, keptBy: ["Ann"]),
            NightCandidate(movieId: 2, title: "Shared", voteAverage: 6, voteCount: 5000, keptBy: ["Ann", "Bob"]),
            NightCandidate(movieId: 3, title: "Alpha", voteAverage: 7, voteCount: 5000, trend: 0, keptBy: ["Bob"]),
            NightCandidate(movieId: 4, title: "Rising", voteAverage: 7, voteCount: 5000, trend: 0.3, keptBy: ["Bob"]),
            NightCandidate(movieId: 5, title: "Best", voteAverage: 8, voteCount: 5000, keptBy: ["Ann"]),
            NightCandidate(movieId: 6, title: "Not Out", keptBy: ["Ann", "Bob"]),
        ]
        let picks = MovieNight.rank(library(candidates), count: 10)
        #expect(picks.map(\.candidate.title) == ["Shared", "Best", "Rising", "Alpha", "Zeta", "Not Out"])
        #expect(picks.last?.weighted == nil && picks.last?.why == "Not Out: Ann and Bob keep it; no TMDB figures yet")
        // The same rows in another order give the same picks.
        #expect(MovieNight.rank(library(candidates.reversed()), count: 10) == picks)
        #expect(MovieNight.rank(library(candidates), count: 2).map(\.candidate.title) == ["Shared", "Best"])
    }

    @Test func watchedMoviesAreLeftOutUnlessAskedFor() {
        let candidates = [
            NightCandidate(
                movieId: 1, title: "Seen", voteAverage: 9, voteCount: 9000, keptBy: ["Ann"], watchedBy: ["Bob"]),
            NightCandidate(movieId: 2, title: "Fresh", voteAverage: 6, voteCount: 100, keptBy: ["Ann"]),
        ]
        #expect(MovieNight.rank(library(candidates), count: 5).map(\.candidate.title) == ["Fresh"])
        let all = MovieNight.rank(library(candidates), count: 5, includeWatched: true)
        #expect(all.map(\.candidate.title) == ["Seen", "Fresh"])
        #expect(all[0].why == "Seen: Ann keeps it; 9.0 from 9,000 votes; Bob has seen it")
    }

    @Test func theReasonReadsAsTheIssueShowsIt() {
        let dune = NightCandidate(
            movieId: 1, title: "Dune: Part Two", year: 2024, voteAverage: 8.1, voteCount: 6500, trend: 0.1,
            keptBy: ["Ann", "Bob"])
        let pick = MovieNight.rank(library([dune]), count: 1)[0]
        #expect(pick.why == "Dune: Part Two (2024): Ann and Bob keep it; 8.1 from 6,500 votes, +0.1 this week")
        var unvoted = dune
        (unvoted.voteAverage, unvoted.voteCount, unvoted.keptBy) = (0, 0, ["Cleo"])
        #expect(MovieNight.rank(library([unvoted]), count: 1)[0].why.hasSuffix("Cleo keeps it; no votes on TMDB yet"))
        #expect(MovieNight.names(["Ann", "Bob", "Cleo"]) == "Ann, Bob and Cleo")
    }

    @Test func theJSONHasTheContractKeysAndNulls() throws {
        let report = PickReport(
            library([
                NightCandidate(
                    movieId: 1, title: "Up", year: 2009, remoteId: 14160, voteAverage: 7.9, voteCount: 19_300, trend: 0,
                    keptBy: ["Ann"]),
                NightCandidate(movieId: 2, title: "Unknown", keptBy: ["Bob"]),
            ]), count: 5)
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(report.render(.json).utf8)) as? [String: Any])
        #expect(json["members"] as? [String] == ["Ann", "Bob"])
        let picks = try #require(json["picks"] as? [[String: Any]])
        #expect(
            Set(picks[0].keys)
                == [
                    "title", "year", "remoteId", "keptBy", "voteAverage", "voteCount", "weighted", "trend", "why",
                    "runtime", "certification", "genres", "providers", "overview", "where", "predicted", "taste",
                ])
        // Not located (no region asked): `where` is null; no taste: the prediction is the ranking's base, the
        // weighted rating with at most 50 votes of prior: (19,300 × 7.9 + 50 × 7.2) / 19,350 = 7.898191….
        #expect(picks[0]["where"] is NSNull && picks[0]["overview"] is NSNull && picks[0]["taste"] as? [String] == [])
        #expect(picks[0]["predicted"] as? Double == 7.8982)
        #expect(
            picks[1]["providers"] is NSNull && picks[1]["runtime"] is NSNull && picks[1]["genres"] as? [String] == [])
        #expect(picks[0]["weighted"] as? Double == 7.756)
        #expect(picks[1]["weighted"] is NSNull && picks[1]["year"] is NSNull && picks[1]["trend"] is NSNull)
        #expect(report.render(.table).hasPrefix("Tonight for Ann and Bob, best first:\n  1. Up (2009): Ann keeps it;"))
    }

    @Test func ratingsJSONWithMarksEqualsJSONEncoders() throws {
        var movie = MovieRating(title: "Up", year: 2009, voteAverage: 7.9)
        movie.mark = WatchMark(watched: true, on: WatchDay.parse("2024-03-01"), rating: 9)
        let report = RatingsReport(members: [MemberRatings(name: "Ann", movies: [movie, MovieRating(title: "Heat")])])
        func parsed(_ text: String) throws -> NSDictionary {
            try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? NSDictionary)
        }
        #expect(try parsed(report.render(.json)) == parsed(ReportRenderer.json(report)))
        #expect(report.render(.json).contains(#""watchedOn" : "2024-03-01""#))
        #expect(report.render(.csv).contains(",true,2024-03-01,9\r\n") && report.render(.csv).hasSuffix(",false,,\r\n"))
        let table = report.render(.table)
        #expect(table.contains("Seen") && table.contains("2024-03-01  9/10"), "\(table)")
    }
}
