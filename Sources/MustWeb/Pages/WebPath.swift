import Foundation
import MustCore

/// The pages' addresses. Names are percent-encoded as one path segment, so a "/" or "?" in a name stays in it.
enum WebPath {
    /// RFC 3986's unreserved characters: everything else in a segment is percent-encoded.
    private static let unreserved = CharacterSet(
        charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")

    static func member(_ name: String) -> String { "/members/" + segment(name) }

    /// A name as one path segment. A browser folds the dot segments `.` and `..` out of a link, escaped (`%2E`) or
    /// not (the WHATWG URL standard reads `%2e` as a dot), so the names `.` and `..` are written `~.` and `~..`,
    /// which `PageContext.decoded` reads back; a `~` of a name is escaped there, so no other name looks like them.
    static func segment(_ name: String) -> String {
        if name == "." || name == ".." { return "~" + name }
        let escaped = name.addingPercentEncoding(withAllowedCharacters: unreserved) ?? ""
        return escaped == "~." || escaped == "~.." ? "%7E" + escaped.dropFirst() : escaped
    }

    /// The name a segment written by `segment` stands for; nil for a malformed %-escape.
    static func name(segment: some StringProtocol) -> String? {
        segment == "~." || segment == "~.." ? String(segment.dropFirst()) : segment.removingPercentEncoding
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
