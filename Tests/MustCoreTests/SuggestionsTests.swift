import Clocks
import Foundation
import MustCore
import TMDBStub
import Testing

/// The suggestions' ranking, pure: the watchers' seeds, how much they loved them, the weighted rating, and tonight's
/// limits with details not yet known.
@Suite struct SuggestionRankTests {
    static func seed(_ member: String, _ movieId: Int64, _ title: String, love: Double, own: Int? = nil)
        -> SuggestionSeed
    {
        SuggestionSeed(
            member: member, movieId: movieId, remoteId: Int(movieId) * 10, title: title, year: nil,
            ownRating: own ?? Int(love), love: love)
    }

    static func movie(_ id: Int, _ title: String, _ average: Double?, _ votes: Int?, seeds: [Int64])
        -> SuggestionCandidate
    {
        SuggestionCandidate(remoteId: id, title: title, voteAverage: average, voteCount: votes, seeds: seeds)
    }

    let prior = NightPrior(mean: 7, votes: 1_000, movies: 10)

    @Test func bothWatchersSeedsBeatOneWatchersAndLoveWeighs() {
        let seeds = [
            Self.seed("Claire", 1, "Spirited Away", love: 9), Self.seed("Sofia", 2, "My Neighbor Totoro", love: 10),
            Self.seed("Sofia", 3, "Up", love: 8),
        ]
        let library = SuggestionLibrary(
            members: ["Claire", "Sofia"], seeds: seeds,
            candidates: [
                // Recommended by one seed each, Sofia's Totoro loved more than Up: 1.0 against 0.8.
                Self.movie(10, "From Up", 9.0, 50_000, seeds: [3]),
                Self.movie(11, "From Totoro", 6.0, 100, seeds: [2]),
                // Both watchers: 0.9 + 1.0, whatever its rating.
                Self.movie(12, "From both", 5.0, 10, seeds: [1, 2, 3]),
            ], prior: prior)
        let ranked = Suggestions.rank(library, count: 5)
        #expect(ranked.map(\.candidate.remoteId) == [12, 11, 10])
        #expect(ranked.map(\.score) == [1.9, 1.0, 0.8])
        #expect(
            ranked[0].why
                == "From both: because Claire loved Spirited Away (9) and Sofia loved My Neighbor Totoro (10); 5.0 from 10 votes"
        )
        #expect(ranked[0].because.map(\.movieId) == [1, 2])
    }

    @Test func equalScoresGoByTheWeightedRatingThenTheTitle() {
        let library = SuggestionLibrary(
            members: ["Ann"], seeds: [Self.seed("Ann", 1, "Seed", love: 8)],
            candidates: [
                Self.movie(20, "Few votes", 9.5, 3, seeds: [1]),  // weighted (3·9.5 + 1000·7) / 1003 ≈ 7.007
                Self.movie(21, "Many votes", 8.0, 9_000, seeds: [1]),  // (9000·8 + 1000·7) / 10000 = 7.9
                Self.movie(22, "B same", 8.0, 9_000, seeds: [1]),
            ], prior: prior)
        #expect(Suggestions.rank(library, count: 5).map(\.candidate.remoteId) == [22, 21, 20])
        #expect(Suggestions.rank(library, count: 1).map(\.candidate.remoteId) == [22])
    }

    @Test func unscorableMoviesAreLeftOutNeverACrash() {
        let library = SuggestionLibrary(
            members: ["Ann"], seeds: [Self.seed("Ann", 1, "Seed", love: 8)],
            candidates: [
                Self.movie(30, "No votes", 0, 0, seeds: [1]), Self.movie(31, "No figures", nil, nil, seeds: [1]),
                Self.movie(32, "Rated", 7, 10, seeds: [1]), Self.movie(33, "No seed of theirs", 9, 99, seeds: [7]),
            ], prior: nil)
        let ranked = Suggestions.rank(library, count: 5)
        #expect(ranked.map(\.candidate.remoteId) == [32])
        #expect(ranked[0].weighted == nil)
    }

    @Test func aMovieWhoseDetailsAreUnknownNeverFitsALimitItMightBreak() {
        var known = Self.movie(40, "Known", 7, 100, seeds: [1])
        (known.detailsKnown, known.runtime, known.certification) = (true, 90, "PG")
        known.providers = [ProviderOffer(kind: .flatrate, id: 8, name: "Netflix")]
        var long = Self.movie(41, "Long", 7, 100, seeds: [1])
        (long.detailsKnown, long.runtime, long.certification, long.providers) = (true, 150, "PG", [])
        var rated = Self.movie(42, "Rated R", 7, 100, seeds: [1])
        (rated.detailsKnown, rated.runtime, rated.certification, rated.providers) = (true, 80, "R", [])
        let unknown = Self.movie(43, "Unknown", 9, 100, seeds: [1])
        var library = SuggestionLibrary(
            members: ["Ann"], seeds: [Self.seed("Ann", 1, "Seed", love: 8)],
            candidates: [known, long, rated, unknown], prior: nil)
        library.certifications = [
            RegionCertification(certification: "G", order: 1), RegionCertification(certification: "PG", order: 2),
            RegionCertification(certification: "R", order: 4),
        ]
        func ids(_ filters: NightFilters) -> [Int] {
            Suggestions.rank(library, count: 9, filters: filters).map(\.candidate.remoteId)
        }
        // No limit: all four, equal in score and (no prior) weighted rating, by title.
        #expect(ids(NightFilters()) == [40, 41, 42, 43])
        #expect(ids(NightFilters(maxMinutes: 100)) == [40, 42])
        #expect(ids(NightFilters(ageLimit: "PG")) == [40, 41])
        #expect(ids(NightFilters(ageLimit: "PG", includeUnrated: true)) == [40, 41])
        #expect(ids(NightFilters(streaming: ServiceMatcher(["Netflix"]))) == [40])
        // A member's own limit applies as tonight's does.
        library.ageLimits = ["Ann": "G"]
        #expect(ids(NightFilters()).isEmpty)
    }

    /// Claire rates Horror 3 points below TMDB and Animation 2 above, ten films each: a lean of -10 / 25 = -0.4,
    /// and beyond it Horror 10 × -2.6 / 15 = -1.73 and Animation 10 × 2.4 / 15 = 1.6 (so -0.17 and +0.16 on the
    /// score; the lean, the same for both, is left out) puts the Animation one, from a seed she loved less, first.
    @Test func tasteMovesAHorrorSuggestionBelowAnAnimationOne() {
        var horror = Self.movie(50, "Night Terror", 8, 5_000, seeds: [1])
        horror.genres = ["Horror"]
        var animation = Self.movie(51, "Paper Moon", 7, 5_000, seeds: [2])
        animation.genres = ["Animation"]
        var library = SuggestionLibrary(
            members: ["Claire"],
            seeds: [Self.seed("Claire", 1, "Alien", love: 9), Self.seed("Claire", 2, "Spirited Away", love: 8)],
            candidates: [animation, horror], prior: prior)
        #expect(Suggestions.rank(library, count: 5).map(\.candidate.remoteId) == [50, 51], "without taste: love")
        let samples =
            Array(repeating: TasteSample(own: 4, average: 7, genres: ["Horror"]), count: 10)
            + Array(repeating: TasteSample(own: 9, average: 7, genres: ["Animation"]), count: 10)
        library.tastes = [MemberTaste(member: "Claire", samples: samples)]
        let ranked = Suggestions.rank(library, count: 5)
        #expect(ranked.map(\.candidate.remoteId) == [51, 50])
        #expect(abs(ranked[0].score - (0.8 + 24.0 / 15 / 10)) < 1e-9)
        #expect(abs(ranked[1].score - (0.9 - 26.0 / 15 / 10)) < 1e-9)
        // The reason is the lift of the Animation one; her Horror shift, against the other, gives none.
        #expect(ranked[0].taste == ["Claire rates animation higher than usual (10 films, +1.6)"])
        #expect(ranked[0].why.hasSuffix("; Claire rates animation higher than usual (10 films, +1.6)"))
        #expect(ranked[1].taste == [])
        // A watcher with no taste for its genres moves nothing: Sofia halves Claire's shift.
        library.tastes.append(MemberTaste(member: "Sofia", samples: []))
        #expect(abs(Suggestions.rank(library, count: 5)[1].score - (0.9 - 26.0 / 15 / 20)) < 1e-9)
    }
}

/// The pace alone, on made-up times: the bucket, the share of a run's own requests, the first run.
@Suite struct SuggestionPaceTests {
    let now = Date(timeIntervalSince1970: 1_790_000_000)
    func ago(_ seconds: Double) -> Date { now.addingTimeInterval(-seconds) }

    @Test func theBucketRefillsContinuouslyUpToAQuarterOfTheDay() {
        let pace = SuggestionPace(perDay: 60)
        #expect(pace.capacity == 15)
        #expect(pace.available(spent: [], now: now) == 15)
        // 15 spent an hour ago: 2.5 back since.
        let hourAgo = Array(repeating: ago(3_600), count: 15)
        #expect(abs(pace.available(spent: hourAgo, now: now) - 2.5) < 1e-9)
        // Six hours later it is full again, and never holds more.
        #expect(pace.available(spent: hourAgo, now: now.addingTimeInterval(6 * 3_600)) == 15)
        // A debt: the whole day's budget spent at once (as before the pace) is paid back first.
        let debt = Array(repeating: ago(3_600), count: 60)
        #expect(abs(pace.available(spent: debt, now: now) - (15 - 60 + 2.5)) < 1e-9)
        #expect(pace.allowance(spent: debt, now: now, ownRequests: 1_000) == 0)
        // Requests older than the store's two days no longer count; one stamped ahead counts as spent now.
        #expect(pace.available(spent: [ago(3 * 86_400)], now: now) == 15)
        #expect(pace.available(spent: [now.addingTimeInterval(600)], now: now) == 14)
    }

    @Test func aRunSpendsAShareOfItsOwnRequests() {
        let pace = SuggestionPace(perDay: 60)
        let earlier = [ago(12 * 3_600)]  // the bucket is full again, and this is no first run
        #expect(pace.allowance(spent: earlier, now: now, ownRequests: 0) == 2)
        #expect(pace.allowance(spent: earlier, now: now, ownRequests: 66) == 2)
        #expect(pace.allowance(spent: earlier, now: now, ownRequests: 250) == 10)
        #expect(pace.allowance(spent: earlier, now: now, ownRequests: 800) == 15)
        // The first run in two days may spend the bucket, whatever its own requests.
        #expect(pace.allowance(spent: [], now: now, ownRequests: 0) == 15)
        // Only what refilled: 1.25 tokens since a spent bucket 30 minutes ago.
        let spentOut = Array(repeating: ago(30 * 60), count: 15)
        #expect(pace.allowance(spent: spentOut, now: now, ownRequests: 800) == 1)
        #expect(SuggestionPace(perDay: 0).allowance(spent: [], now: now, ownRequests: 800) == 0)
        // A small budget still lets a request through.
        #expect(SuggestionPace(perDay: 2).capacity == 1)
    }
}

/// The suggestions' background work against the stub, in-process with a real store: the daily budget over a simulated
/// week, counted from the stub's requests by path; bad answers leave the other suggestions intact.
@Suite final class SuggestionWorkTests {
    let stub: TMDBStubServer
    let directory = TemporaryDirectory("mustc-suggest")
    let store: Store
    let clock = Clocks.TestClock<Duration>()
    let time: TimeSource
    static let start = Date(timeIntervalSince1970: 1_790_000_000)
    static let synthetic = StubMovie.synthetic(61)
    /// The synthetic movies with votes (the first has none, and is no suggestion).
    static let ids = Array(synthetic.map(\.id).dropFirst())

    init() throws {
        stub = TMDBStubServer(movies: StubMovie.classics + Self.synthetic)
        // Spirited Away recommends Amélie and 19 synthetic movies, Totoro and Up 20 each (a page holds 20),
        // overlapping: 45 in all.
        let ids = Self.ids
        stub.setRecommendations(id: 129, [194] + Array(ids[0..<19]))
        stub.setRecommendations(id: 8392, Array(ids[10..<30]))
        stub.setRecommendations(id: 14160, Array(ids[25..<45]))
        try stub.start()
        store = try Store(path: directory.file("mustc.sqlite"), logger: quietLogger)
        time = TimeSource.test(start: Self.start, clock: clock)
    }

    deinit { stub.stop() }

    /// `paced`: the day's budget spread over the runs as the fetch spreads it (`SuggestionPace`); otherwise a run
    /// may spend all that is left of the day's budget at once (the worst case for the day's totals), as every run
    /// did before the pace.
    func work(requestsPerDay: Int = 60, paced: Bool = false) -> SuggestionWork {
        var config = Config()
        config.suggest.requestsPerDay = requestsPerDay
        var settings = SuggestionWork.Settings(config)
        if !paced { settings.pace.capacity = Double(requestsPerDay) }
        // The HTTP layer on the real clock (its timeouts are curl's); the budget's days on the test clock.
        let stack = CurlTransport.stack(time: .system)
        let client = TMDBClient(
            baseURL: stub.baseURL, credentials: .apiKey(stub.apiKey), timeout: 5,
            retry: RetryPolicy(maxRetries: 0, baseDelay: 0.01, maxDelay: 0.1), transport: stack.transport,
            executor: stack.executor, time: .system, logger: quietLogger)
        return SuggestionWork(store: store, client: client, settings: settings, logger: quietLogger)
    }

    /// A run after a fetch that made `ownRequests` requests of its own: with the default, as many as the day's
    /// budget and more.
    func run(_ work: SuggestionWork, ownRequests: Int = 10_000) async -> SuggestionWork.Tally {
        await work.run(time: time, ownRequests: ownRequests)
    }

    /// Claire loved Spirited Away (9); Sofia loved Totoro (10) and Up (8) and keeps Amélie, unwatched.
    func family() throws {
        let now = time.now()
        for (member, id, rating) in [("Claire", 129, 9), ("Sofia", 8392, 10), ("Sofia", 14160, 8)] {
            _ = try store.link(member: member, movie: .tmdb(id), now: now)
            _ = try store.markWatched(
                member: member, [.tmdb(id)], mark: WatchMark(watched: true, rating: rating), now: now)
        }
        _ = try store.link(member: "Sofia", movie: .tmdb(194), now: now)
    }

    func requests(_ suffix: String) -> Int { stub.requests.filter { $0.path.hasSuffix(suffix) }.count }
    var detailsRequests: Int { stub.requests.filter { $0.query["append_to_response"] != nil }.count }

    @Test func theBudgetHoldsOverASimulatedWeek() async throws {
        try family()
        let work = work()
        var spent: [(at: Double, recommendations: Int, details: Int)] = []
        // A run every two hours for seven days.
        for _ in 0..<84 {
            let (recommendationsBefore, detailsBefore) = (requests("/recommendations"), detailsRequests)
            _ = await run(work)
            spent.append(
                (
                    time.now().timeIntervalSince(Self.start), requests("/recommendations") - recommendationsBefore,
                    detailsRequests - detailsBefore
                ))
            await clock.advance(by: .seconds(2 * 3600))
        }
        // Every request the stub saw was one of these two kinds.
        #expect(stub.requests.count == requests("/recommendations") + detailsRequests)
        // Each seed's recommendations once in the week; 40 details the first day, none of Amélie (kept).
        #expect(requests("/recommendations") == 3)
        #expect(spent[0].recommendations == 3 && spent[0].details == 40)
        #expect(!stub.requests.contains { $0.path.hasSuffix("/movie/194") })
        for run in spent {
            let window = spent.filter { $0.at >= run.at - 86_400 && $0.at <= run.at }
            let details = window.reduce(0) { $0 + $1.details }
            #expect(details <= 40, "\(details) details in the day up to \(run.at)")
            #expect(window.reduce(0) { $0 + $1.recommendations } + details <= 60)
        }
        // The 45 candidates all got details within the week, and stale ones were read again.
        #expect(Set(stub.requests.filter { $0.query["append_to_response"] != nil }.map(\.path)).count == 45)
        #expect(detailsRequests > 45)
        let library = try store.suggestionLibrary(members: ["Claire", "Sofia"], region: "US")
        #expect(library.candidates.count == 45 && library.candidates.allSatisfy(\.detailsKnown))
    }

    /// The fetch's pace: a new family's first run spends a quarter of the day's budget (15), and every run after
    /// it one request for every 25 of its own, at least 2, within what refilled (60 a day): suggestions arrive over
    /// the day, not at once, and the day's totals hold.
    @Test func theWorkIsPacedOverTheDay() async throws {
        try family()
        let work = work(paced: true)
        var spent: [(at: Double, requests: Int, details: Int)] = []
        // The timer's fetch every 15 minutes for two days, each run making 25 requests of its own.
        for _ in 0..<(2 * 96) {
            let (before, detailsBefore) = (stub.requests.count, detailsRequests)
            _ = await run(work, ownRequests: 25)
            let at = time.now().timeIntervalSince(Self.start)
            spent.append((at, stub.requests.count - before, detailsRequests - detailsBefore))
            await clock.advance(by: .seconds(15 * 60))
        }
        #expect(spent[0].requests == 15 && requests("/recommendations") == 3)
        #expect(spent.dropFirst().allSatisfy { $0.requests <= 2 }, "\(spent.map(\.requests))")
        for run in spent {
            let day = spent.filter { $0.at > run.at - 86_400 && $0.at <= run.at }
            #expect(day.reduce(0) { $0 + $1.requests } <= 60)
            #expect(day.reduce(0) { $0 + $1.details } <= 40)
        }
        // The first run emptied the bucket: the next six hours spend what refills in them (2.5 an hour), no more,
        // and the pace keeps up with it.
        let sixHours = spent.filter { $0.at > 0 && $0.at <= 6 * 3_600 }.reduce(0) { $0 + $1.requests }
        #expect(sixHours <= 15 && sixHours >= 13, "\(sixHours) in the six hours after the first run")
        // Spread: every 3 hours of the first day after the first run brings some of the day's 40 details.
        for start in stride(from: 900.0, to: 86_400 - 3 * 3_600, by: 3 * 3_600)
        where spent.filter({ $0.at < start }).reduce(0, { $0 + $1.details }) < 40 {
            let block = spent.filter { $0.at >= start && $0.at < start + 3 * 3_600 }
            #expect(block.reduce(0) { $0 + $1.details } > 0, "none in the 3 hours from \(start)")
        }
        // The 45 candidates all got their details within the two days.
        #expect(Set(stub.requests.filter { $0.query["append_to_response"] != nil }.map(\.path)).count == 45)
    }

    @Test func aSmallerBudgetIsShared() async throws {
        try family()
        let tally = await run(work(requestsPerDay: 10))
        #expect(tally.recommendations == 3 && tally.details == 7)
        #expect(stub.requests.count == 10)
        // The same day: nothing left.
        await clock.advance(by: .seconds(3600))
        #expect(await run(work(requestsPerDay: 10)) == SuggestionWork.Tally())
        #expect(stub.requests.count == 10)
    }

    @Test func badAnswersLeaveTheOtherSuggestions() async throws {
        try family()
        stub.inject(.malformedJSON, on: .recommendations(id: 129), times: 1)
        // A recommended movie that TMDB no longer knows when its details are asked.
        // Recommended by Totoro (asked now) and by Spirited Away (asked tomorrow): its details come at the second run.
        let gone = Self.ids[12]
        let tally = await run(work(requestsPerDay: 5))
        #expect(tally.recommendations == 2 && tally.failed == 1)
        stub.remove(id: gone)
        await clock.advance(by: .seconds(86_400 + 60))
        var library = try store.suggestionLibrary(members: ["Claire", "Sofia"], region: "US")
        #expect(library.candidates.count == 35)
        #expect(library.candidates.contains { $0.remoteId == gone })
        // The failed seed is due again after a day; the answered ones are not.
        #expect(try store.seedsDue(now: time.now(), every: 7 * 86_400, retry: 86_400).map(\.remoteId) == [129])
        _ = await run(work(requestsPerDay: 60))
        library = try store.suggestionLibrary(members: ["Claire", "Sofia"], region: "US")
        // Spirited Away's 20 joined; the one TMDB answered 404 for left; Amélie, which Sofia keeps, never appears.
        #expect(!library.candidates.contains { $0.remoteId == gone || $0.remoteId == 194 })
        #expect(library.candidates.count == 44)
        #expect(try store.suggestionLibrary(members: ["Claire"], region: "US").candidates.count == 18)
    }

    @Test func suggestionsNeverIncludeAMovieTheFamilyKeepsOrWatched() async throws {
        try family()
        _ = await run(work())
        let kept = Self.ids[0]
        _ = try store.link(member: "Leo", movie: .tmdb(kept), now: time.now())
        let watched = Self.ids[1]
        _ = try store.link(member: "Leo", movie: .tmdb(watched), now: time.now())
        _ = try store.markWatched(member: "Leo", [.tmdb(watched)], mark: WatchMark(watched: true), now: time.now())
        let library = try store.suggestionLibrary(members: ["Claire", "Sofia"], region: "US")
        let shown = Set(Suggestions.rank(library, count: 100).map(\.candidate.remoteId))
        #expect(shown.count == 43)
        #expect(shown.isDisjoint(with: [kept, watched, 194, 129, 8392, 14160]))
        // "Not for us" holds until forgotten.
        #expect(try store.hideSuggestion(.tmdb(Self.ids[2]), now: time.now()).count == 1)
        #expect(try store.suggestionLibrary(members: ["Claire"], region: "US").candidates.count == 16)
        #expect(try store.forgetHiddenSuggestions() == 1)
        #expect(try store.suggestionLibrary(members: ["Claire"], region: "US").candidates.count == 17)
    }

    /// The suggestions' posters come with their details, from the image host, onto the library's shelf; a movie no
    /// seed recommends any more gives up its poster first when the shelf is over its bound, as a movie nobody
    /// keeps does.
    @Test func suggestionPostersAreDownloadedAndPrunedWithTheOthers() async throws {
        let (old, new) = (Array(Self.ids[0..<3]), Self.ids[3])
        stub.setRecommendations(id: 129, old)
        stub.setRecommendations(id: 8392, [])
        stub.setRecommendations(id: 14160, [])
        try family()
        let shelf = PosterShelf(databasePath: store.path)
        func setup(maxBytes: Int64) -> PosterDownloads.Setup {
            let client = PosterClient(
                imageBaseURL: stub.imageBaseURL, timeout: 5,
                transport: CurlTransport.make(maxConnections: 2, time: .system))
            return PosterDownloads.Setup(
                shelf: shelf, client: client, settings: .init(maxBytes: maxBytes, maxConcurrentDownloads: 2),
                logger: quietLogger)
        }
        func onShelf(_ id: Int) -> Bool { shelf.has("/poster\(id).png", size: .w185) }
        var first = work()
        first.posters = setup(maxBytes: 10_000_000)
        #expect(await run(first).details == 3)
        #expect(old.allSatisfy(onShelf))
        #expect(
            Set(stub.imageRequests.map(\.path))
                == Set(old.flatMap { ["/t/p/w185/poster\($0).png", "/t/p/w342/poster\($0).png"] }))
        #expect(stub.imageRequests.allSatisfy { $0.query["api_key"] == nil })
        // A week on, Spirited Away recommends another movie: the old three are no suggestions, and with room for
        // one poster, theirs go and the new one's stays.
        stub.setRecommendations(id: 129, [new])
        await clock.advance(by: .seconds(8 * 86_400))
        let room = Int64(StubPoster.png(id: new, width: 185).count + StubPoster.png(id: new, width: 342).count)
        var second = work()
        second.posters = setup(maxBytes: room)
        #expect(await run(second).details == 1)
        #expect(onShelf(new) && !old.contains(where: onShelf))
    }
}
