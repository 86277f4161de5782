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
        case title, year, remoteId, popularity, voteAverage, voteCount, updatedAt, trend
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
        try container.encode(updatedAt.map(ISO8601.string), forKey: .updatedAt)
        try container.encode(trend, forKey: .trend)
    }
}

/// UTC timestamps as "2026-11-22T10:00:00Z", the form every report uses.
public enum ISO8601 {
    public static func string(_ date: Date) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(20)
        write(date, into: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Digits written with gmtime_r: Foundation's ISO 8601 style cost a fifth of a large report.
    static func write(_ date: Date, into bytes: inout [UInt8]) {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func digits(_ value: Int32, _ count: Int) {
            var divisor: Int32 = 1
            for _ in 1..<count { divisor *= 10 }
            while divisor > 0 {
                bytes.append(UInt8(ascii: "0") + UInt8((value / divisor) % 10))
                divisor /= 10
            }
        }
        digits(parts.tm_year + 1900, 4)
        bytes.append(UInt8(ascii: "-"))
        digits(parts.tm_mon + 1, 2)
        bytes.append(UInt8(ascii: "-"))
        digits(parts.tm_mday, 2)
        bytes.append(UInt8(ascii: "T"))
        digits(parts.tm_hour, 2)
        bytes.append(UInt8(ascii: ":"))
        digits(parts.tm_min, 2)
        bytes.append(UInt8(ascii: ":"))
        digits(parts.tm_sec, 2)
        bytes.append(UInt8(ascii: "Z"))
    }
}
