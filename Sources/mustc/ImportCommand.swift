import ArgumentParser
import Foundation
import MustCore

enum ImportEncodingOption: String, CaseIterable, ExpressibleByArgument {
    case auto
    case utf8 = "utf-8"
    case windows1252 = "windows-1252"
    case utf16 = "utf-16"

    var encoding: ListEncoding? { ListEncoding(rawValue: rawValue) }
}

extension LetterboxdList: ExpressibleByArgument {}

extension DateOrder: ExpressibleByArgument {}

enum ImportFormatOption: String, CaseIterable, ExpressibleByArgument {
    case auto, letterboxd, imdb, csv

    var format: ImportFormat? { ImportFormat(rawValue: rawValue) }
}

struct ImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Add the movies of Letterboxd, IMDb, Trakt, Netflix or mustc CSV lists to a member's list.",
        discussion: """
            Reads Letterboxd's watchlist, watched, ratings and diary CSVs or its export zip, IMDb's ratings and \
            list exports, Trakt's export zip (or its watched-history.json, ratings-movies.json and \
            lists-watchlist.json), Netflix's NetflixViewingHistory.csv and ViewingActivity.csv, and the CSV `mustc \
            export` writes; the format comes from the content. A movie \
            already known is linked at once; the others are looked up as `add` does (by title and year, by \
            IMDb id, never a fuzzy guess), within tmdb.maxRequestsPerSecond. The member's own ratings and \
            watched days come along (Letterboxd's Rating and Watched Date, IMDb's Your Rating and Date Rated). \
            Importing again links only what is new, updates ratings, moves watched days forward and never \
            unmarks a movie. Each file is read once, as a stream: `-` is standard input, and pipes and FIFOs \
            work. The encoding is detected (UTF-8, UTF-16 with a byte order mark, else Windows-1252) unless \
            --encoding names it. Exit codes: 64 when a file cannot be read, has no usable header, has only \
            invalid rows, or needs --date-order or --netflix-profile; \
            75 when interrupted (importing again continues).
            """
    )

    @OptionGroup var global: GlobalOptions

    @Option(help: "The files' format: auto (from the header), letterboxd, imdb or csv.")
    var format: ImportFormatOption = .auto

    @Option(help: "The files' text encoding: auto, utf-8, windows-1252 or utf-16 (default: auto).")
    var encoding: ImportEncodingOption = .auto

    @Option(
        help: """
            Which Letterboxd list the CSV files are: watched, watchlist, diary or ratings. Needed when a file's name \
            does not say (standard input, "watched (1).csv"): watched.csv and watchlist.csv have the same columns.
            """)
    var letterboxd: LetterboxdList?

    @Option(
        help: """
            The order of day and month in a NetflixViewingHistory.csv's dates (dmy: 27/07/2020, mdy: 07/27/2020). \
            Needed only when no date in the file tells (3/5/25).
            """)
    var dateOrder: DateOrder?

    @Option(
        name: .customLong("netflix-profile"),
        help: "The profile to import from a ViewingActivity.csv. Needed when the file has several.")
    var netflixProfile: String?

    @Flag(help: "Look everything up and say what would happen, but write nothing.")
    var dryRun = false

    @Flag(help: "Print the summary as JSON.")
    var json = false

    @Argument(help: "The family member whose list the movies join, created if new.")
    var member: String

    @Argument(help: "CSV or JSON files, or a Letterboxd or Trakt export .zip; - reads standard input.")
    var files: [String] = []

    private var validatedMember = ""

    mutating func validate() throws {
        validatedMember = try NameArgument.validated(member, field: "member name")
        guard !files.isEmpty else { throw ValidationError("give at least one file to import") }
        if letterboxd != nil, format != .auto, format != .letterboxd {
            throw ValidationError("--letterboxd names a Letterboxd list; it cannot go with --format \(format.rawValue)")
        }
    }

    func run() async throws {
        try await reporting {
            let config = try global.loadConfig()
            let scratch = FileManager.default.temporaryDirectory.appending(path: "mustc-import-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: scratch) }
            // Signals are caught from the start: a FIFO without a writer blocks while the header is read.
            let signals = Signals()
            let interrupt = ReadInterrupt()
            let box = ResultBox()
            do {
                _ = try await signals.run {
                    try await withTaskCancellationHandler {
                        let lists = try opened(scratch: scratch, interrupt: interrupt)
                        let store = try openStore(config, scratch: scratch)
                        box.set(try await importing(lists, store: store, client: global.lookupClient(config), config))
                        return false
                    } onCancel: {
                        interrupt.interrupt()
                    }
                }
            } catch is CancellationError {
                throw Failure.temporary("interrupted while reading the lists; nothing was imported")
            }
            withExtendedLifetime(signals) {}
            let (summary, unreadable) = box.value ?? (ImportSummary(), [])
            if json {
                Output.exact(ReportRenderer.json(summary))
            } else {
                print(ImportOutput.summary(summary, member: validatedMember))
            }
            if !unreadable.isEmpty {
                throw Failure.usage("every row of \(unreadable.joined(separator: ", ")) is invalid")
            }
            if summary.interrupted {
                throw Failure.temporary("interrupted: what was linked stays; import the same files again to continue")
            }
        }
    }

    private func opened(scratch: URL, interrupt: ReadInterrupt) throws -> [ImportFile] {
        do {
            return try ImportFile.open(
                files, format: letterboxd == nil ? format.format : .letterboxd, encoding: encoding.encoding,
                letterboxd: letterboxd,
                netflix: NetflixChoice(
                    dateOrder: dateOrder, profile: netflixProfile, today: WatchDay.of(global.time.now())),
                scratch: scratch, interrupt: interrupt)
        } catch let problem as ImportFileProblem {
            throw Failure.usage(problem.description + "; nothing was imported")
        }
    }

    /// A dry run imports into a copy of the database (or an empty one when there is none yet), never the file.
    private func openStore(_ config: Config, scratch: URL) throws -> Store {
        let path = global.databasePath(config)
        guard dryRun else {
            do {
                return try Store(path: path, logger: global.logger, pooled: false)
            } catch {
                throw Failure(store: error)
            }
        }
        let copy = scratch.appending(path: "dry-run.sqlite").path
        do {
            try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
            if FileManager.default.fileExists(atPath: path) { try Store.snapshot(of: path, into: copy) }
            return try Store(path: copy, logger: global.logger)
        } catch let error as StoreError {
            throw Failure(store: error)
        }
    }

    private func importing(_ lists: [ImportFile], store: Store, client: TMDBClient?, _ config: Config) async throws
        -> (summary: ImportSummary, unreadable: [String])
    {
        let bar = ProgressBar.isTerminal && !json ? ImportProgressBar(time: global.time) : nil
        let member = validatedMember
        let output = ImportOutput(
            member: member, dryRun: dryRun, quiet: json, bar: bar,
            close: { asked in (try? MovieLookup.didYouMean(asked, member: member, store: store)) ?? [] })
        let importer = Importer(
            store: store, client: client, member: validatedMember, dryRun: dryRun,
            checks: MovieSchedulePolicy(config.schedule), time: global.time, events: output.show)
        defer { bar?.clear() }
        do {
            return try await importer.run(lists)
        } catch TMDBError.unauthorized(_, let message) {
            throw Failure.config("TMDB rejected the credentials (\(message)); the rows linked before that stay")
        } catch let error as StoreError {
            throw error
        } catch {
            // A list that cannot be read any more (removed, or a disk error).
            throw Failure.temporary("cannot read the lists any more (\(error))")
        }
    }
}
