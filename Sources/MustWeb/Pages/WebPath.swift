import Foundation
import MustCore

/// The pages' addresses. Names are percent-encoded as one path segment, so a "/" or "?" in a name stays in it.
enum WebPath {
    /// RFC 3986's unreserved characters: everything else in a segment is percent-encoded.
    private static let unreserved = CharacterSet(
        charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")

    static func member(_ name: String) -> String {
        "/members/" + (name.addingPercentEncoding(withAllowedCharacters: unreserved) ?? "")
    }

    /// A movie by its TMDB id; one without an id by its row id, under `/movies/local/`.
    static func movie(remoteId: Int?, localId: Int64?) -> String? {
        if let remoteId { return "/movies/\(remoteId)" }
        return localId.map { "/movies/local/\($0)" }
    }

    static func tmdb(_ remoteId: Int) -> String { "https://www.themoviedb.org/movie/\(remoteId)" }

    /// IMDb ids are `tt` and digits (TMDB's `imdb_id`); anything else gets no link.
    static func imdb(_ imdbId: String?) -> String? {
        guard let imdbId, imdbId.hasPrefix("tt"), imdbId.count > 2, imdbId.dropFirst(2).allSatisfy(\.isASCII),
            imdbId.dropFirst(2).allSatisfy(\.isNumber)
        else { return nil }
        return "https://www.imdb.com/title/\(imdbId)/"
    }
}
