import Foundation

/// What TMDB cannot mean, checked as its answers are decoded (search, find and details alike): the figures mustc
/// keeps must be ones TMDB gives, its text must survive storage whole, and its date must be a day.
extension RemoteMovie {
    /// TMDB's popularity is a non-negative score; the most popular movies reach a few thousand.
    static let popularities = 0.0...1_000_000
    /// Votes are 0 to 10.
    static let voteAverages = 0.0...10
    /// A vote count is never negative.
    static let voteCounts = 0...Int(Int32.max)

    /// Throws when a figure is outside what TMDB gives (`popularity` 1e308 or -1, a vote average of 11, a negative
    /// vote count): the answer is malformed for this movie, as one with `"popularity": "oops"` is, so a fetch keeps
    /// the movie's previous figures and reports it. `codingPath` is where the movie is in the answer.
    func checkFigures(codingPath: [any CodingKey]) throws {
        func refuse(_ field: String, _ value: String, _ range: String) -> DecodingError {
            DecodingError.dataCorrupted(
                DecodingError.Context(
                    codingPath: codingPath + [Field(stringValue: field)],
                    debugDescription: "\(value) is not a figure TMDB gives (\(range))"))
        }
        if let popularity, !Self.popularities.contains(popularity) {
            throw refuse("popularity", "\(popularity)", "0 to 1000000")
        }
        if let voteAverage, !Self.voteAverages.contains(voteAverage) {
            throw refuse("vote_average", "\(voteAverage)", "0 to 10")
        }
        if let voteCount, !Self.voteCounts.contains(voteCount) {
            throw refuse("vote_count", "\(voteCount)", "0 or more")
        }
    }

    /// A title without its NUL characters: SQLite's text functions and GRDB read a stored string up to its first
    /// NUL, so "Nul\u{0}Byte" was stored as "Nul". Dropping the NUL keeps the rest of the title.
    static func withoutNUL(_ text: String) -> String {
        guard text.utf8.contains(0) else { return text }
        var kept = String.UnicodeScalarView()
        kept.append(contentsOf: text.unicodeScalars.lazy.filter { $0 != "\u{0}" })
        return String(kept)
    }

    /// `text` when it is a real day written YYYY-MM-DD; nil for "" and for an impossible date (2024-13-45), whose
    /// year is then unknown rather than read from a date that is none.
    static func realDay(_ text: String?) -> String? {
        guard let text, WatchDay.isCalendarDay(text) else { return nil }
        return text
    }

    private struct Field: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}
