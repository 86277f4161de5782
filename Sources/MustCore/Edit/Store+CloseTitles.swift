import Foundation
import GRDB

extension Store {
    /// The library's movies whose titles are a typo away from `title` ("spirted away" for Spirited Away): folded
    /// as titles are matched, within one edit for every six letters (at least one, none for a title under five
    /// letters, where one edit makes another word), closest first, at most three. An exact title is not close: it
    /// is the movie itself.
    public func closeTitles(to title: String) throws(StoreError) -> [MovieName] {
        let key = Array(TitleKey.make(title))
        guard key.count >= 5 else { return [] }
        let limit = max(1, key.count / 6)
        return try read { db in
            var found: [(distance: Int, movie: MovieName)] = []
            let rows = try Row.fetchCursor(db, sql: "SELECT id, title, year, remoteId, titleKey FROM movie")
            while let row = try rows.next() {
                let other = Array(row["titleKey"] as String)
                guard abs(other.count - key.count) <= limit else { continue }
                let distance = EditDistance.between(key, other, limit: limit)
                guard distance > 0, distance <= limit else { continue }
                found.append(
                    (
                        distance,
                        MovieName(id: row["id"], title: row["title"], year: row["year"], remoteId: row["remoteId"])
                    ))
            }
            return found.sorted { ($0.distance, $0.movie.title) < ($1.distance, $1.movie.title) }.prefix(3).map(\.movie)
        }
    }
}
