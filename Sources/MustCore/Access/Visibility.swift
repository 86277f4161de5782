import Foundation
import GRDB

/// The movies of the family's library an audience may see: the one place every page, JSON answer and poster asks.
/// For a kid with a limit, a movie is shown only when its certification in the family's region is known and within
/// the limit; a movie with no certification, one the region's list lacks, or one without a TMDB id is left out.
/// Fails closed: before the region's certification order is read, a kid sees no movie.
public struct Visibility: Sendable {
    public let audience: Audience
    private let everything: Bool
    private let localIds: Set<Int64>
    private let remoteIds: Set<Int>
    private let posters: Set<String>
    private let hiddenPosters: Set<String>

    public static let everyone = Visibility(
        audience: .everyone, everything: true, localIds: [], remoteIds: [], posters: [], hiddenPosters: [])

    fileprivate init(
        audience: Audience, everything: Bool, localIds: Set<Int64>, remoteIds: Set<Int>, posters: Set<String>,
        hiddenPosters: Set<String>
    ) {
        (self.audience, self.everything, self.localIds, self.remoteIds) = (audience, everything, localIds, remoteIds)
        (self.posters, self.hiddenPosters) = (posters, hiddenPosters)
    }

    /// Whether a library movie is shown: by its row id, else by its TMDB id.
    public func shows(localId: Int64?, remoteId: Int?) -> Bool {
        if everything { return true }
        if let localId { return localIds.contains(localId) }
        return remoteId.map(remoteIds.contains) ?? false
    }

    /// Whether a poster file may be sent: true for a shown movie's, false for a left-out one's, nil for a poster no
    /// library movie has (a suggestion's: the caller asks `Store.suggestionAdmitted`).
    public func showsPoster(_ path: String) -> Bool? {
        if everything || posters.contains(path) { return true }
        return hiddenPosters.contains(path) ? false : nil
    }

    public func filter(_ report: RatingsReport) -> RatingsReport {
        guard !everything else { return report }
        var report = report
        for index in report.members.indices {
            report.members[index].movies.removeAll { !shows(localId: $0.localId, remoteId: $0.remoteId) }
        }
        return report
    }

    public func filter(_ report: ChangesReport) -> ChangesReport {
        guard !everything else { return report }
        var report = report
        report.changes.removeAll { !shows(localId: nil, remoteId: $0.remoteId) }
        report.availability.removeAll { !shows(localId: nil, remoteId: $0.remoteId) }
        return report
    }

    public func filter(_ movies: [MovieName]) -> [MovieName] {
        everything ? movies : movies.filter { localIds.contains($0.id) }
    }

    public func filter(_ nights: [MovieNightRecord]) -> [MovieNightRecord] {
        everything ? nights : nights.filter { shows(localId: nil, remoteId: $0.movie.remoteId) }
    }
}

extension Store {
    /// What `audience` may see of the library. One pass over the movies: about a millisecond for 1,000.
    public func visibility(_ audience: Audience, region: String) throws(StoreError) -> Visibility {
        guard let limit = audience.limit else { return .everyone }
        return try read { db in
            let (order, limitRank) = try Self.order(db, region: region, limit: limit)
            var (local, remote, posters, hidden) = (Set<Int64>(), Set<Int>(), Set<String>(), Set<String>())
            // A certification read for another region is unknown here, as a pick reads it (Store+PickLibrary).
            let rows = try Row.fetchCursor(
                db,
                sql: """
                    SELECT movie.id, movie.remoteId, movie.posterPath,
                        CASE WHEN movieSchedule.extrasRegion = ? THEN movie.certification END AS certification
                    FROM movie LEFT JOIN movieSchedule ON movieSchedule.movieId = movie.id
                    """,
                arguments: [region])
            while let row = try rows.next() {
                let rank = (row["certification"] as String?).flatMap { NightFilters.rank(of: $0, in: order) }
                let poster = (row["posterPath"] as String?).map(PosterPath.fileName)
                guard let rank, rank <= limitRank, let id: Int = row["remoteId"] else {
                    if let poster { hidden.insert(poster) }
                    continue
                }
                local.insert(row["id"])
                remote.insert(id)
                if let poster { posters.insert(poster) }
            }
            return Visibility(
                audience: audience, everything: false, localIds: local, remoteIds: remote, posters: posters,
                hiddenPosters: hidden.subtracting(posters))
        }
    }

    /// Whether a suggestion's poster may be shown under `limit`: its movie's certification is known and within it.
    public func suggestionPosterAdmitted(_ fileName: String, limit: String, region: String) throws(StoreError) -> Bool {
        try read { db in
            let (order, limitRank) = try Self.order(db, region: region, limit: limit)
            // As for a library movie: a certification read for another region is unknown here.
            let certifications = try String?.fetchAll(
                db,
                sql: """
                    SELECT CASE WHEN extrasRegion = ? THEN certification END FROM suggestionMovie WHERE posterPath = ?
                    """,
                arguments: [region, "/" + fileName])
            guard !certifications.isEmpty else { return false }
            return certifications.allSatisfy { certification in
                certification.flatMap { NightFilters.rank(of: $0, in: order) }.map { $0 <= limitRank } ?? false
            }
        }
    }

    /// The region's order and the limit's rank in it. A limit the region's list lacks admits nothing, as a pick's
    /// does.
    private static func order(_ db: Database, region: String, limit: String) throws
        -> (order: [RegionCertification], limitRank: Int)
    {
        let order = try certificationOrder(db, region: region)
        return (order, NightFilters.rank(of: TMDBText.line(limit), in: order) ?? 0)
    }
}
