import Foundation
import GRDB

/// One member at a movie night, and their own rating of the movie (as it is now: given before or after).
public struct NightWatcher: Sendable, Equatable, Encodable {
    public var name: String
    public var rating: Int?

    public init(name: String, rating: Int?) { (self.name, self.rating) = (name, rating) }
}

/// A movie night as kept: the day, the movie, who watched.
public struct MovieNightRecord: Sendable, Equatable {
    public var id: Int64
    public var day: WatchDay
    public var movie: MovieName
    public var watchers: [NightWatcher]
    /// The movie's poster path as stored, for the family page.
    public var posterPath: String?
}

extension MovieNightRecord: JSONShaped {
    /// The night with its movie flattened into it; an unknown year or TMDB id is null.
    private struct Shape: Encodable {
        var id: Int64
        var day, title: String
        @NullWhenAbsent var year: Int?
        @NullWhenAbsent var remoteId: Int?
        var watchers: [NightWatcher]
    }

    public var jsonShape: any Encodable {
        Shape(id: id, day: day.text, title: movie.title, year: movie.year, remoteId: movie.remoteId, watchers: watchers)
    }
}

public enum NightOutcome: Sendable, Equatable {
    case unknownMembers([String])
    case unknownMovie(MovieReference)
    /// Several movies of the library answer to the name, and not exactly one of them is kept by a watcher.
    case ambiguous(MovieReference, [MovieName])
    case recorded(MovieNightRecord)
}

extension Store {
    /// Records a movie night in one write: every watcher's link marked watched (made, watched, for one
    /// who does not keep the movie), its day moved to `day` unless a later day is kept (a re-watch never moves a
    /// day back), their own rating untouched; and the night, with what each link was before, so `undoNight` can
    /// put back exactly that. Names are all checked first: an unknown one writes nothing. The same movie, day and
    /// watchers again is the night already recorded. `linkedFor` names the watchers whose link was made for this
    /// night just before (a suggestion put on their lists): the night counts those links as its own, so its undo
    /// takes them back too.
    public func recordNight(
        movie reference: MovieReference, members names: [String], on day: WatchDay, now: Date,
        linkedFor: [String] = []
    ) throws(StoreError) -> NightOutcome {
        let made = Set(linkedFor.map(TitleKey.make))
        return try write { db in
            var members: [(id: Int64, name: String)] = []
            var unknown: [String] = []
            for name in names {
                let row = try Row.fetchOne(
                    db, sql: "SELECT id, name FROM member WHERE nameKey = ?", arguments: [TitleKey.make(name)])
                guard let row else {
                    unknown.append(name)
                    continue
                }
                let id: Int64 = row["id"]
                if !members.contains(where: { $0.id == id }) { members.append((id, row["name"])) }
            }
            guard unknown.isEmpty else { return .unknownMembers(unknown) }
            let movie: MovieName
            switch try Self.nightMovie(db, reference, watchers: members.map(\.id)) {
            case .found(let found): movie = found
            case .none: return .unknownMovie(reference)
            case .several(let movies): return .ambiguous(reference, movies)
            }
            if let first = try Self.sameNight(db, movieId: movie.id, day: day, watchers: Set(members.map(\.id))) {
                return .recorded(first)
            }
            try db.execute(
                sql: "INSERT INTO movieNight (movieId, day, recordedAt) VALUES (?, ?, ?)",
                arguments: [movie.id, day.text, now.timeIntervalSince1970])
            let nightId = db.lastInsertedRowID
            for member in members {
                try Self.markAtNight(
                    db, nightId: nightId, memberId: member.id, movieId: movie.id, day: day, now: now,
                    made: made.contains(TitleKey.make(member.name)))
            }
            return .recorded(try Self.night(db, id: nightId)!)
        }
    }

    private enum NightMovie { case found(MovieName), none, several([MovieName]) }

    /// The night already recorded for this movie, day and watchers: a double tap or a resubmitted form is that
    /// night, answered as it was, not a second one.
    private static func sameNight(_ db: Database, movieId: Int64, day: WatchDay, watchers: Set<Int64>) throws
        -> MovieNightRecord?
    {
        let ids = try Int64.fetchAll(
            db, sql: "SELECT id FROM movieNight WHERE movieId = ? AND day = ? ORDER BY id",
            arguments: [movieId, day.text])
        for id in ids {
            let members = try Int64.fetchSet(
                db, sql: "SELECT memberId FROM movieNightWatcher WHERE nightId = ?", arguments: [id])
            if members == watchers { return try night(db, id: id) }
        }
        return nil
    }

    /// The one movie of the library the reference names; among several, the one a watcher keeps.
    private static func nightMovie(_ db: Database, _ reference: MovieReference, watchers: [Int64]) throws -> NightMovie
    {
        let everyone = try movies(db, named: reference, keptBy: nil)
        if everyone.count == 1 { return .found(everyone[0]) }
        if everyone.isEmpty { return .none }
        var kept: [MovieName] = []
        for id in watchers {
            for movie in try movies(db, named: reference, keptBy: id) where !kept.contains(movie) { kept.append(movie) }
        }
        return kept.count == 1 ? .found(kept[0]) : .several(everyone)
    }

    /// One watcher's link at a night, with what it was before; `made`: the link was made for this night.
    private static func markAtNight(
        _ db: Database, nightId: Int64, memberId: Int64, movieId: Int64, day: WatchDay, now: Date, made: Bool
    ) throws {
        let link = try Row.fetchOne(
            db, sql: "SELECT watched, watchedOn, watchedSource FROM memberMovie WHERE memberId = ? AND movieId = ?",
            arguments: [memberId, movieId])
        if link != nil {
            // The night is the mark's word now: a media server's later "unplayed" no longer takes it back.
            try db.execute(
                sql: """
                    UPDATE memberMovie SET watched = 1, watchedSource = NULL,
                        watchedOn = CASE WHEN watchedOn IS NOT NULL AND watchedOn > :day THEN watchedOn ELSE :day END
                    WHERE memberId = :member AND movieId = :movie
                    """,
                arguments: ["day": day.text, "member": memberId, "movie": movieId])
        } else {
            try db.execute(
                sql: """
                    INSERT INTO memberMovie (memberId, movieId, addedAt, watched, watchedOn) VALUES (?, ?, ?, 1, ?)
                    """,
                arguments: [memberId, movieId, now.storedValue, day.text])
        }
        try db.execute(
            sql: """
                INSERT INTO movieNightWatcher
                    (nightId, memberId, linked, watchedBefore, watchedOnBefore, watchedSourceBefore)
                VALUES (?, ?, ?, ?, ?, ?)
                """,
            arguments: [
                nightId, memberId, link == nil || made, (link?["watched"] as Bool?) ?? false,
                link?["watchedOn"] as String?,
                link?["watchedSource"] as String?,
            ])
    }

    /// Takes a night back: each watcher's link as it was before it (a link the night made is removed, unless a
    /// rating was given on it since, which keeps it, unwatched), and the night itself. A later night of the same
    /// movie with the same watcher keeps that watcher's mark, and inherits what was before this one, so undoing it
    /// too still ends where the first began. A movie nobody keeps afterwards (a suggestion the night put on the
    /// watchers' lists) is deleted, as `remove` deletes one. nil when there is no such night.
    public func undoNight(id: Int64) throws(StoreError) -> MovieNightRecord? {
        try write { db in
            guard let record = try Self.night(db, id: id) else { return nil }
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT memberId, linked, watchedBefore, watchedOnBefore, watchedSourceBefore
                    FROM movieNightWatcher WHERE nightId = ?
                    """,
                arguments: [id])
            for row in rows {
                let memberId: Int64 = row["memberId"]
                let later = try Int64.fetchOne(
                    db,
                    sql: """
                        SELECT movieNight.id FROM movieNight
                        JOIN movieNightWatcher ON movieNightWatcher.nightId = movieNight.id
                        WHERE movieNight.movieId = ? AND movieNight.id > ? AND movieNightWatcher.memberId = ?
                        ORDER BY movieNight.id LIMIT 1
                        """,
                    arguments: [record.movie.id, id, memberId])
                if let later {
                    try db.execute(
                        sql: """
                            UPDATE movieNightWatcher SET linked = ?, watchedBefore = ?, watchedOnBefore = ?,
                                watchedSourceBefore = ?
                            WHERE nightId = ? AND memberId = ?
                            """,
                        arguments: [
                            row["linked"] as Bool, row["watchedBefore"] as Bool, row["watchedOnBefore"] as String?,
                            row["watchedSourceBefore"] as String?, later, memberId,
                        ])
                    continue
                }
                try Self.restoreLink(db, memberId: memberId, movieId: record.movie.id, before: row)
            }
            try db.execute(sql: "DELETE FROM movieNight WHERE id = ?", arguments: [id])
            try db.execute(
                sql: "DELETE FROM movie WHERE id = ? AND NOT EXISTS (SELECT 1 FROM memberMovie WHERE movieId = ?)",
                arguments: [record.movie.id, record.movie.id])
            return record
        }
    }

    private static func restoreLink(_ db: Database, memberId: Int64, movieId: Int64, before: Row) throws {
        if before["linked"] as Bool {
            try db.execute(
                sql: "DELETE FROM memberMovie WHERE memberId = ? AND movieId = ? AND ownRating IS NULL",
                arguments: [memberId, movieId])
            guard db.changesCount == 0 else { return }
        }
        let linked: Bool = before["linked"]
        try db.execute(
            sql: """
                UPDATE memberMovie SET watched = ?, watchedOn = ?, watchedSource = ? WHERE memberId = ? AND movieId = ?
                """,
            arguments: [
                linked ? false : before["watchedBefore"] as Bool, linked ? nil : before["watchedOnBefore"] as String?,
                linked ? nil : before["watchedSourceBefore"] as String?, memberId, movieId,
            ])
    }

    /// Every night, the latest first (by day, then as recorded), at most `limit`; reads only.
    public func nights(limit: Int? = nil) throws(StoreError) -> [MovieNightRecord] {
        try read { db in
            let ids = try Int64.fetchAll(
                db, sql: "SELECT id FROM movieNight ORDER BY day DESC, id DESC LIMIT ?", arguments: [limit ?? -1])
            return try ids.compactMap { try Self.night(db, id: $0) }
        }
    }

    /// The night with this id; nil when there is none (never recorded, or taken back). Reads only.
    public func night(id: Int64) throws(StoreError) -> MovieNightRecord? {
        try read { db in try Self.night(db, id: id) }
    }

    /// Nights on or after `day`, the latest first; reads only.
    public func nights(since day: WatchDay) throws(StoreError) -> [MovieNightRecord] {
        try read { db in
            let ids = try Int64.fetchAll(
                db, sql: "SELECT id FROM movieNight WHERE day >= ? ORDER BY day DESC, id DESC", arguments: [day.text])
            return try ids.compactMap { try Self.night(db, id: $0) }
        }
    }

    static func night(_ db: Database, id: Int64) throws -> MovieNightRecord? {
        guard
            let row = try Row.fetchOne(
                db,
                sql: """
                    SELECT movieNight.id, movieNight.day, movie.id AS movieId, movie.title, movie.year, movie.remoteId,
                        movie.posterPath
                    FROM movieNight JOIN movie ON movie.id = movieNight.movieId WHERE movieNight.id = ?
                    """,
                arguments: [id]),
            let day = WatchDay.parse(row["day"])
        else { return nil }
        let watchers = try Row.fetchAll(
            db,
            sql: """
                SELECT member.name, memberMovie.ownRating FROM movieNightWatcher
                JOIN member ON member.id = movieNightWatcher.memberId
                LEFT JOIN memberMovie ON memberMovie.memberId = member.id AND memberMovie.movieId = ?
                WHERE movieNightWatcher.nightId = ? ORDER BY member.nameKey
                """,
            arguments: [row["movieId"] as Int64, id]
        ).map { NightWatcher(name: $0["name"], rating: $0["ownRating"]) }
        return MovieNightRecord(
            id: row["id"], day: day,
            movie: MovieName(id: row["movieId"], title: row["title"], year: row["year"], remoteId: row["remoteId"]),
            watchers: watchers, posterPath: row["posterPath"])
    }
}

extension Store {
    /// The latest night of the movie the reference names whose watchers are exactly `members` (matched ignoring
    /// case and accents), on `day` when given: what `mustc night --undo` takes back. nil when there is none.
    public func latestNight(movie reference: MovieReference, members: [String], on day: WatchDay?)
        throws(StoreError) -> MovieNightRecord?
    {
        let wanted = Set(members.map(TitleKey.make))
        return try read { db in
            let movieIds = try Self.movies(db, named: reference, keptBy: nil).map(\.id)
            guard !movieIds.isEmpty else { return nil }
            let ids = try Int64.fetchAll(
                db,
                sql: """
                    SELECT id FROM movieNight WHERE movieId IN (\(movieIds.map { _ in "?" }.joined(separator: ",")))
                        AND (? IS NULL OR day = ?)
                    ORDER BY id DESC
                    """,
                arguments: StatementArguments(movieIds) + [day?.text, day?.text])
            for id in ids {
                guard let night = try Self.night(db, id: id) else { continue }
                if Set(night.watchers.map { TitleKey.make($0.name) }) == wanted { return night }
            }
            return nil
        }
    }
}
