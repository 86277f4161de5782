import Foundation
import Logging

/// The fetch's suggestion work (issue 34), after the ratings and only when the run finished them: TMDB's
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

        public init(_ config: Config) {
            requestsPerDay = config.suggest.requestsPerDay
            detailsEvery = config.family.availabilityEvery
            region = config.family.region
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

    /// Spends what is left of the day's budget: seeds first (a candidate needs a seed), then details. A store
    /// failure ends the work; TMDB's failures are counted and the others go on.
    public func run(time: TimeSource) async -> Tally {
        let now = time.now
        var tally = Tally()
        do {
            let spent = try store.suggestionSpend(since: now().addingTimeInterval(-86_400))
            var left = max(settings.requestsPerDay - spent.total, 0)
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
            for remoteId in wanted { await readDetails(remoteId, now: now, tally: &tally) }
            if !wanted.isEmpty { await downloadPosters() }
        } catch {
            logger.warning("suggestions: \(error)")
        }
        return tally
    }

    /// The posters of the suggestions whose details are known, those not on the shelf yet downloaded.
    private func downloadPosters() async {
        guard let posters, let paths = try? store.suggestionPosterPaths() else { return }
        let downloads = posters.start()
        // A path whose files are all on the shelf costs one stat(2) a size, no request.
        for path in paths { downloads.want(path) }
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

    private func readDetails(_ remoteId: Int, now: @Sendable () -> Date, tally: inout Tally) async {
        do {
            let (movie, extras) = try await client.details(id: remoteId, extrasRegion: settings.region)
            try store.recordSuggestionDetails(
                remoteId: remoteId, movie, extras: extras, region: settings.region, now: now())
            tally.details += 1
        } catch {
            tally.failed += 1
            let gone: Bool
            if case .notFound = error as? TMDBError { gone = true } else { gone = false }
            logger.info("suggestions: no details for tmdb:\(remoteId): \(error)")
            try? store.recordSuggestionDetailsFailed(remoteId: remoteId, gone: gone, now: now())
        }
    }
}
