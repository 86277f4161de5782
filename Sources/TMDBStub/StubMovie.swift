import Foundation

/// A movie in the stub's catalogue, serialised with TMDB v3's real field names.
public struct StubMovie: Sendable, Equatable {
    public var id: Int
    public var title: String
    public var originalTitle: String
    public var popularity: Double
    public var voteAverage: Double
    public var voteCount: Int
    public var releaseDate: String
    /// Details' `imdb_id`, and what `/find/{imdb id}` looks up; null for most stub movies, as for many real ones.
    public var imdbId: String?
    /// `poster_path`: `/poster{id}.png` by default, an image the stub draws (`StubPoster`); nil sends null, and a
    /// test may set anything else, as a hostile answer would.
    public var posterPath: String?

    public init(
        id: Int, title: String, originalTitle: String? = nil, popularity: Double = 10, voteAverage: Double = 7,
        voteCount: Int = 1000, releaseDate: String = "2001-04-25", imdbId: String? = nil
    ) {
        self.id = id
        self.title = title
        self.originalTitle = originalTitle ?? title
        self.popularity = popularity
        self.voteAverage = voteAverage
        self.voteCount = voteCount
        self.releaseDate = releaseDate
        self.imdbId = imdbId
        posterPath = "/poster\(id).png"
    }

    /// The fields a search result carries.
    var searchResult: [String: Any] {
        [
            "adult": false, "backdrop_path": NSNull(), "genre_ids": [35, 10749], "id": id,
            "original_language": "en", "original_title": originalTitle, "overview": "An overview of \(title).",
            "popularity": popularity, "poster_path": posterPath ?? NSNull(), "release_date": releaseDate,
            "title": title, "video": false, "vote_average": voteAverage, "vote_count": voteCount,
        ]
    }

    /// The fields `GET /movie/{id}` adds on top.
    var details: [String: Any] {
        var fields = searchResult
        fields.removeValue(forKey: "genre_ids")
        fields["belongs_to_collection"] = NSNull()
        fields["budget"] = 0
        fields["genres"] = [["id": 35, "name": "Comedy"]]
        fields["homepage"] = ""
        fields["imdb_id"] = imdbId ?? NSNull()
        fields["production_companies"] = [[String: Any]]()
        fields["production_countries"] = [[String: Any]]()
        fields["revenue"] = 0
        fields["runtime"] = NSNull()
        fields["spoken_languages"] = [[String: Any]]()
        fields["status"] = "Released"
        fields["tagline"] = ""
        return fields
    }

    /// A handful of real titles, enough for the README demo and the tests' accent cases.
    public static let classics: [StubMovie] = [
        StubMovie(
            id: 194, title: "Amélie", originalTitle: "Le Fabuleux Destin d'Amélie Poulain", popularity: 7.248,
            voteAverage: 7.9, voteCount: 11_412, releaseDate: "2001-04-25"),
        StubMovie(
            id: 129, title: "Spirited Away", originalTitle: "千と千尋の神隠し", popularity: 98.6, voteAverage: 8.5,
            voteCount: 16_870, releaseDate: "2001-07-20"),
        StubMovie(id: 9799, title: "The Fast and the Furious", popularity: 42.2, voteAverage: 6.9, voteCount: 11_001),
        StubMovie(
            id: 14160, title: "Up", popularity: 80.3, voteAverage: 7.9, voteCount: 19_300, releaseDate: "2009-05-28"),
        StubMovie(
            id: 8392, title: "My Neighbor Totoro", originalTitle: "となりのトトロ", popularity: 60.1, voteAverage: 8.1,
            voteCount: 8_100, releaseDate: "1988-04-16"),
    ]

    /// Remakes sharing a title, movies with IMDb ids, and titles a search for "Disney" or "007" only half matches.
    /// The Dune and Lion King ids, dates and IMDb ids are TMDB's (figures rounded); the others are stand-ins.
    public static let identity: [StubMovie] = [
        StubMovie(
            id: 841, title: "Dune", popularity: 31.2, voteAverage: 6.3, voteCount: 2_900, releaseDate: "1984-12-14",
            imdbId: "tt0087182"),
        StubMovie(
            id: 438631, title: "Dune", popularity: 160.4, voteAverage: 7.8, voteCount: 12_000,
            releaseDate: "2021-09-15", imdbId: "tt1160419"),
        StubMovie(
            id: 8587, title: "The Lion King", popularity: 90.5, voteAverage: 8.3, voteCount: 17_000,
            releaseDate: "1994-06-15", imdbId: "tt0110357"),
        StubMovie(
            id: 420818, title: "The Lion King", popularity: 70.1, voteAverage: 7.1, voteCount: 10_000,
            releaseDate: "2019-07-12", imdbId: "tt6105098"),
        StubMovie(
            id: 1_027_159, title: "Andor: A Disney+ Day Special Look", popularity: 2, voteAverage: 7, voteCount: 4,
            releaseDate: "2022-09-08"),
        StubMovie(
            id: 603_692, title: "Disneyland Dream", popularity: 1.4, voteAverage: 6, voteCount: 3, releaseDate: ""),
        StubMovie(
            id: 47_190, title: "Conductor 007", popularity: 0.6, voteAverage: 0, voteCount: 0,
            releaseDate: "1966-03-01"),
    ]

    /// `count` synthetic movies titled "Movie 1" … for load tests and benchmarks.
    public static func synthetic(_ count: Int, firstId: Int = 100_000) -> [StubMovie] {
        (0..<count).map { index in
            StubMovie(
                id: firstId + index, title: "Movie \(index + 1)", popularity: Double(index % 997) / 10,
                voteAverage: Double(index % 100) / 10, voteCount: index)
        }
    }
}
