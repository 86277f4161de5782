import Foundation

/// Refreshes one movie: details by remote id (or a search first when it has none), compared with what is stored.
/// It reads nothing and writes nothing itself; it returns the outcome and the row change, if any, to apply.
public struct UpdateMovieOperation: Sendable {
    public var movie: StoredMovie
    public var client: TMDBClient
    /// When the appended blocks are due (nil: never asked for).
    public var extras: ExtrasPlan?

    public init(movie: StoredMovie, client: TMDBClient, extras: ExtrasPlan? = nil) {
        self.movie = movie
        self.client = client
        self.extras = extras
    }

    /// What TMDB's answer said of the poster, for the run's downloads: the path (nil when it named none, or one
    /// `PosterPath` refused), and whether it named one refused: a malformed answer about this movie's poster,
    /// which changes nothing about its figures.
    public struct PosterNote: Sendable, Equatable {
        public var path: String?
        public var malformed = false

        init(_ remote: RemoteMovie?) {
            path = remote?.posterPath
            malformed = remote?.posterPathMalformed ?? false
        }
    }

    public func run() async -> (FetchOutcome, [MovieWrite]) {
        let (outcome, writes, _) = await check()
        return (outcome, writes)
    }

    /// The outcome, the row changes (the figures or the recovery, then the extras when they were asked for), and
    /// what the answer said of the poster.
    public func check() async -> (FetchOutcome, [MovieWrite], PosterNote) {
        do {
            guard let remoteId = movie.remoteId else {
                let (outcome, write) = try await resolve()
                var remote: RemoteMovie?
                switch write {
                case .resolved(_, let resolved)?, .remakes(_, let resolved, _)?: remote = resolved
                default: break
                }
                return (outcome, write.map { [$0] } ?? [], PosterNote(remote))
            }
            let region = extras.flatMap { $0.isDue(for: movie) ? $0.region : nil }
            let (remote, found) = try await client.details(id: remoteId, extrasRegion: region)
            var (outcome, writes) = compare(remote)
            if let region { writes.append(.extras(movieId: movie.id, found ?? MovieExtras(), region: region)) }
            return (outcome, writes, PosterNote(remote))
        } catch let error as TMDBError {
            let (outcome, write) = failed(FetchFailure(error))
            return (outcome, write.map { [$0] } ?? [], PosterNote(nil))
        } catch {
            // Only cancellation reaches here: the run was stopped or ran out of budget.
            return (.skipped(.cancelled), [], PosterNote(nil))
        }
    }

    /// Details compared with what is stored.
    private func compare(_ answer: RemoteMovie) -> (FetchOutcome, [MovieWrite]) {
        // A figure sent as null (or left out) is a missing figure, not a new one: the stored one stays.
        var remote = answer
        remote.popularity = answer.popularity ?? movie.popularity
        remote.voteAverage = answer.voteAverage ?? movie.voteAverage
        remote.voteCount = answer.voteCount ?? movie.voteCount
        guard
            remote.sameRatings(popularity: movie.popularity, voteAverage: movie.voteAverage, voteCount: movie.voteCount)
        else { return (.changed, [.ratings(movieId: movie.id, remote)]) }
        var writes: [MovieWrite] = []
        // A poster path is no rating: the movie is unchanged, and only a new path costs a write.
        if let path = remote.posterPath, path != movie.posterPath {
            writes.append(.poster(movieId: movie.id, path: path))
        } else if movie.fetchError != nil {
            writes.append(.recovered(movieId: movie.id))
        }
        // Only details carry `imdb_id`: a movie linked by its title learns it here.
        if let imdbId = remote.imdbId, movie.imdbId == nil { writes.append(.imdbId(movieId: movie.id, imdbId)) }
        return (.unchanged, writes)
    }

    /// Resolves only what names one movie: an exact title (and year) match, the most popular of remakes with the
    /// same title, or an IMDb id TMDB knows. A fuzzy result is never taken; the movie waits for `mustc resolve`.
    private func resolve() async throws -> (FetchOutcome, MovieWrite?) {
        let named = try? MovieReference.parse(movie.title)
        if case .imdb(let imdbId)? = named {
            guard let remote = try await client.find(imdbId: imdbId) else {
                return failed(FetchFailure(kind: .notFound, message: "TMDB knows no movie with IMDb id \(imdbId)"))
            }
            return (.changed, .resolved(movieId: movie.id, remote))
        }
        // A title typed as "Dune (1984)" before years were kept still searches for that year.
        var (title, year) = (movie.title, movie.year)
        if year == nil, case .title(let bare, let given?)? = named { (title, year) = (bare, given) }
        let match = try await client.match(title: title, year: year)
        guard let remote = match.taken else {
            let shown = MovieName.shown(title, year)
            let candidates = match.candidates
            guard !candidates.isEmpty else {
                return failed(FetchFailure(kind: .notFound, message: "TMDB found nothing for \"\(shown)\""))
            }
            let listed = candidates.map { "\(MovieName.shown($0.title ?? "?", $0.year)) tmdb:\($0.id)" }
                .joined(separator: ", ")
            let message =
                if case .tied = match {
                    "\(candidates.count) TMDB movies are titled exactly \"\(shown)\", equally popular (\(listed)); "
                        + "pick one with mustc resolve"
                } else {
                    "no TMDB title matches \"\(shown)\" exactly (closest: \(listed)); pick one with mustc resolve"
                }
            return failed(FetchFailure(kind: .notFound, message: message))
        }
        // Whether a remake may be taken depends on a held watch, which the store knows when it writes.
        if year == nil, case .mostPopular(_, let others) = match {
            return (.changed, .remakes(movieId: movie.id, remote, others: others))
        }
        return (.changed, .resolved(movieId: movie.id, remote))
    }

    /// Records the reason on the movie only when it is news, so a repeat failure costs no write;
    /// a rejected key or a wrong address is the run's problem, not the movie's.
    private func failed(_ failure: FetchFailure) -> (FetchOutcome, MovieWrite?) {
        switch failure.kind {
        case .unauthorized, .wrongAddress:
            return (.failed(failure), nil)
        case .notFound:
            return (.failed(failure), .failure(movieId: movie.id, message: failure.message, notFound: true))
        case .unavailable:
            let write =
                failure.message == movie.fetchError
                ? nil : MovieWrite.failure(movieId: movie.id, message: failure.message, notFound: false)
            return (.failed(failure), write)
        }
    }
}

/// When a check asks for `release_dates` and `watch/providers` with the details: at a movie's first check, when
/// what it has is older than `every` or was read for another region, and on every check of a forced run. Pure.
public struct ExtrasPlan: Sendable, Equatable {
    public var region: String
    public var every: TimeInterval
    public var force: Bool
    public var now: Date

    public init(region: String, every: TimeInterval, force: Bool, now: Date) {
        (self.region, self.every, self.force, self.now) = (region, every, force, now)
    }

    public func isDue(for movie: StoredMovie) -> Bool {
        guard !force, let checkedAt = movie.extrasCheckedAt, movie.extrasRegion == region else { return true }
        return now.timeIntervalSince(checkedAt) >= every
    }
}
