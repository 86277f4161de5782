import Foundation

/// One movie with everything the page shows about it: figures, who keeps it, its schedule and its whole history.
public struct MovieReport: Sendable, Equatable {
    /// The movie's row id: the address of a movie without a TMDB id.
    public var localId: Int64
    public var title: String
    public var year: Int?
    public var remoteId: Int?
    public var imdbId: String?
    public var figures: Figures
    public var updatedAt: Date?
    public var members: [String]
    /// Each member's watched mark and own rating, in the order of `members`.
    public var marks: [WatchMark] = []
    /// When TMDB last answered for it, and when it is checked next (nil: never checked).
    public var lastCheckedAt: Date?
    public var nextCheckAt: Date?
    /// Every recorded figure, oldest first: each baseline and each change (the figures after it).
    public var history: [DatedFigures]
    /// TMDB's poster path, for the page.
    public var posterPath: String?

    public init(
        localId: Int64, title: String, year: Int?, remoteId: Int?, imdbId: String?, figures: Figures,
        updatedAt: Date?, members: [String], lastCheckedAt: Date?, nextCheckAt: Date?, history: [DatedFigures]
    ) {
        (self.localId, self.title, self.year, self.remoteId, self.imdbId) = (localId, title, year, remoteId, imdbId)
        (self.figures, self.updatedAt, self.members) = (figures, updatedAt, members)
        (self.lastCheckedAt, self.nextCheckAt, self.history) = (lastCheckedAt, nextCheckAt, history)
    }

    /// "Dune (1984)", or the title alone when the year is unknown.
    public var shown: String { MovieName.shown(title, year) }
}

/// How the page names a movie: by its TMDB id, or by its row id when it has none.
public enum MovieKey: Sendable, Equatable {
    case tmdb(Int)
    case local(Int64)
}
