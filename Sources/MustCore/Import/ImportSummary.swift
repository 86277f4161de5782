import Foundation

/// What an import did, counted over every row of every file. The JSON keys are a contract scripts read.
public struct ImportSummary: Sendable, Equatable, Encodable {
    /// Every row after the header, blank lines aside.
    public var rows = 0
    /// Links made (or, in a dry run, that would be made).
    public var linked = 0
    public var alreadyLinked = 0
    /// TMDB lookups: one result with the title and year, or the movie with that IMDb id.
    public var exact = 0
    /// Remakes: several results had the title; the most popular was taken.
    public var chosen = 0
    /// No result had the title: kept unresolved, with TMDB's closest results as candidates.
    public var needsChoice = 0
    public var notFound = 0
    /// Lookups that got no answer (no credentials, TMDB unreachable): kept, and the next fetch asks again.
    public var failed = 0
    /// Not movies (an IMDb TV series), or another member's rows in a mustc CSV.
    public var skipped = 0
    /// Of the skipped: shows, seasons and episodes (Trakt, Netflix).
    public var episodes = 0
    /// Of the skipped: Netflix titles that may be a film or an episode, which TMDB could not be asked about.
    public var unsure = 0
    /// Of the skipped: Netflix's trailers, hooks, recaps and previews, and plays of a few minutes.
    public var extras = 0
    /// Rows naming a watch another row carries: re-watches in Trakt's history, and further sessions or days of one
    /// Netflix viewing. The watch is counted once, on its latest day.
    public var merged = 0
    /// Of the merged: Trakt's re-watches (repeated entries of one movie in its history).
    public var rewatches = 0
    public var invalid = 0
    /// Links marked watched (or whose watched day moved forward), and ratings taken, from the lists' own columns.
    public var markedWatched = 0
    public var ratingsTaken = 0
    /// Rows whose watched day or rating could not be read: the movie was imported without it.
    public var marksNotTaken = 0
    /// Each list's encoding (`utf-8`, `windows-1252`, `utf-16`), by the name messages give it.
    public var encodings: [String: String] = [:]
    public var dryRun = false
    /// Stopped by SIGINT or SIGTERM: what was linked stays, and importing again continues.
    public var interrupted = false

    public init() {}

    /// Rows counted into one of the outcomes.
    var handled: Int { linked + alreadyLinked + skipped + merged + invalid }

    /// Rows that named a movie.
    public var movies: Int { rows - skipped - merged - invalid }
}

/// A row's TMDB lookup, as far as the import is concerned.
public enum ImportMatch: Sendable, Equatable {
    case exact(RemoteMovie)
    case chosen(RemoteMovie, others: [RemoteMovie])
    /// Nothing taken: the closest results, or (tied) every movie with the exact title, equally popular.
    case needsChoice([RemoteMovie], tied: Bool = false)
    case notFound
    case failed(String)

    public var taken: RemoteMovie? {
        switch self {
        case .exact(let movie), .chosen(let movie, _): movie
        default: nil
        }
    }
}

/// What the import tells its caller as it goes, row by row; `place` is "file:line".
public enum ImportEvent: Sendable {
    case invalid(place: String, reason: String)
    case skipped(place: String, reason: String)
    /// A skipped row that may have been a film: told even outside a dry run.
    case unsure(place: String, reason: String)
    /// A row whose watch another row carries (a re-watch, another session of one viewing).
    case merged(place: String, reason: String)
    /// A row whose movie is imported, but whose watched day or rating is not (out of range, not a day).
    case markNotTaken(place: String, reason: String)
    /// A row linked to a movie already known, or named by its TMDB id: no lookup.
    case known(place: String, ImportEntry, alreadyLinked: Bool)
    /// A row TMDB was asked about; `alreadyLinked` when an earlier row of the import linked the same movie.
    case looked(place: String, ImportEntry, ImportMatch, alreadyLinked: Bool)
    /// The share of the input read so far (by bytes), and the counts so far.
    case progress(Double, ImportSummary)
}
