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
            let id: Int64 = row[0]
            let (checked, next): (Double?, Double?) = (row[9], row[10])
            let keepers = try Row.fetchAll(
                db,
                sql: """
                    SELECT member.name, memberMovie.watched, memberMovie.watchedOn, memberMovie.ownRating
                    FROM memberMovie JOIN member ON member.id = memberMovie.memberId
                    WHERE memberMovie.movieId = ? ORDER BY member.nameKey
                    """,
                arguments: [id])
            var report = MovieReport(
                localId: id, title: row[1], year: row[2], remoteId: row[3], imdbId: row[4],
                figures: Figures(popularity: row[5], voteAverage: row[6], voteCount: row[7]), updatedAt: row[8],
                members: keepers.map { $0[0] },
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
                    DatedFigures(
                        at: Date(timeIntervalSince1970: $0[0]),
                        figures: Figures(popularity: $0[1], voteAverage: $0[2], voteCount: $0[3]))
                })
            report.marks = keepers.map { Self.mark($0, at: 1) }
            report.posterPath = row[11]
            return report
        }
    }
}
