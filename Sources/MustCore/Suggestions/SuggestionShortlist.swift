import Foundation

/// How `suggest` finds its best few among 100,000 candidates without reading them all. Reading every
/// candidate whole (overview, offers) and ranking them all took 3.5 s of CPU in a release build, 10 s of wall on
/// this shared machine: decoding each row, a query of offers per candidate, tonight's filters folding genres and
/// service names with `TitleKey` per candidate, the reasons' text for each, and a sort that folded two titles per
/// comparison. The sqlite3 CLI puts the part no reading can avoid, each candidate's love from its seeds, at 0.07
/// to 0.2 s of CPU as one SQL aggregate over the 131,666 seed links (a GROUP BY with a CASE per watcher), and
/// at 0.01 s as one plain read of each seed's links; so the links are read plainly and added up here.
///
/// A candidate's score is its love (for each watcher, their most loved seed recommending it, / 10) plus its taste
/// shift / 10, which never moves it by more than `MemberTaste.bound / 10`. The candidates are taken in tiers of
/// equal love, best first; each tier is read only as far as tonight's filters and the score need, until the
/// `count`-th best score found is above anything a later tier can reach. Only the best `count` (and those tied
/// with the last of them on score and weighted rating) are read whole, and `Suggestions.rank` orders them as it
/// would have ordered every candidate.
struct SuggestionShortlist {
    let library: SuggestionLibrary
    let count: Int
    let filters: NightFilters
    /// The most a taste can add to a love: nothing when no watcher has one.
    let reach: Double
    let limit: Int?
    let needsDetails: Bool
    private var scored: [Scored] = []
    private var admitted: [Facts: Bool] = [:]
    private var shifts: [[String]: Double] = [:]

    /// A candidate that passed tonight's filters, as ranking compares it before its title.
    private struct Scored {
        var score: Double
        var weighted: Double
        var remoteId: Int
    }

    /// What tonight's filters other than the runtime look at: few distinct values over many candidates, so each
    /// is judged once (the filters fold genres and service names with `TitleKey`, some microseconds each).
    private struct Facts: Hashable {
        var detailsKnown: Bool
        var certification: String?
        var genres: [String]
        var providers: [ProviderOffer]?
        /// Judged with the offers, or with `--streaming` left aside.
        var streaming: Bool
    }

    init(_ library: SuggestionLibrary, count: Int, filters: NightFilters) {
        (self.library, self.count, self.filters) = (library, max(count, 0), filters)
        reach = library.tastes.contains { !$0.isEmpty } ? MemberTaste.bound / 10 : 0
        limit = filters.limitRank(library.asNightLibrary)
        needsDetails = filters.maxMinutes != nil || limit != nil || filters.streaming != nil
    }

    /// Each candidate's love, by id: for each watcher (in the order named) their most loved seed recommending
    /// it, / 10, added in that order as `Suggestions.rank` adds them, so that both give the same number.
    struct Loves {
        var remoteIds: [Int] = []
        var loves: [Double] = []

        /// The distinct loves, best first: the tiers, as `level(below:)` walks them.
        var levels: [Double] { Set(loves).sorted(by: >) }

        /// The candidates of one tier, by id.
        func tier(_ love: Double) -> [Int] { remoteIds.indices.filter { loves[$0] == love }.map { remoteIds[$0] } }

        /// The best love below `love` (the best of all when nil); nil: no tier is left. One pass over the loves,
        /// and `suggest` rarely reads more than a few tiers: a set of every distinct love, sorted, hashed each
        /// candidate's love (about 3 % of `suggest`'s CPU over 100,000 candidates, `perf record`).
        func level(below love: Double?) -> Double? {
            var best: Double?
            for candidate in loves {
                if let love, candidate >= love { continue }
                if let best, candidate <= best { continue }
                best = candidate
            }
            return best
        }
    }

    /// `recommended`: the candidates each seed (by movie id) recommends.
    static func loves(_ library: SuggestionLibrary, recommended: [Int64: [Int]]) -> Loves {
        loves(library) { seed, add in (recommended[seed] ?? []).forEach(add) }
    }

    /// `links(seed, add)` gives `add` each candidate the seed (by movie id) recommends. Each link is packed with the
    /// place of its seed (watchers in order, each one's most loved first) into one integer as it is read, and one
    /// sort of the links puts each candidate's together, its watchers in order and each one's strongest seed first.
    /// With a dictionary of the candidates' sums instead, this took 35 ms of CPU over 131,666 links in a release
    /// build (`perf record`), a fifth of all `suggest` then did; gathered first into an array a seed and a dictionary
    /// of those, 3 % more of `suggest`'s CPU and 1.4 MB more peak RSS than packed as read (41 paired runs).
    static func loves(
        _ library: SuggestionLibrary, links read: (_ seed: Int64, _ add: (Int) -> Void) throws -> Void
    ) rethrows -> Loves {
        var seeds: [(watcher: Int, love: Double)] = []
        var links: [UInt64] = []
        for (watcher, member) in library.members.enumerated() {
            for seed in library.seeds.filter({ $0.member == member }).sorted(by: { $0.love > $1.love }) {
                let place = UInt64(seeds.count)
                seeds.append((watcher, seed.love))
                // A TMDB id is positive and far below 2^40.
                try read(seed.movieId) { remoteId in
                    if remoteId > 0 && remoteId < 1 << 40 { links.append(UInt64(remoteId) << 24 | place) }
                }
            }
        }
        links.sort()
        var loves = Loves()
        loves.remoteIds.reserveCapacity(links.count)
        loves.loves.reserveCapacity(links.count)
        var index = 0
        while index < links.count {
            let remoteId = links[index] >> 24
            var (love, watcher) = (0.0, -1)
            while index < links.count, links[index] >> 24 == remoteId {
                let seed = seeds[Int(links[index] & 0xFF_FFFF)]
                if seed.watcher != watcher { (love, watcher) = (love + seed.love / 10, seed.watcher) }
                index += 1
            }
            loves.remoteIds.append(Int(remoteId))
            loves.loves.append(love)
        }
        return loves
    }

    /// Whether no candidate of love `love` or less can be among the best `count`: `count` are found, and the
    /// `count`-th scores above `love` plus the most a taste adds (a tie would need its weighted rating compared).
    func isSettled(before love: Double) -> Bool {
        guard count > 0 else { return true }
        guard scored.count >= count else { return false }
        return love + reach < scored.map(\.score).sorted(by: >)[count - 1]
    }

    /// Takes the candidates of one tier, of love `love`, read with their facts for tonight but no offers, that
    /// pass tonight's filters exactly as `Suggestions.rank` filters. Under `--streaming`, `offers` is asked for a
    /// candidate's offers only when it passes every other choice and could still be among the best `count` (or
    /// tied with the last of them): best first, until one falls below the `count`-th best taken so far, which
    /// only rises. The benchmark's every choice asks for about ten candidates' offers, where reading those of
    /// every candidate passing the rest (2,779 of 5,002) took about 15 ms of CPU.
    mutating func offer(
        _ tier: [SuggestionCandidate], love: Double, offers: (_ remoteId: Int) throws -> [ProviderOffer]
    ) rethrows {
        var waiting: [(candidate: SuggestionCandidate, scored: Scored)] = []
        for candidate in tier {
            guard let scored = judged(candidate, love: love) else { continue }
            if filters.streaming == nil { self.scored.append(scored) } else { waiting.append((candidate, scored)) }
        }
        guard !waiting.isEmpty else { return }
        waiting.sort { ($0.scored.score, $0.scored.weighted) > ($1.scored.score, $1.scored.weighted) }
        var last = lastTaken
        for (read, scored) in waiting {
            if let last, (scored.score, scored.weighted) < last { break }
            var candidate = read
            if candidate.detailsKnown { candidate.providers = try offers(candidate.remoteId) }
            guard admits(candidate, streaming: true) else { continue }
            self.scored.append(scored)
            last = lastTaken
        }
    }

    /// The candidate's score and weighted rating when it is scorable and passes tonight's filters, its offers aside.
    private mutating func judged(_ candidate: SuggestionCandidate, love: Double) -> Scored? {
        guard candidate.isScorable else { return nil }
        if let maxMinutes = filters.maxMinutes {
            guard let runtime = candidate.runtime, runtime <= maxMinutes else { return nil }
        }
        guard admits(candidate, streaming: false) else { return nil }
        if shifts[candidate.genres] == nil {
            shifts[candidate.genres] = TasteEffect.of(candidate.genres, tastes: library.tastes).shift
        }
        let shift = shifts[candidate.genres] ?? 0
        let weighted = library.prior.map {
            MovieNight.weighted(average: candidate.voteAverage ?? 0, votes: candidate.voteCount ?? 0, prior: $0)
        }
        return Scored(score: love + shift / 10, weighted: weighted ?? 0, remoteId: candidate.remoteId)
    }

    /// Tonight's filters but the runtime (judged apart: runtimes vary too much to share a judgement), with the
    /// offers (`streaming`) or without them, judged once for each set of facts.
    private mutating func admits(_ candidate: SuggestionCandidate, streaming: Bool) -> Bool {
        let facts = Facts(
            detailsKnown: candidate.detailsKnown, certification: candidate.certification, genres: candidate.genres,
            providers: streaming ? candidate.providers : nil, streaming: streaming)
        if let known = admitted[facts] { return known }
        var rest = filters
        rest.maxMinutes = nil
        if !streaming { rest.streaming = nil }
        let admits =
            !(needsDetails && !candidate.detailsKnown)
            && rest.admits(candidate.asNightCandidate, limitRank: limit, library.certifications)
        admitted[facts] = admits
        return admits
    }

    /// The score and weighted rating of the `count`-th best taken so far; nil: fewer are taken.
    private var lastTaken: (Double, Double)? {
        guard count > 0, scored.count >= count else { return nil }
        return scored.map { ($0.score, $0.weighted) }.sorted { $0 > $1 }[count - 1]
    }

    /// The best `count` by score then weighted rating, and every one tied with the last of them on both: the
    /// title and the id that settle such ties are `Suggestions.rank`'s to compare.
    var chosen: [Int] {
        let sorted = scored.sorted { ($0.score, $0.weighted) > ($1.score, $1.weighted) }
        guard count > 0, sorted.count > count else { return count > 0 ? sorted.map(\.remoteId) : [] }
        let last = sorted[count - 1]
        return sorted.prefix { ($0.score, $0.weighted) >= (last.score, last.weighted) }.map(\.remoteId)
    }
}
