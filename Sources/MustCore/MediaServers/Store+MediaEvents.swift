import Foundation
import GRDB

/// One event for `Store.recordMediaEvents`: the event, the day its watch counts on, and when it came.
public struct MediaEventWrite: Sendable {
    public var event: MediaEvent
    public var day: WatchDay
    public var now: Date

    public init(_ event: MediaEvent, day: WatchDay, now: Date) {
        (self.event, self.day, self.now) = (event, day, now)
    }
}

extension Store {
    /// Stores what a media server's event says, in one short write, and keeps it for `status`. The movie is found by
    /// its TMDB id, else its IMDb id, else its title and year (the member's own movie first, then the library's one
    /// movie of that name), and created when the library has none; TMDB is asked afterwards (`link`), never here.
    /// A watch counts once per member, movie and day: a second event of the same day changes nothing, and a later
    /// day only moves the day forward. An ignored event (`kind` .ignored) must not come here.
    public func recordMediaEvent(_ event: MediaEvent, day: WatchDay, now: Date) throws(StoreError)
        -> MediaEventOutcome
    {
        guard let reference = event.reference else { throw Self.namesNoMovie }
        return try write { db in try record(db, event, reference, day: day, now: now) }
    }

    /// Stores several events in one transaction, one commit for all of them. `serve` writes the webhook events that
    /// arrived while the last ones were being written this way (`MediaServerWrites`), so that they share the log pages they
    /// dirty. Each event runs in a savepoint of its own, in order: one that fails is undone alone, its
    /// error in its place, and the others are kept. Throws (nothing kept) when the transaction itself fails.
    public func recordMediaEvents(_ events: [MediaEventWrite]) throws(StoreError)
        -> [Result<MediaEventOutcome, StoreError>]
    {
        try write { db in
            try events.map { (next) throws -> Result<MediaEventOutcome, StoreError> in
                guard let reference = next.event.reference else { return .failure(Self.namesNoMovie) }
                var outcome: MediaEventOutcome?
                do {
                    try db.inSavepoint {
                        outcome = try record(db, next.event, reference, day: next.day, now: next.now)
                        return .commit
                    }
                } catch {
                    // A failure SQLite answered by rolling the whole transaction back leaves nothing to keep on.
                    guard db.isInsideTransaction else { throw error }
                    return .failure(error as? StoreError ?? .failed(reason: Self.reason(error)))
                }
                guard let outcome else { return .failure(.failed(reason: "a media event was not stored")) }
                return .success(outcome)
            }
        }
    }

    private static var namesNoMovie: StoreError { .failed(reason: "a media event that names no movie") }

    private func record(_ db: Database, _ event: MediaEvent, _ reference: MovieReference, day: WatchDay, now: Date)
        throws -> MediaEventOutcome
    {
        guard let member = try Self.mediaMember(db, user: event.user) else {
            let said = "ignored: no member is called \(event.user) (`mustc member NAME --media-user USER`)"
            try Self.keep(event, member: nil, said: said, db: db, now: now)
            return MediaEventOutcome(member: nil, said: said, link: nil)
        }
        let movieId: Int64
        if case .unwatched = event.kind {
            guard let kept = try Self.movies(db, named: reference, keptBy: member.id).first?.id else {
                let said = "\(event.shownMovie) is not on \(member.name)'s list: nothing to take back"
                try Self.keep(event, member: member.id, said: said, db: db, now: now)
                return MediaEventOutcome(member: member.name, said: said, link: nil)
            }
            movieId = kept
        } else {
            movieId = try mediaMovie(db, event, reference, memberId: member.id, now: now)
        }
        let linked = try Self.linkFromServer(db, memberId: member.id, movieId: movieId, event.kind, now: now)
        let said = try Self.mediaMark(
            db, event, reference, memberId: member.id, movieId: movieId, day: day, linked: linked, now: now
        ).replacingOccurrences(of: "MEMBER", with: member.name)
        try Self.keep(event, member: member.id, said: said, db: db, now: now)
        let row = try Row.fetchOne(
            db.cachedStatement(sql: "SELECT title, year, remoteId, updatedAt FROM movie WHERE id = ?"),
            arguments: [movieId])
        let link = LinkOutcome(
            member: member.name, movieId: movieId, title: row?["title"] ?? "", year: row?["year"],
            remoteId: row?["remoteId"], memberCreated: false, movieCreated: false, linked: linked,
            updatedAt: row?["updatedAt"])
        return MediaEventOutcome(member: member.name, said: said, link: link)
    }

    /// The movie an event names: by id through `findOrCreate`; by title, the member's own movie of that name first,
    /// then the library's only one, so "The Matrix" added without a year is found by an event that gives 1999. Ids
    /// the library does not know yet (the movie was added by title, and TMDB is down or not asked yet) fall back to
    /// the event's title and year by the same rules before anything is added: no second copy of a kept movie.
    private func mediaMovie(
        _ db: Database, _ event: MediaEvent, _ reference: MovieReference, memberId: Int64, now: Date
    ) throws -> Int64 {
        if reference.isTitle {
            if let kept = try Self.movies(db, named: reference, keptBy: memberId).first { return kept.id }
            let everyone = try Self.movies(db, named: reference, keptBy: nil)
            if everyone.count == 1 { return everyone[0].id }
        } else if try Self.movies(db, named: reference, keptBy: nil).isEmpty,
            let named = try Self.byEventTitle(db, event, memberId: memberId)
        {
            return named
        }
        return try findOrCreate(db, reference, now: now).id
    }

    /// The one movie the event's title and year name, the member's own first; a movie known by other ids is
    /// another film, never this one.
    private static func byEventTitle(_ db: Database, _ event: MediaEvent, memberId: Int64) throws -> Int64? {
        guard let title = event.title, let named = try? NameValidation.validate(title, field: "movie title") else {
            return nil
        }
        let reference = MovieReference.title(named, year: event.year)
        let fits = { (movie: MovieName) throws -> Bool in
            guard movie.remoteId == nil || event.tmdbId == nil || movie.remoteId == event.tmdbId else { return false }
            let imdb = try String.fetchOne(db, sql: "SELECT imdbId FROM movie WHERE id = ?", arguments: [movie.id])
            return imdb == nil || event.imdbId == nil || imdb == event.imdbId
        }
        let kept = try movies(db, named: reference, keptBy: memberId).filter(fits)
        if kept.count == 1 { return kept[0].id }
        guard kept.isEmpty else { return nil }
        let everyone = try movies(db, named: reference, keptBy: nil).filter(fits)
        return everyone.count == 1 ? everyone[0].id : nil
    }

    /// Puts the movie on the member's list when it is not there; true when it was not. A watched event makes the
    /// link watched at once (`applyMediaMark` sets the day and the source).
    private static func linkFromServer(
        _ db: Database, memberId: Int64, movieId: Int64, _ kind: MediaEvent.Kind, now: Date
    ) throws -> Bool {
        if case .unwatched = kind { return false }
        try db.execute(
            cached: """
                INSERT INTO memberMovie (memberId, movieId, addedAt) VALUES (?, ?, ?)
                ON CONFLICT (memberId, movieId) DO NOTHING
                """,
            arguments: [memberId, movieId, now.storedValue])
        return db.changesCount > 0
    }

    /// The mark the event sets or holds, and what it did in words (MEMBER stands for the member's name). A watch
    /// of a bare title (no ids, no year) on a movie not told apart yet is held, not applied: the title may name
    /// several movies ("Dune": 1984 and 2021), and the most popular is a guess nobody would see. Settling the
    /// movie applies it (`Store.resolve`); a server's un-mark takes it back.
    private static func mediaMark(
        _ db: Database, _ event: MediaEvent, _ reference: MovieReference, memberId: Int64, movieId: Int64,
        day: WatchDay, linked: Bool, now: Date
    ) throws -> String {
        let movie = event.shownMovie
        switch event.kind {
        case .watched:
            guard case .title(_, year: nil) = reference, try isUndecided(db, movieId: movieId) else { break }
            let added = linked ? " (added to MEMBER's list)" : " (already on MEMBER's list)"
            guard
                try holdMark(
                    db, memberId: memberId, movieId: movieId, day: day, source: event.server.rawValue, now: now)
            else { return "MEMBER's watched mark on \(movie) was already held: counted once" }
            return "held MEMBER's watched mark on \(movie) (\(day.text)) until it is known which movie it is: "
                + "the title has no year and may name several (`mustc status` lists a choice)\(added)"
        case .unwatched:
            if try dropHeldMark(db, memberId: memberId, movieId: movieId) {
                return "took back MEMBER's held watched mark on \(movie)"
            }
        case .rated, .ignored:
            break
        }
        return try applyMediaMark(db, event, memberId: memberId, movieId: movieId, day: day, linked: linked)
    }

    /// The mark the event sets, and what it did in words (MEMBER stands for the member's name).
    private static func applyMediaMark(
        _ db: Database, _ event: MediaEvent, memberId: Int64, movieId: Int64, day: WatchDay, linked: Bool
    ) throws -> String {
        let movie = event.shownMovie
        let arguments: StatementArguments = [
            "member": memberId, "movie": movieId, "day": day.text, "server": event.server.rawValue,
        ]
        // A watch says whether it put the movie on the list or found it there, so a second copy would show.
        let added = linked ? " (added to MEMBER's list)" : " (already on MEMBER's list)"
        switch event.kind {
        case .watched:
            // A mark by hand keeps its source: only a mark a server set can be taken back by a server.
            try db.execute(
                cached: """
                    UPDATE memberMovie SET watched = 1, watchedOn = :day,
                        watchedSource = CASE WHEN watched = 1 THEN watchedSource ELSE :server END
                    WHERE memberId = :member AND movieId = :movie
                        AND (watched = 0 OR watchedOn IS NULL OR watchedOn < :day)
                    """, arguments: arguments)
            return db.changesCount > 0
                ? "marked \(movie) watched on \(day.text) for MEMBER\(added)"
                : "\(movie) was already marked watched for MEMBER: counted once"
        case .unwatched:
            try db.execute(
                cached: """
                    UPDATE memberMovie SET watched = 0, watchedOn = NULL, watchedSource = NULL
                    WHERE memberId = :member AND movieId = :movie AND watched = 1 AND watchedSource IS NOT NULL
                    """, arguments: arguments)
            if db.changesCount > 0 { return "took back MEMBER's watched mark on \(movie)" }
            let watched = try Bool.fetchOne(
                db, sql: "SELECT watched FROM memberMovie WHERE memberId = :member AND movieId = :movie",
                arguments: arguments)
            return watched == true
                ? "kept MEMBER's watched mark on \(movie): it was not set by a media server"
                : "\(movie) was not marked watched for MEMBER"
        case .rated(let rating):
            try db.execute(
                cached: """
                    UPDATE memberMovie SET ownRating = :rating
                    WHERE memberId = :member AND movieId = :movie AND ownRating IS NOT :rating
                    """, arguments: arguments + ["rating": rating])
            return db.changesCount > 0
                ? "rated \(movie) \(rating)/10 for MEMBER\(linked ? added : "")"
                : "MEMBER's rating of \(movie) was already \(rating)/10"
        case .ignored(let why):
            return "ignored: \(why)"
        }
    }

    /// Keeps the event for `status`, and only the last few of each server.
    private static func keep(_ event: MediaEvent, member: Int64?, said: String, db: Database, now: Date) throws {
        try db.execute(
            cached: """
                INSERT INTO mediaEvent (server, receivedAt, user, memberId, movie, outcome) VALUES (?, ?, ?, ?, ?, ?)
                """,
            arguments: [event.server.rawValue, now.storedValue, event.user, member, event.shownMovie, said])
        try db.execute(
            cached: """
                DELETE FROM mediaEvent WHERE server = ? AND id NOT IN
                    (SELECT id FROM mediaEvent WHERE server = ? ORDER BY id DESC LIMIT ?)
                """,
            arguments: [event.server.rawValue, event.server.rawValue, mediaEventsKept])
    }
}
