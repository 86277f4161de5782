import Foundation
import Logging

/// The fetch's suggestion work, after the ratings and only when the run finished them: TMDB's
/// recommendations of the seeds that are due, then the details of the best candidates, all within a daily budget
/// of requests so that suggestions never crowd out the ratings.
public struct SuggestionWork: Sendable {
    public struct Settings: Sendable, Equatable {
        /// Recommendations and details together, over any 24 hours (`suggest.requestsPerDay`); 0 turns it off.
        public var requestsPerDay: Int
        /// Of those, at most this many candidate details.
        public var detailsPerDay = 40
        /// A seed's recommendations are asked again after this long; after a failed ask, after `retry`.
        public var seedEvery: TimeInterval = 7 * 86_400
        public var retry: TimeInterval = 86_400
        /// A candidate's details are read again after this long (`family.availabilityEvery`, as linked movies).
        public var detailsEvery: TimeInterval
        public var region: String
        /// How much of the day's budget one run may spend (`SuggestionPace`): the budget spread over the day's runs.
        public var pace: SuggestionPace

        public init(_ config: Config) {
            requestsPerDay = config.suggest.requestsPerDay
            detailsEvery = config.family.availabilityEvery
            region = config.family.region
            pace = SuggestionPace(perDay: config.suggest.requestsPerDay)
        }
    }

    /// What one run's suggestion work did.
    public struct Tally: Sendable, Equatable {
        public var recommendations = 0
        public var details = 0
        public var failed = 0
        public init() {}
    }

    public var store: Store
    public var client: TMDBClient
    public var settings: Settings
    public var logger: Logger
    /// The suggestions' posters, downloaded as the library's are and kept within the same bound; nil: none.
    public var posters: PosterDownloads.Setup?

    public init(store: Store, client: TMDBClient, settings: Settings, logger: Logger) {
        (self.store, self.client, self.settings, self.logger) = (store, client, settings, logger)
    }

    /// Spends this run's share of what is left of the day's budget (`SuggestionPace`, after a run that made
    /// `ownRequests` TMDB requests of its own): seeds first (a candidate needs a seed), then details. A store
    /// failure ends the work; TMDB's failures are counted and the others go on.
    public func run(time: TimeSource, ownRequests: Int) async -> Tally {
        let now = time.now
        var tally = Tally()
        do {
            let log = try store.suggestionSpend(
                since: now().addingTimeInterval(-SuggestionPace.memory), daySince: now().addingTimeInterval(-86_400))
            let spent = log.day
            let paced = settings.pace.allowance(spent: log.times, now: now(), ownRequests: ownRequests)
            var left = min(max(settings.requestsPerDay - spent.total, 0), paced)
            guard left > 0 else { return tally }
            let seeds = try store.seedsDue(now: now(), every: settings.seedEvery, retry: settings.retry)
            for seed in seeds.prefix(left) {
                await recommend(seed, now: now, tally: &tally)
            }
            left -= min(seeds.count, left)
            let detailsLeft = min(left, max(settings.detailsPerDay - spent.details, 0))
            guard detailsLeft > 0 else { return tally }
            let wanted = try store.suggestionsNeedingDetails(
                region: settings.region, staleBefore: now().addingTimeInterval(-settings.detailsEvery),
                limit: detailsLeft)
            var paths: [String] = []
            for remoteId in wanted {
                if let path = await readDetails(remoteId, now: now, tally: &tally) { paths.append(path) }
            }
            await downloadPosters(paths)
        } catch {
            logger.warning("suggestions: \(error)")
        }
        return tally
    }

    /// The posters of the suggestions whose details this run read, those not on the shelf yet downloaded. Only
    /// theirs: a run of the fetch's pace reads a few details, and asking for every suggestion's poster started the
    /// downloads (a listing of the whole shelf) and stat'ed two files a suggestion on every such run. A poster that
    /// failed is asked again with its movie's next details.
    private func downloadPosters(_ paths: [String]) async {
        guard let posters else { return }
        let missing = paths.filter { path in PosterSize.allCases.contains { !posters.shelf.has(path, size: $0) } }
        guard !missing.isEmpty else { return }
        // Not listed: these paths were just found missing, and the listing is of every poster kept (1,600 files
        // for the benchmark's 800 movies, 1.2 ms of CPU, perf record).
        let downloads = posters.start(listing: false)
        for path in missing { downloads.want(path) }
        let store = store
        _ = await downloads.finish(inUse: { try? store.posterPathsInUse() })
    }

    private func recommend(_ seed: SuggestionSeed, now: @Sendable () -> Date, tally: inout Tally) async {
        do {
            let answer = try await client.recommendations(id: seed.remoteId)
            try store.recordRecommendations(seed: seed.movieId, answer.movies, now: now())
            tally.recommendations += 1
        } catch {
            tally.failed += 1
            logger.info("suggestions: no recommendations for tmdb:\(seed.remoteId): \(error)")
            try? store.recordRecommendationsFailed(seed: seed.movieId, now: now())
        }
    }

    /// Reads and stores a candidate's details; returns its poster's path.
    private func readDetails(_ remoteId: Int, now: @Sendable () -> Date, tally: inout Tally) async -> String? {
        do {
            let (movie, extras) = try await client.details(id: remoteId, extrasRegion: settings.region)
            try store.recordSuggestionDetails(
                remoteId: remoteId, movie, extras: extras, region: settings.region, now: now())
            tally.details += 1
            return movie.posterPath
        } catch {
            tally.failed += 1
            let gone: Bool
            if case .notFound = error as? TMDBError { gone = true } else { gone = false }
            logger.info("suggestions: no details for tmdb:\(remoteId): \(error)")
            try? store.recordSuggestionDetailsFailed(remoteId: remoteId, gone: gone, now: now())
            return nil
        }
    }
}
