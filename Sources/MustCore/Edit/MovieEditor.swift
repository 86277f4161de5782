import Foundation

/// What TMDB said about a movie just linked, and what was stored: the one answer `mustc add` prints and the
/// page's add form shows.
public enum LookupOutcome: Sendable, Equatable {
    /// One TMDB movie is the one named (exact title, or an id): taken.
    case taken(RemoteMovie, ResolveOutcome)
    /// Several TMDB movies have the title (remakes): the most popular was taken; `others` may be picked instead.
    case remakes(asked: MovieReference, RemoteMovie, ResolveOutcome, others: [RemoteMovie])
    /// No TMDB title is exactly the one asked, or (`tied`) several are and none was taken (none is more popular,
    /// or a media server named a bare title: `remakesNeedAChoice`): the candidates are saved for a choice.
    case needsChoice(asked: MovieReference, candidates: [RemoteMovie], tied: Bool)
    /// TMDB's search found nothing for the title.
    case nothingFound(asked: MovieReference)
    /// TMDB knows no movie with this IMDb id.
    case unknownIMDb(String)
    /// TMDB answered 404 for the reference (an unknown TMDB id).
    case unknownToTMDB(MovieReference)
    /// TMDB could not answer (unreachable, refused, rate limited past the retries); the link is kept and the next
    /// fetch looks the movie up.
    case unavailable(TMDBError)
}

/// The edits the commands and the page share: link, look up and match, settle, unlink. Every write goes through
/// `Store`'s named methods, and every lookup through the client it is given (with its rate limiter and retries),
/// so `mustc add` and the page's add form apply the same rules.
public struct MovieEditor: Sendable {
    public var store: Store
    /// A lookup counts as the movie's first check, so the next fetch leaves it alone until this says it is due.
    public var checks: MovieSchedulePolicy
    /// The dates links and checks are written with, and the jitter of the first check.
    public var time: TimeSource

    public init(store: Store, checks: MovieSchedulePolicy, time: TimeSource) {
        self.store = store
        self.checks = checks
        self.time = time
    }

    private func clock() -> Date { time.now() }

    /// Links the member (created if new) to the movie the reference names (created if new).
    /// A movie named by a TMDB id that was suggested keeps the facts its card showed, before TMDB is asked.
    public func add(member: String, movie reference: MovieReference) throws(StoreError) -> LinkOutcome {
        let link = try store.link(member: member, movie: reference, now: clock())
        if case .tmdb(let id) = reference { try store.adoptSuggestionFacts(movieId: link.movieId, remoteId: id) }
        return link
    }

    /// Whether a just-linked movie still needs TMDB: a movie named by its id has the id before TMDB was asked, and
    /// still needs its title and figures.
    public static func needsLookup(_ link: LinkOutcome) -> Bool { link.remoteId == nil || link.updatedAt == nil }

    /// Asks TMDB which movie a just-linked reference names and stores the answer. TMDB's failures are outcomes,
    /// not errors: the link is already saved. Throws only the store's errors. The answer is written on a Dispatch
    /// thread, never a cooperative one: a webhook's lookup writes while other events hold the writer,
    /// and the cooperative pool, as small as the machine's cores, is where `serve` answers every request.
    /// - Parameter remakesNeedAChoice: a bare title (no year) that several TMDB movies have exactly takes none of
    ///   them: the candidates are saved for a choice (`tied`). A media server's event has nobody to tell that the
    ///   most popular was taken, so its lookup asks this.
    public func lookUp(
        _ link: LinkOutcome, named reference: MovieReference, client: TMDBClient, remakesNeedAChoice: Bool = false
    ) async throws -> LookupOutcome {
        do {
            switch reference {
            case .tmdb(let id):
                let remote = try await client.details(id: id)
                return try await stored(link, asked: reference, .exact(remote))
            case .imdb(let id):
                guard let remote = try await client.find(imdbId: id) else { return .unknownIMDb(id) }
                return try await stored(link, asked: reference, .exact(remote))
            case .title(let title, let year):
                var found = try await client.match(title: title, year: year)
                if remakesNeedAChoice, year == nil, case .mostPopular(let taken, let others) = found {
                    found = .tied([taken] + others)
                }
                return try await stored(link, asked: reference, found)
            }
        } catch TMDBError.notFound {
            return .unknownToTMDB(reference)
        } catch let error as TMDBError {
            return .unavailable(error)
        }
    }

    /// `match`, on a Dispatch thread.
    private func stored(
        _ link: LinkOutcome, asked: MovieReference, _ found: MovieMatch<RemoteMovie>
    ) async throws(StoreError) -> LookupOutcome {
        try await BlockingWork.runThrowing { [self] () throws(StoreError) in try match(link, asked: asked, found) }
    }

    private func match(_ link: LinkOutcome, asked: MovieReference, _ match: MovieMatch<RemoteMovie>)
        throws(StoreError) -> LookupOutcome
    {
        switch match {
        case .exact(let remote):
            return .taken(remote, try take(remote, movieId: link.movieId))
        case .mostPopular(let remote, let others):
            return .remakes(asked: asked, remote, try take(remote, movieId: link.movieId), others: others)
        case .needsChoice(let candidates) where candidates.isEmpty:
            // Nothing to choose from: a server's held watch counts on the movie as it is.
            try store.applyHeldMarks(movieId: link.movieId)
            return .nothingFound(asked: asked)
        case .needsChoice(let candidates), .tied(let candidates):
            try store.saveCandidates(
                movieId: link.movieId,
                candidates.map { MovieCandidate(remoteId: $0.id, title: $0.title ?? "untitled", year: $0.year) })
            let tied = if case .tied = match { true } else { false }
            return .needsChoice(asked: asked, candidates: candidates, tied: tied)
        }
    }

    /// Stores that the movie is this TMDB movie, for everyone who keeps it, merging it into the movie that already
    /// has the id if there is one. Counts as the movie's first check.
    @discardableResult
    public func take(_ remote: RemoteMovie, movieId: Int64) throws(StoreError) -> ResolveOutcome {
        let now = clock()
        let check = checks.next(after: .changed, from: nil, at: now, random: time.random())
        let outcome = try store.resolve(movieId: movieId, with: remote, now: now, check: check)
        // A suggestion added ("Add to Claire's list") keeps the facts its card showed.
        try store.adoptSuggestionFacts(movieId: outcome.movieId, remoteId: remote.id)
        return outcome
    }

    /// The member's movie a reference names, for settling it.
    public func kept(member: String, named reference: MovieReference) throws(StoreError) -> MemberMovieLookup {
        try store.movie(member: member, named: reference)
    }

    /// TMDB's movie for an id reference (tmdb: or imdb:), or nil when TMDB does not know it (or the reference is
    /// a title). Throws TMDB's other errors: nothing is written when TMDB cannot answer.
    public static func remoteMovie(_ id: MovieReference, client: TMDBClient) async throws -> RemoteMovie? {
        do {
            switch id {
            case .tmdb(let number): return try await client.details(id: number)
            case .imdb(let imdb): return try await client.find(imdbId: imdb)
            case .title: return nil
            }
        } catch TMDBError.notFound {
            return nil
        }
    }

    /// Marks movies watched by a member, with their own rating when given: `mustc watched` and the page's card.
    /// `keepingDay` keeps the day of one already watched (a rating given later).
    public func watched(
        member: String, _ references: [MovieReference], mark: WatchMark, keepingDay: Bool = false
    ) throws(StoreError) -> WatchOutcome {
        try store.markWatched(member: member, references, mark: mark, keepingDay: keepingDay, now: clock())
    }

    /// Takes the watched mark back (`mustc watched --undo`); the rating and the link stay.
    public func unwatched(member: String, _ references: [MovieReference]) throws(StoreError) -> WatchOutcome {
        try store.unmarkWatched(member: member, references)
    }

    /// Takes the movie off the member's list; a movie no member keeps any more is deleted.
    public func remove(member: String, movie reference: MovieReference) throws(StoreError) -> UnlinkOutcome {
        try store.unlink(member: member, movie: reference)
    }
}
