import Foundation

/// The list formats `mustc import` reads.
public enum ImportFormat: String, CaseIterable, Sendable {
    case letterboxd, imdb, csv

    /// The columns a file of this format must have, as its exports spell them.
    public var requiredColumns: [String] {
        switch self {
        case .letterboxd: ["Name", "Year"]
        case .imdb: ["Const", "Title"]
        case .csv: ["title"]
        }
    }

    public var name: String {
        switch self {
        case .letterboxd: "Letterboxd"
        case .imdb: "IMDb"
        case .csv: "mustc CSV"
        }
    }
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
    /// The film's boxd.it URI, from a Letterboxd watchlist or watched list: films are told apart by it.
    public var letterboxdUri: String?

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
        return "title:" + TitleKey.make(title) + (year.map { " (\($0))" } ?? "")
    }

    public var shown: String { MovieName.shown(title, year) }
}

/// What one row of a list says.
public enum ImportRow: Sendable, Equatable {
    case movie(ImportEntry)
    /// Not a movie (an IMDb TV series), or another member's row in a mustc CSV.
    case skipped(String)
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
        return layout
    }

    private static func columns(_ header: [String], format: ImportFormat?) throws(ImportHeaderProblem)
        -> ImportLayout
    {
        let names = header.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        func column(_ name: String) -> Int? { names.firstIndex(of: name.lowercased()) }
        let chosen: ImportFormat
        if let format {
            chosen = format
        } else if column("Const") != nil {
            chosen = .imdb
        } else if column("Name") != nil, column("Year") != nil {
            chosen = .letterboxd
        } else if column("title") != nil {
            chosen = .csv
        } else {
            throw .unknown(header)
        }
        let missing = chosen.requiredColumns.filter { column($0) == nil }
        guard missing.isEmpty else { throw .missing(chosen, missing) }
        switch chosen {
        case .letterboxd:
            // The URI names the film in watchlist.csv and watched.csv; in ratings.csv and diary.csv (with a
            // Rating or Watched Date column) it names the member's entry, and a rewatch has another one.
            let entries = column("Rating") != nil || column("Watched Date") != nil
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
                letterboxdUri: column("letterboxdUri"), memberColumn: column("member"),
                columns: header.count)
        }
    }

    /// IMDb's title types that are movies, folded (lowercase, no spaces), as its exports have spelled them: 2011–2015
    /// wrote `Feature Film`, `TV Movie`, `Video`, `Documentary`, `Short Film`; later ones `movie`, `tvMovie`,
    /// `video`, `short`. Series, episodes, games and specials are not movies (the README has the table).
    static let movieTypes: Set<String> = [
        "movie", "featurefilm", "tvmovie", "video", "documentary", "shortfilm", "short",
    ]

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
            let folded = type.lowercased().filter { !$0.isWhitespace }
            if !type.isEmpty, !Self.movieTypes.contains(folded) {
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
                + "Letterboxd (Name, Year), IMDb (Const, Title) or mustc CSV (title) columns"
        case .missing(let format, let columns):
            return "it has no \(columns.joined(separator: ", ")) column\(columns.count == 1 ? "" : "s"), "
                + "which \(format.name) files have"
        case .whichLetterboxdList:
            return "it has the columns of both Letterboxd's watched.csv and watchlist.csv, and its name does not say "
                + "which; say so with --letterboxd watched (every movie in it was watched) or --letterboxd watchlist"
        }
    }
}
