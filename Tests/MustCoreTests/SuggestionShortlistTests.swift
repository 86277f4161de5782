import Foundation
import TMDBStub
import Testing

@testable import MustCore

/// `suggest` reads a shortlist (100,000 candidates in ≤ 0.1 s) rather than every candidate: what it
/// shows must be what ranking every candidate shows, character for character, whatever the watchers, choices,
/// tastes and count. A real database with 600 candidates made to tie (few distinct ratings, vote counts and
/// titles, some differing only in case or accents), some never read for the region, with offers of every kind,
/// certifications the region's list lacks or spells in another case, kept and hidden ones; a watcher who rated
/// nothing (seeds by weighted rating, so loves that are no whole numbers) and one with an age limit.
@Suite struct SuggestionShortlistTests {
    let scratch = TemporaryDirectory("shortlist")
    var path: String { scratch.file("mustc.sqlite") }

    /// SplitMix64: the same library on every run.
    struct Random {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Int((z ^ (z >> 31)) % UInt64(bound))
        }
        mutating func pick<T>(_ values: [T]) -> T { values[next(values.count)] }
    }

    static let genres = ["Comedy", "Drama", "Family", "Horror", "Animation", "Science Fiction"]

    func library() throws -> Store {
        let store = try Store(path: path, logger: quietLogger)
        var random = Random(state: 34)
        var sql = """
            INSERT INTO member (id, name, nameKey, createdAt, ageLimit) VALUES (1, 'Ann', 'ann', '2026-11-01', NULL),
                (2, 'Bob', 'bob', '2026-11-01', NULL), (3, 'Cat', 'cat', '2026-11-01', 'PG'),
                (4, 'Dan', 'dan', '2026-11-01', NULL);
            INSERT OR REPLACE INTO certificationOrder VALUES ('US', 'NR', 0), ('US', 'G', 1), ('US', 'PG', 2),
                ('US', 'PG-13', 3), ('US', 'R', 4), ('US', 'NC-17', 5);

            """
        // 80 kept movies, 20 a member; Ann, Bob and Dan rate theirs (the 8s to 10s are seeds), Cat only watches.
        for id in 1...80 {
            let genres = (0..<(1 + random.next(2))).map { _ in random.pick(Self.genres) }.joined(separator: "\n")
            let member = (id - 1) / 20 + 1
            let rating = member == 3 ? "NULL" : String(3 + random.next(8))
            sql += """
                INSERT INTO movie (id, title, titleKey, identityKey, remoteId, voteAverage, voteCount, genres,
                    createdAt)
                VALUES (\(id), 'Kept \(id)', 'kept \(id)', 'tmdb:\(id)', \(id), \(5 + random.next(40)) / 10.0 + 3,
                    \(1 + random.next(5_000)), '\(genres)', '2026-11-01');
                INSERT INTO memberMovie (memberId, movieId, addedAt, watched, ownRating)
                VALUES (\(member), \(id), '2026-11-01', 1, \(rating));

                """
        }
        sql += candidates(&random)
        // Read from a file: as one argument the statements are more than the kernel takes.
        let file = scratch.file("library.sql")
        try sql.write(toFile: file, atomically: true, encoding: .utf8)
        _ = try sqlite(path, ".read \(file)")
        return store
    }

    /// 600 candidates, each recommended by one to three of the 80 kept movies (those no seed are never shown).
    func candidates(_ random: inout Random) -> String {
        let titles = ["Alpha", "alpha", "Álpha", "Beta", "Gamma", "Delta", "Émile", "emile"]
        let certifications = ["'G'", "'PG'", "'pg'", "'PG-13'", "'R'", "'NR'", "'Ü-12'", "NULL"]
        let offers = [
            ("flatrate", 8, "Netflix"), ("rent", 2, "Apple TV"), ("free", 73, "Tubi"), ("ads", 300, "Pluto TV"),
            ("flatrate", 9, "NETFLIX"), ("buy", 8, "Netflix"),
        ]
        var sql = ""
        for n in 1...600 {
            let remoteId = 10_000 + n
            let average = random.next(10) == 0 ? "NULL" : String(format: "%.1f", 5 + Double(random.next(6)) / 2)
            let votes = random.pick(["0", "NULL", "10", "10", "500", "500", "9000"])
            let genres = (0..<random.next(3)).map { _ in random.pick(Self.genres) }.joined(separator: "\n")
            let region = random.pick(["'US'", "'US'", "'US'", "'GB'", "NULL"])
            sql += """
                INSERT INTO suggestionMovie (remoteId, title, year, voteAverage, voteCount, genres, overview,
                    runtime, certification, extrasRegion, detailsAt)
                VALUES (\(remoteId), '\(random.pick(titles)) \(random.next(3))', \(1990 + random.next(30)),
                    \(average), \(votes), '\(genres)', 'Overview \(n)', \(random.pick(["NULL", "85", "100", "140"])),
                    \(random.pick(certifications)), \(region), 1795000000);

                """
            for seed in Set((0..<(1 + random.next(3))).map { _ in 1 + random.next(80) }) {
                sql += "INSERT INTO suggestionSource VALUES (\(seed), \(remoteId), \(random.next(20)));\n"
            }
            for offer in Set((0..<random.next(3)).map { _ in random.next(offers.count) }).map({ offers[$0] }) {
                sql += "INSERT OR IGNORE INTO suggestionProvider VALUES (\(remoteId), '\(offer.0)', \(offer.1), "
                sql += "'\(offer.2)');\n"
            }
        }
        // Two kept by a member (as added from the page), two said "not for us" to.
        sql += """
            INSERT INTO movie (id, title, titleKey, identityKey, remoteId, createdAt)
            VALUES (500, 'Kept', 'kept', 'tmdb:10001', 10001, '2026-11-01'),
                (501, 'Kept too', 'kept too', 'tmdb:10002', 10002, '2026-11-01');
            INSERT INTO memberMovie (memberId, movieId, addedAt) VALUES (4, 500, '2026-11-01'), (1, 501, '2026-11-01');
            INSERT INTO suggestionHidden VALUES (10003, 'x', 1), (10004, 'y', 1);
            """
        return sql
    }

    static let choices: [NightFilters] = [
        NightFilters(), NightFilters(maxMinutes: 100), NightFilters(ageLimit: "PG-13"),
        NightFilters(ageLimit: "pg", includeUnrated: true), NightFilters(streaming: ServiceMatcher(["netflix", "73"])),
        NightFilters(genres: ["comedy", "SCIENCE FICTION"]),
        NightFilters(
            maxMinutes: 120, ageLimit: "R", includeUnrated: true, streaming: ServiceMatcher(["Netflix", "Pluto TV"]),
            genres: ["Drama", "Family"]),
    ]

    @Test func theShortlistShowsWhatRankingEveryCandidateShows() throws {
        let store = try library()
        var compared = 0
        var shown = 0
        for watchers in [["Ann", "Bob", "Cat", "Dan"], ["Bob"], ["Cat", "Ann"], ["Dan", "Cat"]] {
            for taste in [true, false] {
                let every = try store.suggestionLibrary(members: watchers, region: "US", taste: taste)
                #expect(every.candidates.count > 80)
                for filters in Self.choices {
                    for count in [1, 5, 40, 1_000] {
                        var short = try store.suggestionWatchers(members: watchers, region: "US", taste: taste)
                        short.candidates = try store.suggestionShortlist(
                            for: short, region: "US", count: count, filters: filters)
                        let whole = SuggestReport(every, count: count, filters: filters).render(.json)
                        let read = SuggestReport(short, count: count, filters: filters).render(.json)
                        #expect(read == whole, "\(watchers), taste \(taste), \(filters), count \(count)")
                        if count <= 5 {
                            #expect(short.candidates.count < every.candidates.count / 2, "a shortlist, not all")
                        }
                        compared += 1
                        shown += Suggestions.rank(short, count: count, filters: filters).count
                    }
                }
            }
        }
        #expect(compared == 4 * 2 * Self.choices.count * 4)
        #expect(shown > compared * 2, "most comparisons show suggestions")
    }

    /// The love of each candidate, added watcher by watcher as `Suggestions.rank` adds it, in tiers best first.
    @Test func lovesAddEachWatchersStrongestSeed() {
        func seed(_ member: String, _ movieId: Int64, _ love: Double) -> SuggestionSeed {
            SuggestionSeed(
                member: member, movieId: movieId, remoteId: 0, title: "", year: nil, ownRating: nil, love: love)
        }
        let library = SuggestionLibrary(
            members: ["Ann", "Bob"], seeds: [seed("Ann", 1, 8), seed("Ann", 2, 10), seed("Bob", 3, 7.25)],
            candidates: [], prior: nil)
        let loves = SuggestionShortlist.loves(
            library, recommended: [1: [100, 101], 2: [101], 3: [100, 102], 9: [103]])
        // 100: Ann's 8 and Bob's 7.25; 101: Ann's 10 (not her 8 as well); 102: Bob's; 103: no watcher's seed.
        let (both, annAlone, bobAlone): (Double, Double, Double) = (
            0 + 8.0 / 10 + 7.25 / 10, 0 + 10.0 / 10, 0 + 7.25 / 10
        )
        #expect(loves.levels == [both, annAlone, bobAlone])
        #expect(loves.levels.map { loves.tier($0) } == [[100], [101], [102]])
        #expect(loves.remoteIds == [100, 101, 102])
    }
}
