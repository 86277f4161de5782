import Foundation

/// A movie as TMDB describes it: the fields mustc uses from search results and details alike.
public struct RemoteMovie: Sendable, Equatable, Decodable, MatchableMovie {
    public var id: Int
    public var title: String?
    public var originalTitle: String?
    public var popularity: Double?
    public var voteAverage: Double?
    public var voteCount: Int?
    /// "YYYY-MM-DD", or nil where TMDB gives "" or null.
    public var releaseDate: String?
    /// Only details carry it ("tt…", often null); search and find results do not.
    public var imdbId: String?
    /// TMDB's `poster_path` ("/abc123.jpg"), only when it passes `PosterPath.isValid`; nil when TMDB has none.
    public var posterPath: String?
    /// TMDB sent a `poster_path` that is not a path mustc accepts (`/../../etc/passwd`, a URL, `/x.svg`, not a
    /// string): it was ignored and is never requested. Counted as a malformed answer for the movie.
    public var posterPathMalformed = false

    public init(
        id: Int, title: String?, originalTitle: String? = nil, popularity: Double? = nil, voteAverage: Double? = nil,
        voteCount: Int? = nil, releaseDate: String? = nil, imdbId: String? = nil, posterPath: String? = nil
    ) {
        self.id = id
        self.title = title
        self.originalTitle = originalTitle
        self.popularity = popularity
        self.voteAverage = voteAverage
        self.voteCount = voteCount
        self.releaseDate = releaseDate
        self.imdbId = imdbId
        self.posterPath = posterPath.flatMap { PosterPath.isValid($0) ? $0 : nil }
        posterPathMalformed = posterPath != nil && self.posterPath == nil
    }

    private enum CodingKeys: String, CodingKey {
        case id, title, popularity
        case originalTitle = "original_title"
        case voteAverage = "vote_average"
        case voteCount = "vote_count"
        case releaseDate = "release_date"
        case imdbId = "imdb_id"
        case posterPath = "poster_path"
    }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(Int.self, forKey: .id)
        title = try container.decodeIfPresent(String.self, forKey: .title).map(Self.withoutNUL)
        originalTitle = try container.decodeIfPresent(String.self, forKey: .originalTitle).map(Self.withoutNUL)
        popularity = try container.decodeFigure(.popularity)
        voteAverage = try container.decodeFigure(.voteAverage)
        voteCount = try container.decodeCount(.voteCount)
        releaseDate = Self.realDay(try container.decodeIfPresent(String.self, forKey: .releaseDate))
        let imdb = try container.decodeIfPresent(String.self, forKey: .imdbId)
        imdbId = imdb?.isEmpty == false ? imdb : nil
        (posterPath, posterPathMalformed) = Self.decodePoster(container)
        try checkFigures(codingPath: decoder.codingPath)
    }

    /// A poster path mustc accepts; anything else present (a hostile path, another type) is ignored and flagged,
    /// never a reason to refuse the answer: the ratings beside it are good.
    private static func decodePoster(_ container: KeyedDecodingContainer<CodingKeys>) -> (String?, Bool) {
        guard container.contains(.posterPath), (try? container.decodeNil(forKey: .posterPath)) != true else {
            return (nil, false)
        }
        guard let path = try? container.decode(String.self, forKey: .posterPath) else { return (nil, true) }
        if path.isEmpty { return (nil, false) }
        return PosterPath.isValid(path) ? (path, false) : (nil, true)
    }

    /// The year of `releaseDate`, when it has one mustc accepts.
    public var year: Int? {
        guard let releaseDate, let year = Int(releaseDate.prefix(4)), MovieReference.years.contains(year) else {
            return nil
        }
        return year
    }

    /// The ratings mustc keeps, for deciding whether a refresh changed anything.
    public func sameRatings(popularity: Double?, voteAverage: Double?, voteCount: Int?) -> Bool {
        self.popularity == popularity && self.voteAverage == voteAverage && self.voteCount == voteCount
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

/// `GET /find/{external_id}` answers with a list per kind of thing; mustc reads the movies.
struct FindPage: Decodable {
    var movieResults: [RemoteMovie]

    private enum CodingKeys: String, CodingKey { case movieResults = "movie_results" }
}

/// TMDB's error body: `{"success": false, "status_code": N, "status_message": "…"}`.
/// TMDB's error body: `{"status_code", "status_message"}`, or `{"errors": [...]}` from a search without a query.
struct ErrorBody: Decodable {
    var statusCode: Int?
    var statusMessage: String?
    var errors: [String]?

    private enum CodingKeys: String, CodingKey {
        case statusCode = "status_code"
        case statusMessage = "status_message"
        case errors
    }

    /// TMDB's own words, whichever form they came in.
    var message: String? {
        if let statusMessage, !statusMessage.isEmpty { return statusMessage }
        if let errors, !errors.isEmpty { return errors.joined(separator: "; ") }
        return nil
    }

    /// Whether TMDB wrote it: its error bodies carry a status code or an errors list; a web server's page has neither.
    var isTMDBs: Bool { statusCode != nil || errors != nil }
}
