/// What a member has seen of a movie and thinks of it, as kept on their link to it.
public struct WatchMark: Sendable, Hashable {
    public var watched: Bool
    /// The day they watched it; nil when not watched, or watched on a day nobody recorded.
    public var on: WatchDay?
    /// Their own rating, 1–10.
    public var rating: Int?

    public init(watched: Bool = false, on: WatchDay? = nil, rating: Int? = nil) {
        self.watched = watched
        self.on = on
        self.rating = rating
    }

    public var isEmpty: Bool { !watched && rating == nil }

    /// "2024-03-01", "seen" (day unknown), or empty, for the tables.
    public var seenCell: String { watched ? on?.text ?? "seen" : "" }

    /// "9/10", or empty.
    public var ratingCell: String { rating.map { "\($0)/10" } ?? "" }
}
