import Foundation
import MustCore
import Synchronization

/// What `import` prints as rows go by: problems and what needs a person always (a dry run: every row), the
/// summary at the end. Invalid rows go to stderr with their file and line.
final class ImportOutput: Sendable {
    let member: String
    let dryRun: Bool
    /// --json: stdout carries the summary alone.
    let quiet: Bool
    let bar: ImportProgressBar?
    /// The library's movies a typo away from a title (`Store.closeTitles`), for a row TMDB found nothing for.
    let close: @Sendable (MovieReference) -> [String]
    /// Whether the missing credentials were mentioned: once, and only when a row needed TMDB.
    private let warned = Mutex(false)
    private let addressWarned = Mutex(false)

    init(
        member: String, dryRun: Bool, quiet: Bool, bar: ImportProgressBar?,
        close: @escaping @Sendable (MovieReference) -> [String] = { _ in [] }
    ) {
        self.member = member
        self.close = close
        self.dryRun = dryRun
        self.quiet = quiet
        self.bar = bar
    }

    func show(_ event: ImportEvent) {
        switch event {
        case .progress(let fraction, let summary):
            bar?.update(fraction, summary)
        case .invalid(let place, let reason):
            bar?.clear()
            Output.note("\(place): invalid row, not imported: \(reason)")
        case .markNotTaken(let place, let reason):
            bar?.clear()
            Output.note("\(place): \(reason)")
        case .unsure(let place, let reason):
            line("\(place)  unsure: \(reason)")
        case .skipped(let place, let reason):
            if dryRun { line("\(place)  skipped: \(reason)") }
        case .merged(let place, let reason):
            if dryRun { line("\(place)  \(reason): counted with it") }
        case .known(let place, let entry, let alreadyLinked):
            guard dryRun else { return }
            line("\(place)  \(named(entry)): " + (alreadyLinked ? "already on \(member)'s list" : "known; would link"))
        case .looked(let place, let entry, let match, let alreadyLinked):
            if alreadyLinked {
                if dryRun { line("\(place)  \(named(entry)): named again; already linked above") }
            } else {
                looked(place, entry, match)
            }
        }
    }

    private func looked(_ place: String, _ entry: ImportEntry, _ match: ImportMatch) {
        switch match {
        case .exact(let remote):
            if dryRun { line("\(place)  \(named(entry)): \(Self.shown(remote))") }
        case .chosen(let remote, let others):
            line(
                "\(place)  \(named(entry)): the title of \(others.count + 1) TMDB movies; took the most popular, "
                    + "\(Self.shown(remote)). If you meant another:")
            let named = MovieReference.title(entry.title, year: remote.year ?? entry.year)
            for other in others { line(pick(named, other)) }
        case .needsChoice(let candidates, let tied):
            let why =
                tied
                ? "\(candidates.count) TMDB movies have exactly this title and none is more popular"
                : "no TMDB title is exactly this"
            line("\(place)  \(named(entry)): \(why); kept without a TMDB id. Pick one:")
            for candidate in candidates { line(pick(MovieReference.title(entry.title, year: entry.year), candidate)) }
        case .notFound:
            line("\(place)  \(named(entry)): TMDB found nothing; kept without a TMDB id.")
            // The row is kept as written, as the import asks nobody; a kept movie a typo away is named.
            for text in close(MovieReference.title(entry.title, year: entry.year)) { line(text) }
        case .failed(let reason) where reason == Importer.noCredentials:
            guard Self.firstTime(warned) else { return }
            bar?.clear()
            Output.note(
                "no TMDB credentials (set TMDB_API_KEY or TMDB_ACCESS_TOKEN): the movies not known yet are kept "
                    + "without a TMDB id, and the first fetch after they are set looks them up.")
        case .failed(let reason) where reason.hasPrefix(TMDBError.wrongAddressHeadline):
            guard Self.firstTime(addressWarned) else { return }
            bar?.clear()
            Output.note(
                "\(reason); the movies not known yet are kept, and the first fetch after it is fixed looks them up.")
        case .failed(let reason):
            line("\(place)  \(named(entry)): not looked up (\(reason)); kept, and the next fetch looks it up.")
        }
    }

    /// True the first time it is asked for this flag: a problem shared by every row is told once.
    private static func firstTime(_ flag: borrowing Mutex<Bool>) -> Bool {
        flag.withLock { told in
            defer { told = true }
            return !told
        }
    }

    private func pick(_ movie: MovieReference, _ remote: RemoteMovie) -> String {
        "    mustc resolve \(Shell.quoted(member)) \(movie.argument) tmdb:\(remote.id)    # \(Self.shown(remote))"
    }

    private func named(_ entry: ImportEntry) -> String {
        entry.imdbId.map { "\(quoted(entry.shown)) (\($0))" } ?? quoted(entry.shown)
    }

    private func line(_ text: String) {
        guard !quiet else { return }
        bar?.clear()
        print(text)
    }

    static func shown(_ remote: RemoteMovie) -> String {
        "\(MovieName.shown(remote.title ?? "untitled", remote.year)), tmdb:\(remote.id)"
    }

    static func summary(_ summary: ImportSummary, member: String) -> String {
        let head =
            summary.dryRun
            ? "Dry run, nothing written: \(summary.rows) rows; would link \(summary.linked) to \(member)'s list, "
                + "\(summary.alreadyLinked) already there."
            : "\(member): \(summary.rows) rows; linked \(summary.linked), \(summary.alreadyLinked) already linked."
        let lookups =
            "TMDB: \(summary.exact) exact, \(summary.chosen) chosen by popularity among remakes, "
            + "\(summary.needsChoice) need a choice, \(summary.notFound) not found, \(summary.failed) not looked up."
        var rest = "Skipped \(summary.skipped) (not movies, or other members' rows); \(summary.invalid) invalid."
        if summary.episodes + summary.extras + summary.unsure > 0 {
            let others = summary.skipped - summary.episodes - summary.extras - summary.unsure
            let unsure =
                summary.unsure > 0 ? "\(summary.unsure) unsure whether film or episode (listed above), " : ""
            rest =
                "Skipped \(summary.skipped): \(summary.episodes) shows or episodes, \(unsure)\(summary.extras) "
                + "trailers, recaps, previews or short plays, \(others) others (not movies, or other members' or "
                + "profiles' rows); \(summary.invalid) invalid."
        }
        if summary.merged > 0 {
            rest +=
                "\nMerged \(summary.merged) rows into the watch another row carries: \(summary.rewatches) re-watches, "
                + "\(summary.merged - summary.rewatches) more sessions or days of one viewing."
        }
        var marks =
            "\(summary.dryRun ? "Would mark" : "Marked") \(summary.markedWatched) watched; "
            + "took \(summary.ratingsTaken) of \(member)'s ratings."
        if summary.marksNotTaken > 0 {
            let rows = summary.marksNotTaken == 1 ? "1 row" : "\(summary.marksNotTaken) rows"
            marks += " \(rows) had a rating or day that could not be read (told above); not taken."
        }
        return [head, lookups, marks, rest, encodings(summary.encodings)].joined(separator: "\n")
    }

    /// "Read as UTF-8.", or each list's encoding when they differ; Windows-1252 says why it was chosen.
    static func encodings(_ encodings: [String: String]) -> String {
        func name(_ raw: String) -> String {
            guard let encoding = ListEncoding(rawValue: raw) else { return raw }
            return encoding == .windows1252 ? "Windows-1252 (not UTF-8)" : encoding.name
        }
        let distinct = Set(encodings.values)
        guard distinct.count > 1 else { return "Read as \(name(distinct.first ?? "utf-8"))." }
        return "Read "
            + encodings.sorted { $0.key < $1.key }.map { "\($0.key) as \(name($0.value))" }
            .joined(separator: ", ") + "."
    }
}

/// The import's result, handed out of the task a signal can cancel.
final class ResultBox: Sendable {
    private let stored = Mutex<(ImportSummary, [String])?>(nil)

    func set(_ value: (summary: ImportSummary, unreadable: [String])) {
        stored.withLock { $0 = (value.summary, value.unreadable) }
    }

    var value: (ImportSummary, [String])? { stored.withLock { $0 } }
}
