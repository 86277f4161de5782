import Foundation

/// The list formats `mustc import` reads, and what tells each apart: the container its rows come in, the header
/// columns of a CSV, the entries of an export zip. Detection tries them in this order and the first to claim a file
/// takes it: a Netflix history's `Title` would also make it a mustc CSV, and a header with `Const` is IMDb's even
/// with a `Name` and a `Year`.
public enum ImportFormat: String, CaseIterable, Sendable {
    case netflix, imdb, letterboxd, csv, trakt

    /// How a file of the format holds its rows.
    public enum Container: Sendable {
        /// A CSV file, told by its header's columns (`identifies`).
        case csv
        /// A JSON array of objects.
        case jsonArray
    }

    public var container: Container { self == .trakt ? .jsonArray : .csv }

    /// Whether a CSV header is this format's; names are compared trimmed and in any case.
    public func identifies(header: [String]) -> Bool {
        let names = Set(header.map { $0.trimmingCharacters(in: .whitespaces).lowercased() })
        switch self {
        case .netflix: return NetflixLayout.detect(header) != nil
        case .imdb: return names.contains("const")
        case .letterboxd: return names.isSuperset(of: ["name", "year"])
        case .csv: return names.contains("title")
        case .trakt: return false
        }
    }

    /// The entries of an export zip that are lists of this format, by file name in any case, in the order they are
    /// imported: Letterboxd's ratings.csv last, as it holds each film's current rating where the diary holds the one
    /// given at each viewing; Trakt's ratings after its history, marking watched without moving the history's days.
    public var zipEntries: [String] {
        switch self {
        case .letterboxd: ["watchlist.csv", "watched.csv", "diary.csv", "ratings.csv"]
        case .trakt: ["lists-watchlist.json", "watched-history.json", "ratings-movies.json"]
        case .netflix, .imdb, .csv: []
        }
    }

    /// Read column by column through an `ImportLayout`; Netflix's and Trakt's files have readers of their own, as
    /// their rows are settled from the whole file or are JSON.
    var readByColumns: Bool {
        switch self {
        case .letterboxd, .imdb, .csv: true
        case .netflix, .trakt: false
        }
    }

    /// The columns a file of this format must have, as its exports spell them; none for the formats not read by
    /// columns.
    public var requiredColumns: [String] {
        switch self {
        case .letterboxd: ["Name", "Year"]
        case .imdb: ["Const", "Title"]
        case .csv: ["title"]
        case .netflix, .trakt: []
        }
    }

    public var name: String {
        switch self {
        case .letterboxd: "Letterboxd"
        case .imdb: "IMDb"
        case .csv: "mustc CSV"
        case .netflix: "Netflix"
        case .trakt: "Trakt"
        }
    }

    /// The first of `formats` whose CSV header `header` is; nil when none reads it.
    public static func detect(header: [String], among formats: [ImportFormat] = allCases) -> ImportFormat? {
        formats.first { $0.container == .csv && $0.identifies(header: header) }
    }

    /// The format an export zip's entry is a list of, and its place in the order the lists are imported.
    static func zipEntry(_ fileName: String) -> (format: ImportFormat, rank: Int)? {
        let name = fileName.lowercased()
        var rank = 0
        for format in allCases {
            if let index = format.zipEntries.firstIndex(of: name) { return (format, rank + index) }
            rank += format.zipEntries.count
        }
        return nil
    }

    /// Every format's zip entries, in the order they are imported.
    static let zipEntryNames = allCases.flatMap(\.zipEntries)
}

/// Which of Letterboxd's lists a file is. `watched.csv` and `watchlist.csv` have the same columns, so only the file's
/// name, or `--letterboxd`, tells a list of movies seen from one of movies to see.
public enum LetterboxdList: String, CaseIterable, Sendable {
    case watched, watchlist, diary, ratings

    /// The list a file's name says, exactly as Letterboxd's export names it: "watched.csv", "export.zip:watched.csv",
    /// "/home/ann/watchlist.csv"; nil for "-", "/dev/stdin", "watched (1).csv".
    public static func named(_ fileName: String?) -> LetterboxdList? {
        guard let file = fileName?.split(separator: "/").last?.split(separator: ":").last?.lowercased(),
            file.hasSuffix(".csv")
        else { return nil }
        return LetterboxdList(rawValue: String(file.dropLast(4)))
    }

    /// Every row of it is a movie the member watched (a film rated or logged is a film watched).
    var everyRowWatched: Bool { self != .watchlist }
}

/// A movie named by one row of a list: its title and year, and its ids when the list has them.
public struct ImportEntry: Sendable, Equatable, Hashable {
    public var title: String
    public var year: Int?
    public var tmdbId: Int?
    public var imdbId: String?
    /// Whether the row says the member watched it, the day, and their rating (ImportLayout+Marks).
    public var mark = WatchMark()
    /// A watched day or rating the row has but that could not be read: not taken, the movie still is.
    public var markProblem: String?
    /// The film's boxd.it URI, from a Letterboxd watchlist, watched list or ratings: films are told apart by it.
    public var letterboxdUri: String?
    /// The title is Letterboxd's own spelling of the film: two rows spelled apart ("Rain" and "rain", 2019) are two
    /// films even where no film URI tells them apart (a diary imported alone).
    public var exactTitle = false
    /// The movie's id in the database a mustc export was written from: the same movie when this is that database
    /// and the id still names a movie of exactly this title and year.
    public var mustcId: Int64?
    /// The latest year the movie can be from, when the list gives no year but a day it was watched (Netflix): a
    /// lookup leaves out TMDB's movies released after it.
    public var latestYear: Int?

    public init(
        title: String, year: Int? = nil, tmdbId: Int? = nil, imdbId: String? = nil, letterboxdUri: String? = nil
    ) {
        self.title = title
        self.year = year
        self.tmdbId = tmdbId
        self.imdbId = imdbId
        self.letterboxdUri = letterboxdUri
    }

    /// The same movie named twice (a rewatch in a diary, a film on two lists) has the same key.
    public var key: String {
        if let tmdbId { return "tmdb:\(tmdbId)" }
        if let imdbId { return "imdb:\(imdbId)" }
        if let letterboxdUri { return "letterboxd:\(letterboxdUri)" }
        let year = year.map { " (\($0))" } ?? ""
        return exactTitle ? "exact:" + title + year : "title:" + TitleKey.make(title) + year
    }

    public var shown: String { MovieName.shown(title, year) }
}

/// What one row of a list says.
public enum ImportRow: Sendable, Equatable {
    case movie(ImportEntry)
    /// Not a movie (an IMDb TV series), or another member's row in a mustc CSV.
    case skipped(String)
    /// A show, a season or an episode (Trakt, Netflix): skipped, and counted apart.
    case episode(String)
    /// A trailer, hook, recap or preview, or a play too short to be a viewing (Netflix): skipped, counted apart.
    case extra(String)
    /// A title that may be a film or an episode, which TMDB could not be asked about (Netflix): skipped, counted
    /// apart, and told.
    case unsure(String)
    /// A row naming a watch another row of the file already carries: a re-watch in Trakt's history (`rewatch`),
    /// another session or day of one Netflix viewing.
    case merged(String, rewatch: Bool)
    case invalid(String)
}

/// Where a format's columns are in one file, found by name (IMDb's column sets vary between versions).
public struct ImportLayout: Sendable, Equatable {
    public var format: ImportFormat
    var title: Int
    var year: Int?
    var tmdbId: Int?
    var imdbId: Int?
    var titleType: Int?
    var letterboxdUri: Int?
    var mustcId: Int?
    var memberColumn: Int?
    /// Where the watched mark, its day and the member's rating are, if anywhere.
    var marks = MarkColumns()
    public var columns: Int

    /// The layout of `header` in the given format, or detected when `format` is nil. `list` (`--letterboxd`), else
    /// `fileName`, tells a Letterboxd `watched.csv` (every row watched) from a `watchlist.csv` with the same columns;
    /// when neither does, the file is refused rather than guessed.
    public static func detect(
        _ header: [String], format: ImportFormat?, fileName: String? = nil, list: LetterboxdList? = nil
    ) throws(ImportHeaderProblem) -> ImportLayout {
        var layout = try columns(header, format: format)
        let list = list ?? LetterboxdList.named(fileName)
        layout.marks = MarkColumns(header, format: layout.format, list: list)
        if layout.format == .letterboxd, list == nil, layout.letterboxdUri != nil, !layout.marks.everyRowWatched {
            throw .whichLetterboxdList
        }
        if list == .diary { layout.letterboxdUri = nil }
        return layout
    }

    private static func columns(_ header: [String], format: ImportFormat?) throws(ImportHeaderProblem)
        -> ImportLayout
    {
        let names = header.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        func column(_ name: String) -> Int? { names.firstIndex(of: name.lowercased()) }
        let readByColumns = ImportFormat.allCases.filter(\.readByColumns)
        guard let chosen = format ?? ImportFormat.detect(header: header, among: readByColumns) else {
            throw .unknown(header)
        }
        let missing = chosen.requiredColumns.filter { column($0) == nil }
        guard missing.isEmpty else { throw .missing(chosen, missing) }
        switch chosen {
        case .letterboxd:
            // The URI names the film in watchlist.csv, watched.csv and ratings.csv (as real exports write them);
            // in diary.csv (with a Watched Date or Rewatch column) it names the entry, and a rewatch has another.
            let entries = column("Watched Date") != nil || column("Rewatch") != nil
            return ImportLayout(
                format: chosen, title: column("Name")!, year: column("Year"),
                letterboxdUri: entries ? nil : column("Letterboxd URI"), columns: header.count)
        case .imdb:
            return ImportLayout(
                format: chosen, title: column("Title")!, year: column("Year"), imdbId: column("Const"),
                titleType: column("Title Type"), columns: header.count)
        case .csv:
            return ImportLayout(
                format: chosen, title: column("title")!, year: column("year"),
                tmdbId: column("tmdbId") ?? column("remoteId"), imdbId: column("imdbId"),
                letterboxdUri: column("letterboxdUri"), mustcId: column("mustcId"), memberColumn: column("member"),
                columns: header.count)
        case .netflix, .trakt:
            // Read by their own readers (`NetflixRows`, `TraktRows`), never by named columns.
            throw .unknown(header)
        }
    }

    /// IMDb's title types that are movies, folded (lowercase, no spaces), as its exports have spelled them: 2011–2015
    /// wrote `Feature Film`, `TV Movie`, `Video`, `Documentary`, `Short Film`; later ones `movie`, `tvMovie`,
    /// `video`, `short`. Series, episodes, games and specials are not movies (the README has the table).
    static let movieTypes: Set<String> = [
        "movie", "featurefilm", "tvmovie", "video", "documentary", "shortfilm", "short",
    ]

    /// Whether an IMDb `Title Type` is a movie's (case and spaces aside); an empty one is taken for a movie.
    public static func isMovie(titleType type: String) -> Bool {
        type.isEmpty || movieTypes.contains(type.lowercased().filter { !$0.isWhitespace })
    }

    /// Reads one row for `member`'s list; a watched day after `today` is not taken.
    public func row(_ fields: [String], member: String, today: WatchDay) -> ImportRow {
        func field(_ index: Int?) -> String {
            guard let index, index < fields.count else { return "" }
            let text = fields[index].trimmingCharacters(in: .whitespaces)
            // mustc's own CSV guards formulas with a leading quote (`SpreadsheetText`); other lists never do.
            return format == .csv ? SpreadsheetText.unguarded(text) : text
        }
        if let titleType {
            let type = field(titleType)
            if !Self.isMovie(titleType: type) {
                return .skipped("a \(Excerpt.shown(type)), not a movie")
            }
        }
        // Folded only when the spelling differs: folding each row of a 100,000-row file showed in its time.
        if let memberColumn, case let named = field(memberColumn), !named.isEmpty, named != member,
            TitleKey.make(named) != TitleKey.make(member)
        {
            return .skipped("\(Excerpt.shown(field(memberColumn)))'s row, not \(member)'s")
        }
        let yearText = field(year)
        var entry = ImportEntry(title: field(title))
        entry.exactTitle = format == .letterboxd
        if !yearText.isEmpty {
            guard let year = Int(yearText), MovieReference.years.contains(year) else {
                return .invalid("the year \(Excerpt.quoted(yearText)) is not a year between 1870 and 2100")
            }
            entry.year = year
        }
        let imdbText = field(imdbId)
        if !imdbText.isEmpty {
            guard let id = MovieReference.imdbId(imdbText) else {
                return .invalid("\(Excerpt.quoted(imdbText)) is not an IMDb id (tt and digits)")
            }
            entry.imdbId = id
        }
        let tmdbText = field(tmdbId)
        if !tmdbText.isEmpty {
            guard let id = Int(tmdbText), id > 0, id <= Int32.max else {
                return .invalid("\(Excerpt.quoted(tmdbText)) is not a TMDB id")
            }
            entry.tmdbId = id
        }
        (entry.mark, entry.markProblem) = marks.read(field, today: today)
        if case let uri = field(letterboxdUri), uri.hasPrefix("https://") || uri.hasPrefix("http://") {
            entry.letterboxdUri = uri
        }
        // An export's titles are spelled as its movies were stored, each row its own movie: "Rain" and "rain"
        // (2019) are two, as in the list they came from.
        if let id = Int64(field(mustcId)), id > 0 { (entry.mustcId, entry.exactTitle) = (id, true) }
        if entry.title.isEmpty, let id = entry.imdbId { entry.title = "imdb:\(id)" }
        do {
            entry.title = try NameValidation.validate(entry.title, field: "title")
        } catch {
            return .invalid(error.description)
        }
        return .movie(entry)
    }
}

/// Why a file's header cannot be read as a list.
public enum ImportHeaderProblem: Error, Sendable, Equatable, CustomStringConvertible {
    case unknown([String])
    case missing(ImportFormat, [String])
    /// Letterboxd's watched.csv or watchlist.csv, and neither the name nor `--letterboxd` says which.
    case whichLetterboxdList

    public var description: String {
        switch self {
        case .unknown(let header):
            let shown = Excerpt.shown(header.prefix(8).joined(separator: ","))
            return "its header (\(shown.isEmpty ? "empty" : shown)) is not a list mustc reads; expected "
                + "Letterboxd (Name, Year), IMDb (Const, Title), Netflix (Title, Date; or Profile Name, Start Time, "
                + "Title) or mustc CSV (title) columns"
        case .missing(let format, let columns):
            return "it has no \(columns.joined(separator: ", ")) column\(columns.count == 1 ? "" : "s"), "
                + "which \(format.name) files have"
        case .whichLetterboxdList:
            return "it has the columns of both Letterboxd's watched.csv and watchlist.csv, and its name does not say "
                + "which; say so with --letterboxd watched (every movie in it was watched) or --letterboxd watchlist"
        }
    }
}
