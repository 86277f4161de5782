import Foundation
import GRDB

/// What marking (or unmarking) one movie did to a member's link.
public struct WatchedMovie: Sendable, Equatable {
    public var movie: MovieName
    /// The member did not keep it: the link was made, watched.
    public var linked: Bool
    /// False when the link already said exactly this.
    public var changed: Bool

    public init(movie: MovieName, linked: Bool, changed: Bool) {
        (self.movie, self.linked, self.changed) = (movie, linked, changed)
    }
}

public enum WatchOutcome: Sendable, Equatable {
    case unknownMember
    /// No movie in the library answers to this name: nothing was written.
    case unknownMovie(MovieReference)
    /// Several of the member's movies (or, for one they do not keep, of the library's) answer to it.
    case ambiguous(MovieReference, [MovieName])
    case done(member: String, [WatchedMovie])
}

/// What an imported row's watched mark and rating changed on its link, for the import's summary.
public struct MarkChange: Sendable, Equatable {
    /// Marked watched, or its day moved forward.
    public var watched = false
    public var rated = false

    public init(watched: Bool = false, rated: Bool = false) {
        self.watched = watched
        self.rated = rated
    }
}

extension Store {
    /// Marks movies watched by a member (`mark.on` is the day, nil when unknown) with their rating, when given.
    /// A movie the member does not keep is linked, watched: what they saw counts for `pick` whoever keeps it.
    /// Every name is looked up before anything is written: one that names nothing, or several movies, writes
    /// nothing at all. `keepingDay` keeps the day of a movie already marked watched (a rating given later, from
    /// the page's card, is not a second viewing).
    public func markWatched(
        member name: String, _ references: [MovieReference], mark: WatchMark, keepingDay: Bool = false,
        now: Date
    ) throws(StoreError) -> WatchOutcome {
        try write { db in
            let found = try Self.watchTargets(db, member: name, references, keptOnly: false)
            guard case .done(let member, let movies) = found else { return found }
            let memberId = try Self.memberId(db, name)
            var done: [WatchedMovie] = []
            for target in movies {
                let linked = try Self.linkWatched(db, memberId: memberId, movieId: target.movie.id, now: now)
                try db.cachedStatement(
                    sql: """
                        UPDATE memberMovie SET watched = 1,
                            watchedOn = CASE WHEN :keep AND watched = 1 THEN watchedOn ELSE :on END,
                            ownRating = coalesce(:rating, ownRating)
                        WHERE memberId = :member AND movieId = :movie
                            AND (watched = 0 OR (NOT :keep AND watchedOn IS NOT :on)
                                OR ownRating IS NOT coalesce(:rating, ownRating))
                        """
                ).execute(arguments: [
                    "on": mark.on?.text, "rating": mark.rating, "member": memberId, "movie": target.movie.id,
                    "keep": keepingDay,
                ])
                let changed = db.changesCount > 0 || linked
                // A mark by hand is the mark's word now, even on the day a media server gave: the server's later
                // "unplayed" no longer takes it back. A rating given later (`keepingDay`) is no new mark.
                if !keepingDay {
                    try db.cachedStatement(
                        sql: """
                            UPDATE memberMovie SET watchedSource = NULL
                            WHERE memberId = ? AND movieId = ? AND watched = 1 AND watchedSource IS NOT NULL
                            """
                    ).execute(arguments: [memberId, target.movie.id])
                }
                done.append(WatchedMovie(movie: target.movie, linked: linked, changed: changed))
            }
            return .done(member: member, done)
        }
    }

    /// Takes back the watched mark and its day (`watched --undo`); the member's rating and the link stay, so the
    /// movie is on their list again, unwatched.
    public func unmarkWatched(member name: String, _ references: [MovieReference]) throws(StoreError) -> WatchOutcome {
        try write { db in
            let found = try Self.watchTargets(db, member: name, references, keptOnly: true)
            guard case .done(let member, let movies) = found else { return found }
            let memberId = try Self.memberId(db, name)
            let done = try movies.map { target in
                try db.execute(
                    sql:
                        "UPDATE memberMovie SET watched = 0, watchedOn = NULL, watchedSource = NULL WHERE memberId = ? AND movieId = ? "
                        + "AND watched = 1",
                    arguments: [memberId, target.movie.id])
                return WatchedMovie(movie: target.movie, linked: false, changed: db.changesCount > 0)
            }
            return .done(member: member, done)
        }
    }

    /// The movie each reference names for the member: among theirs first, else (unless `keptOnly`) the one movie
    /// of the library with that name. `changed` is unset; `linked` says whether the member keeps it.
    private static func watchTargets(
        _ db: Database, member name: String, _ references: [MovieReference], keptOnly: Bool
    )
        throws -> WatchOutcome
    {
        var targets: [WatchedMovie] = []
        var memberName = name
        for reference in references {
            switch try memberMovie(db, member: name, reference) {
            case .unknownMember: return .unknownMember
            case .unknownMovie: return .unknownMovie(reference)
            case .ambiguous(_, let movies): return .ambiguous(reference, movies)
            case .found(let member, _, let movie):
                memberName = member
                targets.append(WatchedMovie(movie: movie, linked: false, changed: false))
            case .notKept(let member, let movie):
                memberName = member
                let everyone = try movies(db, named: reference, keptBy: nil)
                if everyone.count > 1 { return .ambiguous(reference, everyone) }
                if keptOnly { return .unknownMovie(reference) }
                targets.append(WatchedMovie(movie: movie, linked: true, changed: false))
            }
        }
        return .done(member: memberName, targets)
    }

    private static func memberId(_ db: Database, _ name: String) throws -> Int64 {
        guard
            let id = try Int64.fetchOne(
                db, sql: "SELECT id FROM member WHERE nameKey = ?", arguments: [TitleKey.make(name)])
        else { throw StoreError.failed(reason: "member vanished while marking") }
        return id
    }

    private static func linkWatched(_ db: Database, memberId: Int64, movieId: Int64, now: Date) throws -> Bool {
        try db.execute(
            sql: """
                INSERT INTO memberMovie (memberId, movieId, addedAt, watched) VALUES (?, ?, ?, 1)
                ON CONFLICT (memberId, movieId) DO NOTHING
                """,
            arguments: [memberId, movieId, now.storedValue])
        return db.changesCount > 0
    }

    /// An imported row's mark, merged into the link so that importing again never loses anything: the rating is
    /// taken unless the row's day is older than the watched day already kept (an earlier diary entry), the day
    /// only moves forward, and a watched mark is never taken back.
    static func applyImported(_ db: Database, memberId: Int64, movieId: Int64, _ mark: WatchMark) throws -> MarkChange {
        var change = MarkChange()
        let arguments: StatementArguments = [
            "member": memberId, "movie": movieId, "on": mark.on?.text, "rating": mark.rating,
        ]
        if mark.rating != nil {
            try db.cachedStatement(
                sql: """
                    UPDATE memberMovie SET ownRating = :rating
                    WHERE memberId = :member AND movieId = :movie AND ownRating IS NOT :rating
                        AND (:on IS NULL OR watchedOn IS NULL OR :on >= watchedOn)
                    """
            ).execute(arguments: arguments)
            change.rated = db.changesCount > 0
        }
        if mark.watched {
            try db.cachedStatement(
                sql: """
                    UPDATE memberMovie SET watched = 1,
                        watchedOn = CASE WHEN :on > coalesce(watchedOn, '') THEN :on ELSE watchedOn END
                    WHERE memberId = :member AND movieId = :movie
                        AND (watched = 0 OR :on > coalesce(watchedOn, ''))
                    """
            ).execute(arguments: arguments)
            change.watched = db.changesCount > 0
            // The import's mark replaces a media server's as the mark's source.
            try db.cachedStatement(
                sql: """
                    UPDATE memberMovie SET watchedSource = NULL
                    WHERE memberId = :member AND movieId = :movie AND watched = 1 AND watchedSource IS NOT NULL
                    """
            ).execute(arguments: arguments)
        }
        return change
    }
}
