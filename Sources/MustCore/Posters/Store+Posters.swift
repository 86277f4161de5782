import Foundation
import GRDB

extension Store {
    /// Every poster path a movie or a suggestion holds: the posters the bound keeps longest.
    public func posterPathsInUse() throws(StoreError) -> Set<String> {
        try read { db in
            Set(
                try String.fetchAll(
                    db,
                    sql: """
                        SELECT posterPath FROM movie WHERE posterPath IS NOT NULL
                        UNION SELECT posterPath FROM suggestionMovie WHERE posterPath IS NOT NULL
                        """))
        }
    }
}
