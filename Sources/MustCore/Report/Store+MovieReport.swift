import Foundation
import GRDB

extension Store {
    /// The movie with this TMDB id or row id, with its members, schedule and history; nil when there is none.
    public func movieReport(_ key: MovieKey) throws(StoreError) -> MovieReport? {
        try read { db in
            let (column, value): (String, Int64) =
                switch key {
                case .tmdb(let id): ("remoteId", Int64(id))
                case .local(let id): ("id", id)
                }
            guard
                let row = try Row.fetchOne(
                    db,
                    sql: """
                        SELECT movie.id, title, year, remoteId, imdbId, popularity, voteAverage, voteCount, updatedAt,
                            movieSchedule.checkedAt, movieSchedule.nextCheckAt, posterPath
                        FROM movie LEFT JOIN movieSchedule ON movieSchedule.movieId = movie.id
                        WHERE movie.\(column) = ?
                        """,
                    arguments: [value])
            else { return nil }
            let id: Int64 = row["id"]
            let (checked, next): (Double?, Double?) = (row["checkedAt"], row["nextCheckAt"])
            let keepers = try Row.fetchAll(
                db,
                sql: """
                    SELECT member.name, memberMovie.watched, memberMovie.watchedOn, memberMovie.ownRating
                    FROM memberMovie JOIN member ON member.id = memberMovie.memberId
                    WHERE memberMovie.movieId = ? ORDER BY member.nameKey
                    """,
                arguments: [id])
            var report = MovieReport(
                localId: id, title: row["title"], year: row["year"], remoteId: row["remoteId"], imdbId: row["imdbId"],
                figures: Figures(row), updatedAt: row["updatedAt"],
                members: keepers.map { $0["name"] },
                lastCheckedAt: checked.map(Date.init(timeIntervalSince1970:)),
                // 0 is "never checked": due at once, shown as now rather than as 1970.
                nextCheckAt: next.map { Date(timeIntervalSince1970: max($0, 0)) },
                history: try Row.fetchAll(
                    db,
                    sql: """
                        SELECT at, popularity, voteAverage, voteCount FROM movieHistory
                        WHERE movieId = ? ORDER BY at, id
                        """,
                    arguments: [id]
                ).map {
                    DatedFigures(at: Date(timeIntervalSince1970: $0["at"]), figures: Figures($0))
                })
            report.marks = keepers.map(Self.mark)
            report.posterPath = row["posterPath"]
            return report
        }
    }
}
