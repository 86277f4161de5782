import Foundation

/// The ratings report. Its JSON shape is a contract scripts depend on; fields not fetched yet are null.
public struct RatingsReport: Sendable, Equatable, Encodable {
    public var members: [MemberRatings]

    public init(members: [MemberRatings]) { self.members = members }
}

public struct MemberRatings: Sendable, Equatable, Encodable {
    public var name: String
    public var movies: [MovieRating]

    public init(name: String, movies: [MovieRating]) {
        self.name = name
        self.movies = movies
    }
}

public struct MovieRating: Sendable, Equatable {
    public var title: String
    /// The year the user gave, or TMDB's release year once resolved.
    public var year: Int?
    public var remoteId: Int?
    public var popularity: Double?
    public var voteAverage: Double?
    public var voteCount: Int?
    public var updatedAt: Date?
    /// How the figures moved over the `--trend` window; nil for a movie with no figures yet (RatingsReport+Trend).
    public var trend: MovieTrend?
    /// Popularity when the window opened and after each change in it, for a sparkline; not in the JSON.
    public var trendPopularity: [Double?] = []
    /// The movie's row id: the page's address for a movie without a TMDB id; not in the JSON.
    public var localId: Int64?
    /// The vote average the same way, for the page's sparkline; not in the JSON.
    public var trendVoteAverage: [Double?] = []
    /// Whether the member watched it, when, and their own rating: `watched`, `watchedOn`, `ownRating`.
    public var mark = WatchMark()
    /// TMDB's poster path, for the page; not in the JSON.
    public var posterPath: String?

    public init(
        title: String, year: Int? = nil, remoteId: Int? = nil, popularity: Double? = nil, voteAverage: Double? = nil,
        voteCount: Int? = nil, updatedAt: Date? = nil
    ) {
        self.title = title
        self.year = year
        self.remoteId = remoteId
        self.popularity = popularity
        self.voteAverage = voteAverage
        self.voteCount = voteCount
        self.updatedAt = updatedAt
    }

    /// "Dune (1984)", or the title alone when the year is unknown.
    public var shown: String { MovieName.shown(title, year) }
}

extension MovieRating: JSONShaped {
    /// The figures and the mark's fields side by side, unknowns null; the page's fields are left out.
    private struct Shape: Encodable {
        var title: String
        @NullWhenAbsent var year: Int?
        @NullWhenAbsent var remoteId: Int?
        @NullWhenAbsent var popularity: Double?
        @NullWhenAbsent var voteAverage: Double?
        @NullWhenAbsent var voteCount: Int?
        @NullWhenAbsent var updatedAt: Date?
        @NullWhenAbsent var trend: MovieTrend?
        var watched: Bool
        @NullWhenAbsent var watchedOn: String?
        @NullWhenAbsent var ownRating: Int?
    }

    public var jsonShape: any Encodable {
        Shape(
            title: title, year: year, remoteId: remoteId, popularity: popularity, voteAverage: voteAverage,
            voteCount: voteCount, updatedAt: updatedAt, trend: trend, watched: mark.watched, watchedOn: mark.on?.text,
            ownRating: mark.rating)
    }
}
