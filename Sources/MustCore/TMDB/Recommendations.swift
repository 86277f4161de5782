import Foundation

/// One movie of `GET /movie/{id}/recommendations`: the list shape (`id, title, release_date, poster_path,
/// genre_ids, vote_average, vote_count, popularity, overview`, and in newer answers `media_type: "movie"`).
public struct RecommendedMovie: Sendable, Equatable {
    public var movie: RemoteMovie
    /// TMDB's genre ids; `[]` occurs. Named through `MovieGenres`.
    public var genreIds: [Int]
    public var overview: String?

    public init(movie: RemoteMovie, genreIds: [Int] = [], overview: String? = nil) {
        (self.movie, self.genreIds, self.overview) = (movie, genreIds, overview)
    }

    /// Whether it can be scored: a title, and TMDB's figures with at least one vote. `vote_count: 0` and
    /// `release_date: ""` are real; such a movie is kept out of the scoring, never a reason to fail.
    public var isScorable: Bool {
        (movie.title ?? "").isEmpty == false && movie.voteAverage != nil && (movie.voteCount ?? 0) > 0
    }
}

/// The page of recommendations. A result that cannot be read (an id that is no number, a figure out of range) or
/// that is not a movie (`media_type` other than "movie") is left out and counted; the others stand.
///
/// Keyed by `NamedKey`, as the details' blocks are: each key type met is a conformance lookup through every
/// conformance the binary has, about 0.1 ms the first time in a process (perf record).
struct RecommendationsPage: Decodable {
    var results: [RecommendedMovie]
    var unreadable: Int

    init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: NamedKey.self)
        var list = try container.nestedUnkeyedContainer(forKey: NamedKey("results"))
        var results: [RecommendedMovie] = []
        var unreadable = 0
        while !list.isAtEnd {
            if let entry = try? list.decode(Entry.self), let movie = entry.movie {
                results.append(movie)
            } else {
                unreadable += 1
                // A result that failed to decode was not consumed: step over it so the next one is read.
                _ = try list.decode(Skipped.self)
            }
        }
        (self.results, self.unreadable) = (results, unreadable)
    }

    /// Reads nothing, so any value decodes as one: the way to step over a result.
    private struct Skipped: Decodable {
        init(from decoder: Decoder) {}
    }

    private struct Entry: Decodable {
        var movie: RecommendedMovie?

        init(from decoder: Decoder) throws {
            let container = try decoder.container(keyedBy: NamedKey.self)
            let kind = try container.decodeIfPresent(String.self, forKey: NamedKey("media_type"))
            guard kind == nil || kind == "movie" else {
                movie = nil
                return
            }
            let remote = try RemoteMovie(from: decoder)
            let ids = (try? container.decodeIfPresent([Int].self, forKey: NamedKey("genre_ids"))).flatMap { $0 } ?? []
            let overview = (try? container.decodeIfPresent(String.self, forKey: NamedKey("overview")))?.flatMap {
                $0.isEmpty ? nil : $0
            }
            movie = RecommendedMovie(movie: remote, genreIds: ids, overview: overview)
        }
    }
}

/// TMDB's movie genres by id (`GET /genre/movie/list`, English). The list has not changed since 2013 and TMDB
/// documents it as fixed; naming `genre_ids` from it costs no request.
public enum MovieGenres {
    public static let names: [Int: String] = [
        28: "Action", 12: "Adventure", 16: "Animation", 35: "Comedy", 80: "Crime", 99: "Documentary", 18: "Drama",
        10751: "Family", 14: "Fantasy", 36: "History", 27: "Horror", 10402: "Music", 9648: "Mystery",
        10749: "Romance", 878: "Science Fiction", 10770: "TV Movie", 53: "Thriller", 10752: "War", 37: "Western",
    ]

    /// The names of the ids TMDB knows, in the answer's order; unknown ids are left out.
    public static func named(_ ids: [Int]) -> [String] { ids.compactMap { names[$0] } }
}
