import Foundation

/// The files of Trakt's account export, read entry by entry: `watched-history.json` (a watch is its latest day; a
/// movie's other entries are re-watches, counted), `ratings-movies.json` (the member's 1–10 rating: a rated movie is
/// a watched one, its day left as the history says), `lists-watchlist.json` (the list). Each entry says which it is
/// by its own fields (`watched_at`, `rated_at`, `listed_at`), so a file is read by content whatever its name. Shows,
/// seasons and episodes are skipped and counted. Movies are matched by the ids the entries carry: TMDB's, then
/// IMDb's, then the title and year.
final class TraktRows: ImportRowSource {
    private let reader: JSONArrayReader
    /// The history's movies, by Trakt's id (else the entry's key), in the order first seen; memory grows with the
    /// movies watched, not with the entries.
    private var watches: [String: Watch] = [:]
    private var order: [String] = []
    /// The watches, told once the file's end shows every re-watch, and where the next one is.
    private var told: [(at: String, row: ImportRow)] = []
    private var next = 0
    private var drained = false

    private struct Watch {
        var entry: ImportEntry
        var number: Int
        var others: [Int] = []
    }

    init(reader: JSONArrayReader) {
        self.reader = reader
    }

    var position: Int { reader.position }
    /// JSON is UTF-8.
    var encoding: ListEncoding { .utf8 }

    func next(member: String, today: WatchDay) throws -> (at: String, row: ImportRow)? {
        while !drained {
            guard let element = try reader.next() else {
                drain()
                break
            }
            switch element {
            case .malformed(let number, let reason):
                return ("entry \(number)", .invalid(reason))
            case .value(let bytes, let number):
                switch TraktEntry.read(bytes, today: today) {
                case .row(let row): return ("entry \(number)", row)
                case .watch(let entry, let key): collect(entry, key: key, number: number)
                }
            }
        }
        guard next < told.count else { return nil }
        defer { next += 1 }
        return told[next]
    }

    private func collect(_ entry: ImportEntry, key: String, number: Int) {
        guard var watch = watches[key] else {
            watches[key] = Watch(entry: entry, number: number)
            order.append(key)
            return
        }
        // The latest day is the watch's, whatever order the file is in (Trakt writes the newest first).
        if let day = entry.mark.on, day > watch.entry.mark.on ?? day {
            watch.others.append(watch.number)
            (watch.entry, watch.number) = (entry, number)
        } else {
            watch.others.append(number)
        }
        watches[key] = watch
    }

    private func drain() {
        drained = true
        for key in order {
            guard let watch = watches[key] else { continue }
            told.append(("entry \(watch.number)", .movie(watch.entry)))
            for number in watch.others {
                told.append(
                    ("entry \(number)", .merged("a re-watch of \(Excerpt.quoted(watch.entry.shown))", rewatch: true)))
            }
        }
        watches = [:]
    }
}

/// One entry of a Trakt export file.
enum TraktEntry {
    case watch(ImportEntry, key: String)
    case row(ImportRow)

    static func read(_ bytes: [UInt8], today: WatchDay) -> TraktEntry {
        let parsed = Result { () throws(JSONReadError) in try JSONReader.parse(Data(bytes)) }
        if case .failure(let error) = parsed, error.isTooDeep {
            return .row(.invalid("the entry nests deeper than \(JSONReader.maxDepth) levels"))
        }
        guard case .object(let object)? = try? parsed.get() else {
            let start = String(decoding: bytes.prefix(400), as: UTF8.self)
            return .row(.invalid("the entry is not a JSON object: \(Excerpt.quoted(start))"))
        }
        let type = object["type"]?.string?.lowercased()
        guard case .object(let movie)? = object["movie"] else {
            for kind in ["episode", "season", "show"] where object[kind]?.object != nil || type == kind {
                let show = object["show"]?.object?["title"]?.string.map { " of \(Excerpt.quoted($0))" } ?? ""
                return .row(.episode(kind == "show" ? "a show\(show), not a movie" : "a TV \(kind)\(show)"))
            }
            if let type { return .row(.skipped("a \(Excerpt.shown(type)), not a movie")) }
            return .row(.invalid("the entry names no movie (no \"movie\" object)"))
        }
        var entry: ImportEntry
        switch Self.entry(movie) {
        case .success(let found): entry = found
        case .failure(let problem): return .row(.invalid(problem.reason))
        }
        if let watched = (object["watched_at"] ?? object["last_watched_at"])?.string {
            entry.mark.watched = true
            let day = String(watched.prefix(10))
            if let problem = WatchDay.problem(day, today: today) {
                entry.markProblem = "the watched_at \(Excerpt.quoted(watched)) \(problem); not taken"
            } else {
                entry.mark.on = WatchDay.parse(day)
            }
            let trakt = movie["ids"]?.object?["trakt"]?.number.flatMap { Int(exactly: $0) }.map { "trakt:\($0)" }
            return .watch(entry, key: trakt ?? entry.key)
        }
        if let rating = object["rating"] {
            // Rated on Trakt is seen; the day stays the history's.
            entry.mark.watched = true
            entry.mark.rating = (rating.number ?? rating.string.flatMap { Double($0) }).flatMap {
                OwnRating.outOfTen($0)
            }
            if entry.mark.rating == nil {
                entry.markProblem =
                    "the rating \(Excerpt.quoted(rating.text)) is not a whole number from 1 to 10; "
                    + "not taken"
            }
        }
        return .row(.movie(entry))
    }

    struct Problem: Error {
        var reason: String
    }

    /// The movie an entry names: its title and year, and its TMDB and IMDb ids when Trakt has them (`imdb` can be
    /// null, or `{}`).
    static func entry(_ movie: [String: JSONValue]) -> Result<ImportEntry, Problem> {
        let ids = movie["ids"]?.object ?? [:]
        var entry = ImportEntry(title: movie["title"]?.string?.trimmingCharacters(in: .whitespaces) ?? "")
        if let year = movie["year"]?.number, let whole = Int(exactly: year), MovieReference.years.contains(whole) {
            entry.year = whole
        }
        if let tmdb = ids["tmdb"]?.number ?? ids["tmdb"]?.string.flatMap(Double.init),
            let id = Int(exactly: tmdb), id > 0, id <= Int32.max
        {
            entry.tmdbId = id
        }
        entry.imdbId = ids["imdb"]?.string.flatMap(MovieReference.imdbId)
        if entry.title.isEmpty {
            entry.title = entry.tmdbId.map { "tmdb:\($0)" } ?? entry.imdbId.map { "imdb:\($0)" } ?? ""
        }
        do {
            entry.title = try NameValidation.validate(entry.title, field: "title")
        } catch {
            return .failure(Problem(reason: error.description))
        }
        return .success(entry)
    }
}

/// Trakt's fields are sometimes null, `{}` or a string where a number is usual: read through the JSON value the
/// config reader also uses, a value of an unexpected type is simply absent.
extension JSONValue {
    fileprivate var string: String? { if case .string(let value) = self { value } else { nil } }
    fileprivate var number: Double? { if case .number(let value) = self { value } else { nil } }
    fileprivate var object: [String: JSONValue]? { if case .object(let value) = self { value } else { nil } }

    /// For a message: the value as the file wrote it, roughly.
    fileprivate var text: String {
        switch self {
        case .string(let value): value
        case .number(let value): value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
        case .bool(let value): String(value)
        case .object: "{…}"
        case .array: "[…]"
        case .null: "null"
        }
    }
}
