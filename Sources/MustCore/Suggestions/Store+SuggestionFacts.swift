import Foundation
import GRDB

extension Store {
    /// A suggestion put on a list keeps what its card showed: the runtime, certification, genres, overview and
    /// offers the fetch already read for the region become the movie's own, so tonight's limits see it at once
    /// rather than after the movie's next check. Only where the movie's own extras for that region are not read
    /// yet: a fetched reading is never replaced by the suggestion's older one. The offers become the region's first
    /// reading, a baseline, as a fetch's first reading is. True when the facts were taken.
    @discardableResult
    public func adoptSuggestionFacts(movieId: Int64, remoteId: Int) throws(StoreError) -> Bool {
        // Most movies taken were never suggestions: a read answers them without taking the write lock.
        let suggested = try read { db in
            try Bool.fetchOne(db, sql: "SELECT 1 FROM suggestionMovie WHERE remoteId = ?", arguments: [remoteId])
        }
        guard suggested == true else { return false }
        return try write { db in
            guard
                let facts = try Row.fetchOne(
                    db,
                    sql: """
                        SELECT runtime, genres, certification, overview, extrasRegion, detailsAt FROM suggestionMovie
                        WHERE remoteId = ? AND extrasRegion IS NOT NULL AND detailsAt IS NOT NULL
                        """,
                    arguments: [remoteId]),
                let region = facts["extrasRegion"] as String?
            else { return false }
            let read = try Bool.fetchOne(
                db,
                sql: """
                    SELECT extrasCheckedAt IS NOT NULL AND extrasRegion = ? FROM movieSchedule WHERE movieId = ?
                    """,
                arguments: [region, movieId])
            guard read != true else { return false }
            try db.execute(
                sql: """
                    UPDATE movie SET runtime = :runtime, genres = :genres, certification = :certification,
                        overview = coalesce(:overview, overview), providersRegion = :region
                    WHERE id = :movie
                    """,
                arguments: [
                    "runtime": facts["runtime"] as Int?, "genres": facts["genres"] as String?,
                    "certification": facts["certification"] as String?, "overview": facts["overview"] as String?,
                    "region": region, "movie": movieId,
                ])
            try db.execute(sql: "DELETE FROM movieProvider WHERE movieId = ?", arguments: [movieId])
            try db.execute(
                sql: """
                    INSERT INTO movieProvider (movieId, kind, providerId, name)
                    SELECT ?, kind, providerId, name FROM suggestionProvider WHERE remoteId = ?
                    """,
                arguments: [movieId, remoteId])
            try db.execute(
                sql: "UPDATE movieSchedule SET extrasCheckedAt = ?, extrasRegion = ? WHERE movieId = ?",
                arguments: [facts["detailsAt"] as Double?, region, movieId])
            return true
        }
    }
}

extension Store {
    /// A suggestion's title and year as its card showed them ("Dune (1984)"), for a movie added by its TMDB id
    /// before TMDB is asked; nil when the id was never suggested.
    public func suggestionShown(remoteId: Int) throws(StoreError) -> String? {
        try read { db in
            try Row.fetchOne(
                db, sql: "SELECT title, year FROM suggestionMovie WHERE remoteId = ?", arguments: [remoteId]
            )
            .map { MovieName.shown($0["title"], $0["year"]) }
        }
    }
}
