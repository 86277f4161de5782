import Foundation
import GRDB

extension Store {
    /// Whether the member keeps the movie TMDB knows by `remoteId`: an import row resolved to it merges into that
    /// link rather than making one.
    public func keeps(member: String, remoteId: Int) throws(StoreError) -> Bool {
        try read { db in
            try Bool.fetchOne(
                db,
                sql: """
                    SELECT EXISTS (SELECT 1 FROM memberMovie
                        JOIN member ON member.id = memberMovie.memberId
                        JOIN movie ON movie.id = memberMovie.movieId
                        WHERE member.nameKey = ? AND movie.remoteId = ?)
                    """,
                arguments: [TitleKey.make(member), remoteId]) ?? false
        }
    }

    /// Whether the movie TMDB knows by `remoteId` is stored under a title that differs from `title` only by case:
    /// another Letterboxd film ("Rain" beside "rain", 2019) when no URI tells them apart.
    public func holdsCaseTwin(remoteId: Int, title: String) throws(StoreError) -> Bool {
        try read { db in
            let stored = try String.fetchOne(
                db, sql: "SELECT title FROM movie WHERE remoteId = ?", arguments: [remoteId])
            return stored.map { Self.isCaseTwin($0, title) } ?? false
        }
    }

    /// Whether the movie TMDB knows by `remoteId` is another Letterboxd film than `letterboxdUri`.
    public func holdsAnotherFilm(remoteId: Int, letterboxdUri: String) throws(StoreError) -> Bool {
        try read { db in
            try Bool.fetchOne(
                db,
                sql: """
                    SELECT EXISTS (SELECT 1 FROM movie
                        WHERE remoteId = ? AND letterboxdUri IS NOT NULL AND letterboxdUri <> ?)
                    """,
                arguments: [remoteId, letterboxdUri]) ?? false
        }
    }
}
