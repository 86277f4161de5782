import Foundation

/// Refreshes one movie: details by remote id (or a search first when it has none), compared with what is stored.
/// It reads nothing and writes nothing itself; it returns the outcome and the row change, if any, to apply.
public struct UpdateMovieOperation: Sendable {
    public var movie: StoredMovie
    public var client: TMDBClient

    public init(movie: StoredMovie, client: TMDBClient) {
        self.movie = movie
        self.client = client
    }

    public func run() async -> (FetchOutcome, MovieWrite?) {
        do {
            guard let remoteId = movie.remoteId else { return try await resolve() }
            let remote = try await client.details(id: remoteId)
            if remote.sameRatings(
                popularity: movie.popularity, voteAverage: movie.voteAverage, voteCount: movie.voteCount)
            {
                return (.unchanged, movie.fetchError == nil ? nil : .recovered(movieId: movie.id))
            }
            return (.changed, .ratings(movieId: movie.id, remote))
        } catch let error as TMDBError {
            return failed(FetchFailure(error))
        } catch {
            // Only cancellation reaches here: the run was stopped or ran out of budget.
            return (.skipped(.cancelled), nil)
        }
    }

    private func resolve() async throws -> (FetchOutcome, MovieWrite?) {
        guard let remote = try await client.lookUp(title: movie.title) else {
            return failed(FetchFailure(kind: .notFound, message: "TMDB found nothing for \"\(movie.title)\""))
        }
        return (.changed, .resolved(movieId: movie.id, remote))
    }

    /// Records the reason on the movie only when it is news, so a repeat failure costs no write;
    /// a rejected key is the run's problem, not the movie's.
    private func failed(_ failure: FetchFailure) -> (FetchOutcome, MovieWrite?) {
        switch failure.kind {
        case .unauthorized:
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
