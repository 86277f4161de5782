import Foundation
import GRDB

/// The member→movie join, written once: which movies a member keeps, and who keeps a movie.
extension Store {
    /// The ids of the movies kept by the member whose folded name is bound as `:member`; a subquery for
    /// `movie.id IN (…)`, read through the primary key (memberId, movieId).
    static let moviesOfMember = """
        SELECT memberMovie.movieId FROM memberMovie JOIN member ON member.id = memberMovie.memberId
        WHERE member.nameKey = :member
        """

    /// The names of the members who keep a movie, in name order.
    static func keepers(_ db: Database, movieId: Int64) throws -> [String] {
        try String.fetchAll(
            db.cachedStatement(
                sql: """
                    SELECT member.name FROM memberMovie JOIN member ON member.id = memberMovie.memberId
                    WHERE memberMovie.movieId = ? ORDER BY member.nameKey
                    """),
            arguments: [movieId])
    }
}
