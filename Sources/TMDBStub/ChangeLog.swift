import Foundation

/// What the benchmarks need to judge a refresh policy from the server's side: when each change was made, and
/// how long it waited until a details request for that movie saw it. Not TMDB: driven by `/_stub/touch`.
struct ChangeLog {
    /// Unseen changes per movie id, oldest first.
    private var pending: [Int: [Date]] = [:]
    private(set) var changes = 0
    /// Details requests that saw at least one change no earlier request had seen.
    private(set) var detections = 0
    /// For every change seen: the movie, and seconds from the change to the first request that saw it.
    private(set) var delays: [(id: Int, seconds: Double)] = []

    mutating func changed(_ id: Int, at now: Date) {
        pending[id, default: []].append(now)
        changes += 1
    }

    /// A details request for `id` is being answered at `now`.
    mutating func answered(_ id: Int, at now: Date) {
        guard let times = pending.removeValue(forKey: id) else { return }
        detections += 1
        delays += times.map { (id, now.timeIntervalSince($0)) }
    }

    /// Ages of the changes no request has seen yet.
    func unseenAges(at now: Date) -> [Double] {
        pending.values.flatMap { $0.map { now.timeIntervalSince($0) } }
    }
}
