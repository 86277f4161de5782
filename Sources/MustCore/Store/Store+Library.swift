import Foundation
import GRDB

/// The result of linking a member to a movie. Display names are as first typed.
public struct LinkOutcome: Sendable, Equatable {
    public var member: String
    public var movieId: Int64
    public var title: String
    public var year: Int?
    public var remoteId: Int?
    public var memberCreated: Bool
    public var movieCreated: Bool
    /// False when the member already had this movie: nothing changed.
    public var linked: Bool
    /// When TMDB's figures were last written; nil for a movie never looked up.
    public var updatedAt: Date?
    /// What an imported row's watched mark and rating changed on the link.
    public var marked = MarkChange()

    /// "Dune (1984)", or the title alone when the year is unknown.
    public var shown: String { MovieName.shown(title, year) }
}

public struct ResolveOutcome: Sendable, Equatable {
    /// The movie that now carries the remote id: the same one, or the row it was merged into.
    public var movieId: Int64
    public var title: String
    public var year: Int?
    /// The movie that was folded into this one, as it was shown, when the remote id was already taken.
    public var merged: String?
    public var mergedInto: Bool { merged != nil }

    public var shown: String { MovieName.shown(title, year) }
}

public enum UnlinkOutcome: Sendable, Equatable {
    case unknownMember
    case unknownMovie
    case ambiguous(member: String, [MovieName])
    case notLinked(member: String, title: String)
    case unlinked(member: String, title: String, movieDeleted: Bool)
}

extension Store {
    /// Finds or creates the member, and the movie the reference names, and links them. A title is found by any
    /// spelling typed before (its alias), else by its identity (fold and year); a new title is kept as an alias.
    /// One IMMEDIATE transaction whose first statement writes, so concurrent processes never create duplicates.
    public func link(member name: String, movie reference: MovieReference, now: Date) throws(StoreError)
        -> LinkOutcome
    {
        try write { db in
            let member = try upsertMember(db, name: name, now: now)
            let movie = try findOrCreate(db, reference, now: now)
            try db.execute(
                sql: """
                    INSERT INTO memberMovie (memberId, movieId, addedAt) VALUES (?, ?, ?)
                    ON CONFLICT (memberId, movieId) DO NOTHING
                    """,
                arguments: [member.id, movie.id, now.storedValue])
            let linked = db.changesCount > 0
            let row = try Row.fetchOne(
                db, sql: "SELECT title, year, remoteId, updatedAt FROM movie WHERE id = ?", arguments: [movie.id])
            guard let row else { throw StoreError.failed(reason: "movie vanished while linking") }
            return LinkOutcome(
                member: member.display, movieId: movie.id, title: row["title"], year: row["year"],
                remoteId: row["remoteId"], memberCreated: member.created, movieCreated: movie.created, linked: linked,
                updatedAt: row["updatedAt"])
        }
    }

    /// Kept for callers that name movies by title alone.
    public func link(member name: String, title: String, now: Date) throws(StoreError) -> LinkOutcome {
        try link(member: name, movie: .title(title, year: nil), now: now)
    }

    func upsertMember(_ db: Database, name: String, now: Date) throws -> (
        id: Int64, display: String, created: Bool
    ) {
        try db.execute(
            sql: "INSERT INTO member (name, nameKey, createdAt) VALUES (?, ?, ?) ON CONFLICT (nameKey) DO NOTHING",
            arguments: [name, TitleKey.make(name), now.storedValue])
        let created = db.changesCount > 0
        let row = try Row.fetchOne(
            db, sql: "SELECT id, name FROM member WHERE nameKey = ?", arguments: [TitleKey.make(name)])
        guard let row else { throw StoreError.failed(reason: "member vanished during upsert") }
        return (row["id"], row["name"], created)
    }

    /// Stores what TMDB says about a movie. If another movie already holds this remote id, the two become one:
    /// links and aliases move to the row holding the id and this row is deleted. A movie that had another id
    /// (settled by `mustc resolve`) takes the new one.
    /// - Parameter check: when given, the lookup counts as the movie's check in the per-movie schedule, so the
    ///   next fetch does not ask TMDB again for what it just said.
    public func resolve(movieId: Int64, with remote: RemoteMovie, now: Date, check: MovieCheck? = nil)
        throws(StoreError) -> ResolveOutcome
    {
        try write { db in
            let outcome = try Self.resolve(db, movieId: movieId, with: remote, now: now)
            if let check { try Self.record(check, movieId: outcome.movieId, db) }
            return outcome
        }
    }

    /// - Parameter runId: the fetch run doing this, for the history; nil for add and resolve.
    static func resolve(_ db: Database, movieId: Int64, with remote: RemoteMovie, now: Date, runId: Int64? = nil)
        throws -> ResolveOutcome
    {
        var target = movieId
        var merged: String?
        // The figures of another TMDB movie (none, or the wrong remake) are no "before": these are a first.
        var firstFigures = false
        let holder = try Int64.fetchOne(
            db, sql: "SELECT id FROM movie WHERE remoteId = ? AND id <> ?", arguments: [remote.id, movieId])
        // The movie added first keeps its row and its name, whichever of the two TMDB answered for first (a
        // fetch's answers arrive in any order).
        if let holder, holder < movieId {
            merged = try merge(db, movieId, into: holder)
            target = holder
        } else {
            if let holder {
                // The holder was this TMDB movie: its history and figures go on in the row that keeps the name.
                try RatingHistory.adopt(db, from: holder, into: movieId)
                merged = try merge(db, holder, into: movieId)
            } else {
                let previous = try Int.fetchOne(
                    db, sql: "SELECT remoteId FROM movie WHERE id = ?", arguments: [movieId])
                firstFigures = previous != remote.id
            }
            try db.execute(
                sql: "UPDATE movie SET remoteId = ?, identityKey = ? WHERE id = ?",
                arguments: [remote.id, identityKey(remoteId: remote.id), movieId])
        }
        try updateRatings(
            db, movieId: target, with: remote, now: now, remoteId: remote.id, firstFigures: firstFigures, runId: runId)
        try db.execute(sql: "DELETE FROM movieCandidate WHERE movieId = ?", arguments: [target])
        // The movie is told apart now: the watches a server sent for its bare title count on it.
        try applyHeldMarks(db, movieId: target)
        let row = try Row.fetchOne(db, sql: "SELECT title, year FROM movie WHERE id = ?", arguments: [target])
        return ResolveOutcome(movieId: target, title: row?["title"] ?? "", year: row?["year"], merged: merged)
    }

    /// A link merged into another one of the same member and movie keeps what either said they watched: watched if
    /// either was, the later day, and the surviving link's rating, else the merged one's; the mark's source (a media
    /// server's, or NULL) is the surviving link's when it was watched.
    static let mergedMarks = """
        watched = max(watched, excluded.watched),
        watchedOn = CASE WHEN excluded.watchedOn > coalesce(watchedOn, '') THEN excluded.watchedOn ELSE watchedOn END,
        ownRating = coalesce(ownRating, excluded.ownRating),
        watchedSource = CASE WHEN watched = 1 THEN watchedSource ELSE excluded.watchedSource END
        """

    /// Moves links, aliases, a known IMDb id and Letterboxd URI from `movieId` to `holder`, then deletes `movieId`;
    /// returns how the deleted movie was shown.
    static func merge(_ db: Database, _ movieId: Int64, into holder: Int64) throws -> String {
        let row = try Row.fetchOne(
            db, sql: "SELECT title, year, imdbId, letterboxdUri FROM movie WHERE id = ?", arguments: [movieId])
        try db.execute(
            sql: """
                INSERT INTO memberMovie (memberId, movieId, addedAt, watched, watchedOn, ownRating, watchedSource)
                SELECT memberId, ?, addedAt, watched, watchedOn, ownRating, watchedSource FROM memberMovie WHERE movieId = ?
                ON CONFLICT (memberId, movieId) DO UPDATE SET \(mergedMarks)
                """,
            arguments: [holder, movieId])
        try moveHeldMarks(db, from: movieId, into: holder)
        try db.execute(sql: "UPDATE movieAlias SET movieId = ? WHERE movieId = ?", arguments: [holder, movieId])
        try db.execute(
            sql: "UPDATE movie SET imdbId = coalesce(imdbId, ?) WHERE id = ?",
            arguments: [row?["imdbId"] as String?, holder])
        try db.execute(sql: "DELETE FROM movie WHERE id = ?", arguments: [movieId])
        // After the delete: the URI is unique, so the holder can take it only once the merged row is gone.
        try db.execute(
            sql: "UPDATE movie SET letterboxdUri = coalesce(letterboxdUri, ?) WHERE id = ?",
            arguments: [row?["letterboxdUri"] as String?, holder])
        return MovieName.shown(row?["title"] ?? "", row?["year"])
    }

    /// Writes TMDB's figures and clears any fetch failure recorded for the movie. A linked movie is shown by TMDB's
    /// title (in `tmdb.language`), not the spelling typed, which stays an alias that still names it; a movie added
    /// by its id carries the id as its title until TMDB names it. What changed goes to the history in the same
    /// transaction.
    ///
    /// A fetch runs this for every changed movie, hence the hand-tuning (perf, 3,000 movies all changed):
    /// compiling the UPDATE afresh each time and folding TMDB's title for every change cost 48 of a changed movie's
    /// 161 µs of CPU, so the statements are cached and the title is folded only when it differs from the stored
    /// one. When only the figures differ, as on most days, the UPDATE leaves out the indexed columns: SQLite
    /// rewrites the index entries of every column it sets, even to the same value (8.3 against 3.9 µs a row).
    /// `stamp` is `now` as stored, when the caller made it once for many writes.
    static func updateRatings(
        _ db: Database, movieId: Int64, with remote: RemoteMovie, now: Date, stamp: DatabaseValue? = nil,
        remoteId: Int? = nil, firstFigures: Bool = false, runId: Int64? = nil
    ) throws {
        let updatedAt = stamp ?? now.storedValue
        let stored = try Row.fetchOne(
            db.cachedStatement(
                sql: """
                    SELECT popularity, voteAverage, voteCount, title, remoteId, year, imdbId,
                        fetchError IS NULL AND notFoundAt IS NULL AS clean
                    FROM movie WHERE id = ?
                    """),
            arguments: [movieId])
        // A movie removed (or merged away) meanwhile stays gone.
        guard let stored else { return }
        let before = Figures(stored)
        let named = remote.title.flatMap { $0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ? nil : $0 }
        let title = named == stored["title"] ? nil : named
        let (storedId, storedYear, storedImdb): (Int?, Int?, String?) =
            (stored["remoteId"], stored["year"], stored["imdbId"])
        let clean = stored["clean"] as Bool? == true
        let onlyFigures =
            title == nil && clean && (remoteId ?? storedId) == storedId && (remote.year ?? storedYear) == storedYear
            && (remote.imdbId ?? storedImdb) == storedImdb
        if onlyFigures {
            try db.cachedStatement(
                sql: """
                    UPDATE movie SET popularity = ?, voteAverage = ?, voteCount = ?, releaseDate = ?, updatedAt = ?,
                        posterPath = coalesce(?, posterPath)
                    WHERE id = ?
                    """
            ).execute(arguments: [
                remote.popularity, remote.voteAverage, remote.voteCount, remote.releaseDate, updatedAt,
                remote.posterPath, movieId,
            ])
        } else {
            try db.cachedStatement(
                sql: """
                    UPDATE movie SET remoteId = coalesce(?, remoteId), popularity = ?, voteAverage = ?,
                        voteCount = ?, releaseDate = ?, updatedAt = ?, fetchError = NULL, notFoundAt = NULL,
                        year = coalesce(?, year), imdbId = coalesce(?, imdbId), title = coalesce(?, title),
                        titleKey = coalesce(?, titleKey), posterPath = coalesce(?, posterPath)
                    WHERE id = ?
                    """
            ).execute(arguments: [
                remoteId, remote.popularity, remote.voteAverage, remote.voteCount, remote.releaseDate, updatedAt,
                remote.year, remote.imdbId, title, title.map(TitleKey.make), remote.posterPath, movieId,
            ])
        }
        try RatingHistory.record(
            db, movieId: movieId, before: before, after: Figures(remote), firstFigures: firstFigures, at: now,
            runId: runId)
    }

    /// Unlinks a member from the movie the reference names among theirs, and deletes the movie once no member
    /// keeps it. Several of the member's movies answering to the name (remakes) are listed, not guessed between.
    public func unlink(member name: String, movie reference: MovieReference) throws(StoreError) -> UnlinkOutcome {
        try write { db in
            let found = try Self.memberMovie(db, member: name, reference)
            switch found {
            case .unknownMember: return .unknownMember
            case .unknownMovie: return .unknownMovie
            case .notKept(let member, let movie): return .notLinked(member: member, title: movie.shown)
            case .ambiguous(let member, let movies): return .ambiguous(member: member, movies)
            case .found(let member, let memberId, let movie):
                try db.execute(
                    sql: "DELETE FROM memberMovie WHERE memberId = ? AND movieId = ?", arguments: [memberId, movie.id])
                try db.execute(
                    sql: "DELETE FROM movie WHERE id = ? AND NOT EXISTS (SELECT 1 FROM memberMovie WHERE movieId = ?)",
                    arguments: [movie.id, movie.id])
                return .unlinked(member: member, title: movie.shown, movieDeleted: db.changesCount > 0)
            }
        }
    }

    public func unlink(member name: String, title: String) throws(StoreError) -> UnlinkOutcome {
        try unlink(member: name, movie: .title(title, year: nil))
    }
}
