import Foundation

/// How much of `suggest.requestsPerDay` one fetch may spend on suggestions. Pure: the times of the
/// requests already spent and the time now come in.
///
/// Spending the day's whole budget in one run (1 recommendations list, 40 details and their posters) made that run
/// cost 1.19× the CPU of the same fetch without suggestions, and a scheduled fetch of 66 movies 1.99×
/// (`contrib/benchmarks/suggest --only cpu`). So the budget is a bucket that refills continuously, `perDay` over
/// 24 hours (one request every 24 minutes at the default 60), holding at most a quarter of a day's worth; and a run
/// spends at most one suggestion request for every `ownRequestsPerSuggestion` of its own TMDB requests, and at
/// least `floor` when the bucket has them, so that small runs still move suggestions along. The first run to spend
/// anything in two days (a family's first suggestions) may spend the whole bucket, so that a new family sees
/// suggestions after its first fetch. The day's total is unchanged: `SuggestionWork` still holds every 24 hours to
/// `perDay`, and to 40 details.
public struct SuggestionPace: Sendable, Equatable {
    /// Requests a day: the bucket's refill.
    public var perDay: Int
    /// The most the bucket holds. A quarter of a day's worth: a family whose fetches are hours apart still gets
    /// most of the day's budget, and no run gets much more than a few hours' worth.
    public var capacity: Double
    /// A run spends at most one suggestion request for every this many of its own requests: a suggestion's
    /// details cost about twice a rating check's CPU (its appended blocks are larger and its posters are new), so
    /// 1 in 25 is about 8 % of the run's work.
    public var ownRequestsPerSuggestion = 25
    /// What any run may spend when the bucket has it, however few requests of its own it made: a run costs at
    /// least the process's start and the schedule's reads, against which two requests are small.
    public var floor = 2
    /// How far back spent requests count: the store keeps two days of them (`Store.spend`).
    public static let memory: TimeInterval = 2 * 86_400

    public init(perDay: Int) {
        self.perDay = max(perDay, 0)
        capacity = max(Double(self.perDay) / 4, 1)
    }

    /// What the bucket holds at `now`, after the requests spent at the times in `spent`: full `memory` ago, then
    /// refilled continuously and emptied by one at each request. It may be below zero (a debt to refill) after
    /// a version of mustc that spent the whole day's budget at once.
    public func available(spent: [Date], now: Date) -> Double {
        let rate = Double(perDay) / 86_400
        let start = now.addingTimeInterval(-Self.memory)
        var (tokens, at) = (capacity, start)
        // A request stamped after `now` (the clock moved back) counts as spent now.
        for time in spent.map({ min($0, now) }).sorted() where time >= start {
            tokens = min(capacity, tokens + rate * time.timeIntervalSince(at)) - 1
            at = time
        }
        return min(capacity, tokens + rate * now.timeIntervalSince(at))
    }

    /// The suggestion requests a run that made `ownRequests` TMDB requests of its own may spend at `now`.
    public func allowance(spent: [Date], now: Date, ownRequests: Int) -> Int {
        guard perDay > 0 else { return 0 }
        let held = available(spent: spent, now: now)
        let first = !spent.contains { $0 > now.addingTimeInterval(-Self.memory) }
        let share = first ? Int(capacity) : max(floor, max(ownRequests, 0) / max(ownRequestsPerSuggestion, 1))
        return held < 1 ? 0 : min(share, Int(held))
    }
}
