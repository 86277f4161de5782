import Foundation
import Synchronization

/// Imports lists into one member's list: rows are streamed from each file in chunks; a chunk's known movies are
/// linked in one transaction, and the others go through the same lookup and match rules as `add` (exact, remakes
/// by popularity, needs a choice; never a fuzzy guess), through the client's rate limiter and retries.
public struct Importer: Sendable {
    /// For a dry run, a copy of the database (`Store.snapshot`): the import runs for real there, so it tells
    /// exactly what would happen, and the user's file is never opened for writing.
    public var store: Store
    /// nil without credentials: rows that need a lookup are kept unresolved for the first fetch.
    public var client: TMDBClient?
    public var member: String
    public var dryRun: Bool
    /// A lookup counts as the movie's first check, as in `add`, so the next fetch does not ask again.
    public var checks: MovieSchedulePolicy
    public var events: @Sendable (ImportEvent) -> Void
    /// The dates links are written with, today for the watched days, and the jitter of a lookup's first check.
    public var time: TimeSource
    /// Rows per transaction: 200 keeps a 100,000-row import to 500 commits and an interruption loses no links.
    public var chunkSize = 200
    /// Lookups in flight; the rate limiter, not this, keeps them under `tmdb.maxRequestsPerSecond`.
    public var concurrency = 4
    /// Set by the first answer showing that the configured address is not TMDB's: the rows after it are kept for
    /// the next fetch without asking an address that cannot answer.
    let wrongAddress = Latch()

    public init(
        store: Store, client: TMDBClient?, member: String, dryRun: Bool, checks: MovieSchedulePolicy,
        time: TimeSource, events: @escaping @Sendable (ImportEvent) -> Void
    ) {
        self.store = store
        self.client = client
        self.member = member
        self.dryRun = dryRun
        self.checks = checks
        self.events = events
        self.time = time
    }

    /// What a run has counted so far.
    struct State {
        var summary = ImportSummary()
        var done = 0
        var total = 1
        /// Files whose every row was invalid.
        var unreadable: [String] = []
        /// A chunk's row events, told in the file's order once the chunk is settled (known movies are linked
        /// before the others are looked up).
        var held: [(row: Int, event: ImportEvent)] = []
        var row = 0

        mutating func hold(_ event: ImportEvent, row: Int) { held.append((row, event)) }
    }

    /// Imports every file in order. Stops at cancellation (SIGINT, SIGTERM) with `interrupted` set; throws
    /// `TMDBError.unauthorized` (no lookup can work) and store failures.
    public func run(_ files: [ImportFile]) async throws -> (summary: ImportSummary, unreadable: [String]) {
        var state = State()
        state.summary.dryRun = dryRun
        state.total = max(files.reduce(0) { $0 + ($1.size ?? 0) }, 1)
        do {
            for file in files {
                try await importFile(file, &state)
                state.done += file.size ?? file.rows.position
            }
        } catch is CancellationError {
            state.summary.interrupted = true
        }
        if Task.isCancelled { state.summary.interrupted = true }
        // Rows read but not settled when the run stopped were not handled: `rows` counts what was.
        if state.summary.interrupted { state.summary.rows = state.summary.handled }
        return (state.summary, state.unreadable)
    }

    typealias Pending = (place: String, entry: ImportEntry, position: Int, row: Int)

    private func importFile(_ file: ImportFile, _ state: inout State) async throws {
        let rows = file.rows
        defer { state.summary.encodings[file.name] = rows.encoding.rawValue }
        let before = state.summary
        let today = WatchDay.of(time.now())
        if let undecided = rows as? any UndecidedTitles { try await decide(undecided) }
        var chunk: [Pending] = []
        while let (at, row) = try rows.next(member: member, today: today) {
            try Task.checkCancellation()
            state.summary.rows += 1
            state.row += 1
            let place = "\(file.name):\(at)"
            switch row {
            case .invalid(let reason):
                state.summary.invalid += 1
                events(.invalid(place: place, reason: reason))
            case .unsure(let reason):
                state.summary.skipped += 1
                state.summary.unsure += 1
                state.hold(.unsure(place: place, reason: reason), row: state.row)
            case .skipped(let reason), .episode(let reason), .extra(let reason):
                state.summary.skipped += 1
                if case .episode = row { state.summary.episodes += 1 }
                if case .extra = row { state.summary.extras += 1 }
                state.hold(.skipped(place: place, reason: reason), row: state.row)
            case .merged(let reason, let rewatch):
                state.summary.merged += 1
                if rewatch { state.summary.rewatches += 1 }
                state.hold(.merged(place: place, reason: reason), row: state.row)
            case .movie(let entry):
                if let problem = entry.markProblem {
                    state.summary.marksNotTaken += 1
                    events(.markNotTaken(place: place, reason: problem))
                }
                chunk.append((place, entry, rows.position, state.row))
            }
            // Rows told only once the chunk before them is settled wait in `held`: a Netflix history of mostly
            // episodes would hold every one of them until its end.
            if chunk.count >= chunkSize || state.held.count >= 4 * chunkSize {
                try await settle(chunk, &state)
                chunk.removeAll(keepingCapacity: true)
                tell(&state)
            }
        }
        try await settle(chunk, &state)
        tell(&state)
        let read = state.summary.rows - before.rows
        if read > 0, state.summary.invalid - before.invalid == read { state.unreadable.append(file.name) }
        events(.progress(Double(state.done + (file.size ?? rows.position)) / Double(state.total), state.summary))
    }

    /// Links a chunk's known movies at once, then looks the others up a few at a time and links each batch as it
    /// is answered: an interruption loses at most one batch of answers, never links already made.
    private func settle(_ chunk: [Pending], _ state: inout State) async throws {
        guard !chunk.isEmpty else { return }
        let placements = try store.place(member: member, chunk.map(\.entry), now: time.now())
        var waiting: [Pending] = []
        for (index, row) in chunk.enumerated() {
            state.summary.count(placements[index].marked)
            switch placements[index].placement {
            case .alreadyLinked:
                state.summary.alreadyLinked += 1
                state.hold(.known(place: row.place, row.entry, alreadyLinked: true), row: row.row)
            case .linked:
                state.summary.linked += 1
                state.hold(.known(place: row.place, row.entry, alreadyLinked: false), row: row.row)
            case .needsLookup:
                waiting.append(row)
            }
        }
        var matches: [String: ImportMatch] = [:]
        for start in stride(from: 0, to: waiting.count, by: 2 * concurrency) {
            let batch = waiting[start..<min(start + 2 * concurrency, waiting.count)]
            var asked = Set<String>()
            let unasked = batch.filter { matches[$0.entry.key] == nil && asked.insert($0.entry.key).inserted }
            matches.merge(try await lookUp(unasked, state)) { first, _ in first }
            for row in batch {
                let match = try distinct(matches[row.entry.key] ?? .failed("not looked up"), row.entry)
                let linked = try apply(match, to: row.entry, &state.summary)
                if linked {
                    state.summary.linked += 1
                    state.summary.count(match)
                } else {
                    state.summary.alreadyLinked += 1
                }
                state.hold(.looked(place: row.place, row.entry, match, alreadyLinked: !linked), row: row.row)
            }
        }
        tell(&state)
        events(.progress(Double(state.done + chunk[chunk.count - 1].position) / Double(state.total), state.summary))
    }

    private func tell(_ state: inout State) {
        for held in state.held.sorted(by: { $0.row < $1.row }) { events(held.event) }
        state.held.removeAll(keepingCapacity: true)
    }

    /// Two Letterboxd films TMDB answers with one movie ("Rain" and "rain", 2019): the second is not merged into
    /// the first, but kept with TMDB's answers to choose from.
    private func distinct(_ match: ImportMatch, _ entry: ImportEntry) throws(StoreError) -> ImportMatch {
        guard let taken = match.taken else { return match }
        var another = false
        if let uri = entry.letterboxdUri {
            another = try store.holdsAnotherFilm(remoteId: taken.id, letterboxdUri: uri)
        } else if entry.exactTitle {
            another = try store.holdsCaseTwin(remoteId: taken.id, title: entry.title)
        }
        guard another else { return match }
        if case .chosen(let movie, let others) = match { return .needsChoice([movie] + others) }
        return .needsChoice([taken])
    }

    /// Links the row's movie and stores what TMDB said; false when an earlier row already linked it.
    private func apply(_ match: ImportMatch, to entry: ImportEntry, _ summary: inout ImportSummary)
        throws(StoreError) -> Bool
    {
        let link = try store.linkImported(member: member, entry, now: time.now())
        summary.count(link.marked)
        guard link.linked else { return false }
        // `Dune,1984` then `Dune,`: the second row's answer is the movie the first linked, and the two rows merge
        // into one link. `linked` counts links made, so that row is one already linked.
        var made = true
        if let remote = match.taken, link.remoteId != remote.id {
            made = try !store.keeps(member: member, remoteId: remote.id)
        }
        switch match {
        case .exact(let remote), .chosen(let remote, _):
            let now = time.now()
            let check = checks.next(after: .changed, from: nil, at: now, random: time.random())
            _ = try store.resolve(movieId: link.movieId, with: remote, now: now, check: check)
        case .needsChoice(let candidates, _):
            try store.saveCandidates(
                movieId: link.movieId,
                candidates.map { MovieCandidate(remoteId: $0.id, title: $0.title ?? "untitled", year: $0.year) })
        case .notFound, .failed:
            break
        }
        return made
    }

    /// Asks TMDB whether it knows each undecided title as a movie, `concurrency` at a time. Without credentials,
    /// or for a title TMDB did not answer about, nothing is decided: those rows stay unsure.
    private func decide(_ source: any UndecidedTitles) async throws {
        let titles = source.undecided
        guard !titles.isEmpty, let client else { return }
        var movies: Set<String> = []
        var asked: Set<String> = []
        try await withThrowingTaskGroup(of: (String, Bool?).self) { group in
            var next = 0
            func start() {
                guard next < titles.count else { return }
                let (title, latest) = titles[next]
                group.addTask { [wrongAddress] in
                    (title, try await Self.knownAsMovie(title, latestYear: latest, client, wrongAddress))
                }
                next += 1
            }
            for _ in 0..<concurrency { start() }
            while let (title, known) = try await group.next() {
                if let known {
                    asked.insert(title)
                    if known { movies.insert(title) }
                }
                start()
            }
        }
        source.decide(movies: movies, asked: asked)
    }

    /// Whether TMDB has a movie with exactly this title (or original title), released by `latestYear`; nil when
    /// it did not answer. Folded titles would make "1899: The Pyramid" whatever TMDB spells nearly so.
    static func knownAsMovie(_ title: String, latestYear: Int?, _ client: TMDBClient, _ wrongAddress: Latch)
        async throws -> Bool?
    {
        guard wrongAddress.value == nil else { return nil }
        do {
            let results = try await client.search(title)
            return results.contains { movie in
                (movie.title == title || movie.originalTitle == title)
                    && (movie.year ?? 0) <= (latestYear ?? Int.max)
            }
        } catch let error as TMDBError {
            try Task.checkCancellation()
            switch error {
            case .unauthorized: throw error
            case .wrongAddress:
                wrongAddress.set(error.description)
                return nil
            case .notFound: return false
            default: return nil
            }
        }
    }

    /// Asks TMDB about each row, `concurrency` at a time, reporting progress as answers come.
    private func lookUp(_ rows: [Pending], _ state: State) async throws -> [String: ImportMatch] {
        guard !rows.isEmpty else { return [:] }
        let client = client
        return try await withThrowingTaskGroup(of: (String, ImportMatch).self) { group in
            var results: [String: ImportMatch] = [:]
            var next = 0
            func start() {
                guard next < rows.count else { return }
                let entry = rows[next].entry
                group.addTask { [wrongAddress] in
                    (entry.key, try await Self.lookUp(entry, client: client, wrongAddress: wrongAddress))
                }
                next += 1
            }
            for _ in 0..<concurrency { start() }
            while let (key, match) = try await group.next() {
                results[key] = match
                let position = rows[min(results.count, rows.count) - 1].position
                events(.progress(Double(state.done + position) / Double(state.total), state.summary))
                start()
            }
            return results
        }
    }

    static func lookUp(_ entry: ImportEntry, client: TMDBClient?, wrongAddress: Latch) async throws
        -> ImportMatch
    {
        guard let client else { return .failed(noCredentials) }
        if let known = wrongAddress.value { return .failed(known) }
        do {
            if let imdbId = entry.imdbId {
                guard let found = try await client.find(imdbId: imdbId) else { return .notFound }
                return .exact(found)
            }
            let match = try await Self.match(entry, client)
            // Letterboxd spells each film as TMDB does: of "Rain" and "rain" (2019), the one spelled so is meant.
            if entry.exactTitle {
                let titled: [RemoteMovie] =
                    switch match {
                    case .exact(let movie): [movie]
                    case .mostPopular(let movie, let others): [movie] + others
                    case .tied(let movies): movies
                    case .needsChoice: []
                    }
                let spelled = titled.filter { $0.title == entry.title }
                if spelled.count == 1 { return .exact(spelled[0]) }
            }
            switch match {
            case .exact(let movie): return .exact(movie)
            case .mostPopular(let movie, let others): return .chosen(movie, others: others)
            case .needsChoice(let candidates): return candidates.isEmpty ? .notFound : .needsChoice(candidates)
            case .tied(let candidates): return .needsChoice(candidates, tied: true)
            }
        } catch let error as TMDBError {
            // A request cut short by SIGINT fails like any other; the row must stay unlooked, not be kept as failed.
            try Task.checkCancellation()
            switch error {
            case .unauthorized: throw error
            case .wrongAddress:
                wrongAddress.set(error.description)
                return .failed(error.description)
            case .notFound: return .notFound
            default: return .failed(error.description)
            }
        }
    }

    /// The title and year's match; without a year but with the day it was watched (Netflix), among the movies
    /// released by then, so a remake made after the viewing is never taken for it.
    static func match(_ entry: ImportEntry, _ client: TMDBClient) async throws -> MovieMatch<RemoteMovie> {
        guard entry.year == nil, let latest = entry.latestYear else {
            return try await client.match(title: entry.title, year: entry.year)
        }
        let results = try await client.search(entry.title).filter { ($0.year ?? latest) <= latest }
        return MovieMatch.decide(title: entry.title, year: nil, results: results)
    }

    public static let noCredentials = "no TMDB credentials"
}

extension ImportSummary {
    mutating func count(_ marked: MarkChange) {
        if marked.watched { markedWatched += 1 }
        if marked.rated { ratingsTaken += 1 }
    }

    mutating func count(_ match: ImportMatch) {
        switch match {
        case .exact: exact += 1
        case .chosen: chosen += 1
        case .needsChoice: needsChoice += 1
        case .notFound: notFound += 1
        case .failed: failed += 1
        }
    }
}

/// A message set once, by whichever task sees it first, and read by all.
final class Latch: Sendable {
    private let stored = Mutex<String?>(nil)

    var value: String? { stored.withLock { $0 } }

    func set(_ message: String) { stored.withLock { $0 = $0 ?? message } }
}
