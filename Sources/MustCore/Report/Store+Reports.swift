import Foundation
import GRDB

public struct MemberSummary: Sendable, Equatable, Encodable {
    public var name: String
    public var movies: Int
}

public struct MovieListing: Sendable, Equatable, JSONShaped {
    public var title: String
    public var year: Int?
    public var remoteId: Int?
    public var releaseDate: String?
    public var members: [String]
    /// When TMDB last answered for it, and when it is checked next (nil: never checked; due at once).
    public var lastCheckedAt: Date?
    public var nextCheckAt: Date?
    /// With `movies --member`: that member's watched mark and own rating (`watched`, `watchedOn`, `ownRating`).
    public var mark: WatchMark?

    /// "Dune (1984)", or the title alone when the year is unknown.
    public var shown: String { MovieName.shown(title, year) }

    /// Unknowns are null; the mark's keys are left out without a mark, and null within one for what it lacks.
    private struct Shape: Encodable {
        var title: String
        @NullWhenAbsent var year: Int?
        @NullWhenAbsent var remoteId: Int?
        @NullWhenAbsent var releaseDate: String?
        var members: [String]
        @NullWhenAbsent var lastCheckedAt: Date?
        @NullWhenAbsent var nextCheckAt: Date?
        var watched: Bool?
        var watchedOn: NullWhenAbsent<String>?
        var ownRating: NullWhenAbsent<Int>?
    }

    public var jsonShape: any Encodable {
        Shape(
            title: title, year: year, remoteId: remoteId, releaseDate: releaseDate, members: members,
            lastCheckedAt: lastCheckedAt, nextCheckAt: nextCheckAt, watched: mark?.watched,
            watchedOn: mark.map { NullWhenAbsent(wrappedValue: $0.on?.text) },
            ownRating: mark.map { NullWhenAbsent(wrappedValue: $0.rating) })
    }
}

extension Store {
    /// Every member (or the one whose folded name matches), each with their movies, ordered by folded key; with
    /// `trendSince`, each movie's trend over the window from then to now.
    public func ratings(member: String? = nil, trendSince: Date? = nil) throws(StoreError) -> RatingsReport {
        try read { db in
            let windows = try trendSince.map { try Self.historyWindows(db, since: $0) } ?? [:]
            let rows = try Row.fetchCursor(
                db,
                sql: """
                    SELECT member.id AS memberId, member.name, movie.title, movie.remoteId, movie.popularity,
                           movie.voteAverage, movie.voteCount, movie.updatedAt, movie.id AS movieId, movie.year,
                           memberMovie.watched, memberMovie.watchedOn, memberMovie.ownRating, movie.posterPath
                    FROM member
                    LEFT JOIN memberMovie ON memberMovie.memberId = member.id
                    LEFT JOIN movie ON movie.id = memberMovie.movieId
                    WHERE ?1 IS NULL OR member.nameKey = ?1
                    ORDER BY member.nameKey, movie.titleKey, movie.year, movie.id
                    """,
                arguments: [member.map(TitleKey.make)])
            var members: [MemberRatings] = []
            var currentId: Int64?
            while let row = try rows.next() {
                let memberId: Int64 = row["memberId"]
                if memberId != currentId {
                    members.append(MemberRatings(name: row["name"], movies: []))
                    currentId = memberId
                }
                guard let movieId = row["movieId"] as Int64? else { continue }
                var movie = MovieRating(
                    title: row["title"], year: row["year"], remoteId: row["remoteId"], popularity: row["popularity"],
                    voteAverage: row["voteAverage"], voteCount: row["voteCount"], updatedAt: row["updatedAt"])
                movie.localId = movieId
                movie.mark = Self.mark(row)
                movie.posterPath = row["posterPath"]
                if let trendSince { movie.attachTrend(since: trendSince, window: windows[movieId]) }
                members[members.count - 1].movies.append(movie)
            }
            return RatingsReport(members: members)
        }
    }

    /// The link's `watched`, `watchedOn` and `ownRating` columns.
    static func mark(_ row: Row) -> WatchMark {
        let (watched, day): (Bool?, String?) = (row["watched"], row["watchedOn"])
        return WatchMark(watched: watched ?? false, on: day.flatMap(WatchDay.parse), rating: row["ownRating"])
    }

    public func members() throws(StoreError) -> [MemberSummary] {
        try read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT name, (SELECT COUNT(*) FROM memberMovie WHERE memberId = member.id) AS movies
                    FROM member ORDER BY nameKey
                    """
            ).map { MemberSummary(name: $0["name"], movies: $0["movies"]) }
        }
    }

    /// Movies with the members who keep them; only one member's when `member` is given.
    public func movies(member: String? = nil) throws(StoreError) -> [MovieListing] {
        try read { db in
            let rows = try Row.fetchCursor(
                db,
                sql: """
                    SELECT movie.id, movie.title, movie.remoteId, movie.releaseDate, member.name, movie.year,
                        movieSchedule.checkedAt, movieSchedule.nextCheckAt, member.nameKey = :member AS named,
                        memberMovie.watched, memberMovie.watchedOn, memberMovie.ownRating
                    FROM movie
                    LEFT JOIN movieSchedule ON movieSchedule.movieId = movie.id
                    JOIN memberMovie ON memberMovie.movieId = movie.id
                    JOIN member ON member.id = memberMovie.memberId
                    WHERE :member IS NULL OR movie.id IN (\(Self.moviesOfMember))
                    ORDER BY movie.titleKey, movie.year, movie.id, member.nameKey
                    """,
                arguments: ["member": member.map(TitleKey.make)])
            var listings: [MovieListing] = []
            var currentId: Int64?
            while let row = try rows.next() {
                let movieId: Int64 = row["id"]
                if movieId != currentId {
                    let (checked, next): (Double?, Double?) = (row["checkedAt"], row["nextCheckAt"])
                    listings.append(
                        MovieListing(
                            title: row["title"], year: row["year"], remoteId: row["remoteId"],
                            releaseDate: row["releaseDate"], members: [],
                            lastCheckedAt: checked.map(Date.init(timeIntervalSince1970:)),
                            // 0 is "never checked": due at once, shown as now rather than as 1970.
                            nextCheckAt: next.map { Date(timeIntervalSince1970: max($0, 0)) }))
                    currentId = movieId
                }
                listings[listings.count - 1].members.append(row["name"])
                if row["named"] as Bool? == true { listings[listings.count - 1].mark = Self.mark(row) }
            }
            return listings
        }
    }

    /// True when a member with this folded name exists.
    public func hasMember(_ name: String) throws(StoreError) -> Bool {
        try read { db in
            try Bool.fetchOne(
                db, sql: "SELECT 1 FROM member WHERE nameKey = ?", arguments: [TitleKey.make(name)]) ?? false
        }
    }
}
