import Foundation
import GRDB

/// One movie on one member's list, as `mustc export` writes it; `movie` is nil for a member with no movies.
public struct ExportRow: Sendable, Equatable {
    public var member: String
    public var movie: ExportMovie?
}

public struct ExportMovie: Sendable, Equatable {
    public var rating: MovieRating
    public var imdbId: String?
    /// The film's Letterboxd URI, when it came from a Letterboxd list: two films whose titles differ only in case
    /// ("Rain" and "rain", both 2019) stay two when the export is imported again.
    public var letterboxdUri: String?
    /// The movie's own id in this database: what tells apart two films no link names ("Rain" and "rain", 2019,
    /// from a diary), so an import of the export brings both back.
    public var mustcId: Int64
}

extension Store {
    /// Every member's list (or one member's), member by member in name order, handed to `body` row by row from a
    /// cursor: a 100,000-movie library is never in memory at once. Reads only (`Store.forReading` for export).
    public func exportRows(member: String?, _ body: (ExportRow) -> Void) throws(StoreError) {
        try read { db in try Self.rows(db, member: member, body) }
    }

    private static func rows(_ db: Database, member: String?, _ body: (ExportRow) -> Void) throws {
        let rows = try Row.fetchCursor(
            db,
            sql: """
                SELECT member.name, movie.id AS movieId, movie.title, movie.year, movie.remoteId, movie.imdbId,
                    movie.popularity, movie.voteAverage, movie.voteCount, movie.updatedAt,
                    memberMovie.watched, memberMovie.watchedOn, memberMovie.ownRating, movie.letterboxdUri
                FROM member
                LEFT JOIN memberMovie ON memberMovie.memberId = member.id
                LEFT JOIN movie ON movie.id = memberMovie.movieId
                WHERE ?1 IS NULL OR member.nameKey = ?1
                ORDER BY member.nameKey, movie.titleKey, movie.year, movie.id
                """,
            arguments: [member.map(TitleKey.make)])
        while let row = try rows.next() {
            guard row["movieId"] as Int64? != nil else {
                body(ExportRow(member: row["name"], movie: nil))
                continue
            }
            var rating = MovieRating(
                title: row["title"], year: row["year"], remoteId: row["remoteId"], popularity: row["popularity"],
                voteAverage: row["voteAverage"], voteCount: row["voteCount"], updatedAt: row["updatedAt"])
            rating.mark = mark(row)
            body(
                ExportRow(
                    member: row["name"],
                    movie: ExportMovie(
                        rating: rating, imdbId: row["imdbId"], letterboxdUri: row["letterboxdUri"],
                        mustcId: row["movieId"])))
        }
    }
}
