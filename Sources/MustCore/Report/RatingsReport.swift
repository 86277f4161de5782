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

public struct MovieRating: Sendable, Equatable, Encodable {
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

    private enum CodingKeys: String, CodingKey {
        case title, year, remoteId, popularity, voteAverage, voteCount, updatedAt, trend, watched, watchedOn
        case ownRating
    }

    /// "Dune (1984)", or the title alone when the year is unknown.
    public var shown: String { MovieName.shown(title, year) }

    // Written out so that missing values are `null` rather than absent keys.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(title, forKey: .title)
        try container.encode(year, forKey: .year)
        try container.encode(remoteId, forKey: .remoteId)
        try container.encode(popularity, forKey: .popularity)
        try container.encode(voteAverage, forKey: .voteAverage)
        try container.encode(voteCount, forKey: .voteCount)
        try container.encode(updatedAt, forKey: .updatedAt)
        try container.encode(trend, forKey: .trend)
        try container.encode(mark.watched, forKey: .watched)
        try container.encode(mark.on?.text, forKey: .watchedOn)
        try container.encode(mark.rating, forKey: .ownRating)
    }
}
