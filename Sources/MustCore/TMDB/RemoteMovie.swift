import Foundation

/// A movie as TMDB describes it: the fields mustc uses from search results and details alike.
public struct RemoteMovie: Sendable, Equatable, Decodable {
    public var id: Int
    public var title: String?
    public var originalTitle: String?
    public var popularity: Double?
    public var voteAverage: Double?
    public var voteCount: Int?
    /// "YYYY-MM-DD", or nil where TMDB gives "" or null.
    public var releaseDate: String?

    public init(
        id: Int, title: String?, originalTitle: String? = nil, popularity: Double? = nil, voteAverage: Double? = nil,
        voteCount: Int? = nil, releaseDate: String? = nil
    ) {
        self.id = id
        self.title = title
        self.originalTitle = originalTitle
        self.popularity = popularity
        self.voteAverage = voteAverage
        self.voteCount = voteCount
        self.releaseDate = releaseDate
    }

    private enum CodingKeys: String, CodingKey {
        case id, title, popularity
        case originalTitle = "original_title"
        case voteAverage = "vote_average"
        case voteCount = "vote_count"
        case releaseDate = "release_date"
    }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(Int.self, forKey: .id)
        title = try container.decodeIfPresent(String.self, forKey: .title)
        originalTitle = try container.decodeIfPresent(String.self, forKey: .originalTitle)
        popularity = try container.decodeIfPresent(Double.self, forKey: .popularity)
        voteAverage = try container.decodeIfPresent(Double.self, forKey: .voteAverage)
        voteCount = try container.decodeIfPresent(Int.self, forKey: .voteCount)
        let date = try container.decodeIfPresent(String.self, forKey: .releaseDate)
        releaseDate = date?.isEmpty == false ? date : nil
    }

    /// The ratings mustc keeps, for deciding whether a refresh changed anything.
    public func sameRatings(popularity: Double?, voteAverage: Double?, voteCount: Int?) -> Bool {
        self.popularity == popularity && self.voteAverage == voteAverage && self.voteCount == voteCount
    }

    /// An exact folded match on title or original title first, otherwise TMDB's top result.
    public static func bestMatch(for title: String, in results: [RemoteMovie]) -> RemoteMovie? {
        let key = TitleKey.make(title)
        let exact = results.first { result in
            [result.title, result.originalTitle].contains { $0.map(TitleKey.make) == key }
        }
        return exact ?? results.first
    }
}

/// `GET /search/movie` answers with one page of results.
struct SearchPage: Decodable {
    var page: Int
    var results: [RemoteMovie]
    var totalPages: Int?
    var totalResults: Int?

    private enum CodingKeys: String, CodingKey {
        case page, results
        case totalPages = "total_pages"
        case totalResults = "total_results"
    }
}

/// TMDB's error body: `{"success": false, "status_code": N, "status_message": "…"}`.
struct ErrorBody: Decodable {
    var statusCode: Int?
    var statusMessage: String?

    private enum CodingKeys: String, CodingKey {
        case statusCode = "status_code"
        case statusMessage = "status_message"
    }
}
