import Foundation
import TMDBStub
import Testing

@testable import MustCore

/// The suggestions' seeds, as the store chooses them (in SQL since the fetch's CPU was measured), against the rule read
/// plainly over the rows this test wrote: a member's movies with a TMDB id; when they rated any of those, the ones
/// rated 8 or more, best first, then by movie id, ten at most; when they rated none, the watched ones with TMDB's
/// figures by weighted rating. And the seeds due: each movie once, never asked first in the members' order, then
/// the oldest ask, an answered one after a week, a failed one after a day.
@Suite struct SuggestionSeedTests {
    let scratch = TemporaryDirectory("seeds")
    var path: String { scratch.file("mustc.sqlite") }

    struct Kept {
        var member: Int64
        var movie: Int64
        var remoteId: Int?
        var rating: Int?
        var watched: Bool
        var average: Double?
        var votes: Int?
    }

    static let members = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay"]

    /// Ann rates 30 movies, 18 of them 8 to 10 with many ties, and rated a movie with no TMDB id 10; Bob rated
    /// only below 8; Cat rated nothing (seeds by weighted rating, ties among them, unwatched and voteless ones
    /// left out); Dan loves two of Ann's movies; Eve keeps nothing; Fay rated only a movie with no TMDB id.
    static func library() -> [Kept] {
        var kept: [Kept] = []
        var next: Int64 = 0
        func add(
            _ member: Int64, remoteId: Bool = true, _ rating: Int?, watched: Bool = true, _ average: Double?,
            _ votes: Int?
        ) {
            next += 1
            kept.append(
                Kept(
                    member: member, movie: next, remoteId: remoteId ? 1_000 + Int(next) : nil, rating: rating,
                    watched: watched, average: average, votes: votes))
        }
        for n in 0..<30 { add(1, [8, 10, 3, 9, 7][n % 5] + (n % 5 == 2 ? n % 4 : 0), 7.0, 100 + n) }
        add(1, remoteId: false, 10, 9.9, 99_999)
        for n in 0..<12 { add(2, 3 + n % 5, 9.5, 50_000) }
        for n in 0..<16 {
            add(
                3, nil, watched: n % 7 != 3, [8.1, 6.0, 8.1, 7.4][n % 4],
                n % 9 == 5 ? 0 : [5_000, 20, 5_000, 900][n % 4])
        }
        add(3, nil, nil, 1_000)
        for movie in [Int64(2), 4] {
            kept.append(
                Kept(
                    member: 4, movie: movie, remoteId: 1_000 + Int(movie), rating: 9,
                    watched: true, average: 7.0, votes: 100))
        }
        add(6, remoteId: false, 9, 8.0, 10)
        add(6, nil, 8.5, 3_000)
        add(6, nil, watched: false, 9.0, 3_000)
        return kept
    }

    func store(_ kept: [Kept]) throws -> Store {
        let store = try Store(path: path, logger: quietLogger)
        var sql = "BEGIN;\n"
        for (index, name) in Self.members.enumerated() {
            sql +=
                "INSERT INTO member (id, name, nameKey, createdAt) VALUES (\(index + 1), '\(name)', "
                + "'\(name.lowercased())', '2026-11-01');\n"
        }
        func value<T>(_ value: T?) -> String { value.map { "\($0)" } ?? "NULL" }
        for movie in Set(kept.map(\.movie)).sorted() {
            let row = kept.first { $0.movie == movie }!
            sql += """
                INSERT INTO movie (id, title, titleKey, identityKey, remoteId, voteAverage, voteCount, createdAt)
                VALUES (\(movie), 'Movie \(movie)', 'movie \(movie)', '\(row.remoteId.map { "tmdb:\($0)" } ?? "title:movie \(movie)")',
                    \(value(row.remoteId)), \(value(row.average)), \(value(row.votes)), '2026-11-01');

                """
        }
        for row in kept {
            sql +=
                "INSERT INTO memberMovie (memberId, movieId, addedAt, watched, ownRating) VALUES (\(row.member), "
                + "\(row.movie), '2026-11-01', \(row.watched ? 1 : 0), \(value(row.rating)));\n"
        }
        _ = try sqlite(path, sql + "COMMIT;")
        return store
    }

    /// The rule, read plainly over the rows.
    static func expected(_ kept: [Kept], prior: NightPrior?) -> [(member: String, movie: Int64, love: Double)] {
        var seeds: [(member: String, movie: Int64, love: Double)] = []
        for (index, name) in members.enumerated() {
            let mine = kept.filter { $0.member == Int64(index + 1) && $0.remoteId != nil }
            let chosen: [(Int64, Double)]
            if mine.contains(where: { $0.rating != nil }) {
                chosen = mine.compactMap { row in row.rating.flatMap { $0 >= 8 ? (row.movie, Double($0)) : nil } }
            } else {
                chosen = mine.compactMap { row in
                    guard row.watched, let prior, let average = row.average, let votes = row.votes, votes > 0
                    else { return nil }
                    return (row.movie, MovieNight.weighted(average: average, votes: votes, prior: prior))
                }
            }
            seeds += chosen.sorted { $0.1 != $1.1 ? $0.1 > $1.1 : $0.0 < $1.0 }.prefix(10).map { (name, $0.0, $0.1) }
        }
        return seeds
    }

    @Test func eachMembersSeedsFollowTheRule() throws {
        let kept = Self.library()
        let store = try store(kept)
        let expected = Self.expected(kept, prior: try store.libraryPrior())
        let seeds = try store.suggestionSeeds()
        #expect(seeds.map(\.member) == expected.map(\.member))
        #expect(seeds.map(\.movieId) == expected.map(\.movie))
        #expect(seeds.map(\.love) == expected.map(\.love))
        #expect(seeds.map(\.remoteId) == expected.map { 1_000 + Int($0.movie) })
        // What the rows make of it: Ann's ten, none of Bob's, Cat's and Fay's by weighted rating, Dan's two.
        #expect(
            Dictionary(grouping: seeds, by: \.member).mapValues(\.count) == ["Ann": 10, "Cat": 10, "Dan": 2, "Fay": 1])
        #expect(seeds.filter { $0.member == "Ann" }.map(\.ownRating) == [10, 10, 10, 10, 10, 10, 9, 9, 9, 9])
        #expect(seeds.filter { $0.member == "Cat" || $0.member == "Fay" }.allSatisfy { $0.ownRating == nil })
        #expect(try store.suggestionSeeds(members: ["dan"]).map(\.movieId) == [2, 4])
    }

    @Test func theDueSeedsComeOnceNeverAskedFirstThenTheOldest() throws {
        let kept = Self.library()
        let store = try store(kept)
        let seeds = try store.suggestionSeeds()
        let now = Date(timeIntervalSince1970: 1_790_000_000)
        let (week, day) = (7.0 * 86_400, 86_400.0)
        // Ann's first four: answered 8 days ago (due), answered 6 days ago (not), failed 2 days ago (due), failed
        // 12 hours ago (not); Cat's first, answered 30 days ago (due, and the oldest).
        let ann = seeds.filter { $0.member == "Ann" }.map(\.movieId)
        let cat = try #require(seeds.first { $0.member == "Cat" }).movieId
        let asks: [(Int64, Double, Bool)] = [
            (ann[0], 8 * day, true), (ann[1], 6 * day, true), (ann[2], 2 * day, false), (ann[3], day / 2, false),
            (cat, 30 * day, true),
        ]
        _ = try sqlite(
            path,
            asks.map {
                "INSERT INTO suggestionSeed VALUES (\($0.0), \(now.timeIntervalSince1970 - $0.1), \($0.2 ? 1 : 0));"
            }
            .joined(separator: "\n"))
        let due = try store.seedsDue(now: now, every: week, retry: day).map(\.movieId)
        var never: [Int64] = []
        for seed in seeds.map(\.movieId) where !asks.contains(where: { $0.0 == seed }) && !never.contains(seed) {
            never.append(seed)
        }
        #expect(due == never + [cat, ann[0], ann[2]])
        #expect(Set(due).count == due.count && seeds.count > Set(seeds.map(\.movieId)).count)
    }

    /// The spend log read once for both the pace (times since `since`) and the day's budget (by kind since
    /// `daySince`): each row counted in the windows it falls in, whichever window is the longer.
    @Test func theSpendLogCountsEachRowInTheWindowsItFallsIn() throws {
        let store = try Store(path: path, logger: quietLogger)
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let hours = [-72.0, -36, -12, -1]
        let kinds = ["details", "recommendations", "details", "details"]
        _ = try sqlite(
            path,
            zip(hours, kinds).map {
                "INSERT INTO suggestionSpend (at, kind) VALUES (\(now.timeIntervalSince1970 + $0 * 3_600), '\($1)');"
            }
            .joined(separator: "\n"))
        func at(_ hours: Double) -> Date { now.addingTimeInterval(hours * 3_600) }

        let paced = try store.suggestionSpend(since: at(-48), daySince: at(-24))
        #expect(paced.times == [at(-36), at(-12), at(-1)])
        #expect(paced.day.details == 2 && paced.day.recommendations == 0)

        // A day's window longer than the pace's: the older rows count for the day, not for the pace.
        let longer = try store.suggestionSpend(since: at(-24), daySince: at(-80))
        #expect(longer.times == [at(-12), at(-1)])
        #expect(longer.day.details == 3 && longer.day.recommendations == 1)
    }
}
