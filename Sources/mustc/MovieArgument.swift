import ArgumentParser
import MustCore

/// Reads a movie argument (title, "Title (Year)", tmdb:, imdb: or a URL), turning problems into exit-64 errors.
enum MovieArgument {
    static func parsed(_ raw: String, year: Int? = nil) throws -> MovieReference {
        do {
            return try MovieReference.parse(raw, year: year)
        } catch {
            throw ValidationError(error.description)
        }
    }
}
