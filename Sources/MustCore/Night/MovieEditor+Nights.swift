import Foundation

/// Movie nights through the one edit path, from `mustc night` and the page's "We're watching this".
extension MovieEditor {
    /// Records that `members` watched the movie together on `day`: see `Store.recordNight`, also for `linkedFor`.
    public func night(
        _ reference: MovieReference, members: [String], on day: WatchDay, linkedFor: [String] = []
    ) throws(StoreError) -> NightOutcome {
        try store.recordNight(movie: reference, members: members, on: day, now: time.now(), linkedFor: linkedFor)
    }

    /// Takes a night back exactly: see `Store.undoNight`. nil when there is no such night (already undone).
    public func undoNight(id: Int64) throws(StoreError) -> MovieNightRecord? {
        try store.undoNight(id: id)
    }
}
