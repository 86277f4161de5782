import ArgumentParser
import Foundation
import MustCore

enum ImportFormatOption: String, CaseIterable, ExpressibleByArgument {
    case auto, letterboxd, imdb, csv

    var format: ImportFormat? { ImportFormat(rawValue: rawValue) }
}

struct ImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Add the movies of Letterboxd, IMDb or mustc CSV lists to a member's list.",
        discussion: """
            Reads Letterboxd's watchlist, watched, ratings and diary CSVs or its export zip, IMDb's ratings and \
            list exports, and the CSV `mustc export` writes; the format comes from the header row. A movie \
            already known is linked at once; the others are looked up as `add` does (by title and year, by \
            IMDb id, never a fuzzy guess), within tmdb.maxRequestsPerSecond. The member's own ratings and \
            watched days come along (Letterboxd's Rating and Watched Date, IMDb's Your Rating and Date Rated). \
            Importing again links only what is new, updates ratings, moves watched days forward and never \
            unmarks a movie. Exit codes: 64 when a file cannot be read, has no usable header, or has only invalid rows; \
            75 when interrupted (importing again continues).
            """
    )

    @OptionGroup var global: GlobalOptions

    @Option(help: "The files' format: auto (from the header), letterboxd, imdb or csv.")
    var format: ImportFormatOption = .auto

    @Flag(help: "Look everything up and say what would happen, but write nothing.")
    var dryRun = false

    @Flag(help: "Print the summary as JSON.")
    var json = false

    @Argument(help: "The family member whose list the movies join, created if new.")
    var member: String

    @Argument(help: "CSV files, or a Letterboxd export .zip.")
    var files: [String] = []

    private var validatedMember = ""

    mutating func validate() throws {
        validatedMember = try NameArgument.validated(member, field: "member name")
        guard !files.isEmpty else { throw ValidationError("give at least one file to import") }
    }

    func run() async throws {
        try await reporting {
            let config = try global.loadConfig()
            let scratch = FileManager.default.temporaryDirectory.appending(path: "mustc-import-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: scratch) }
            let lists: [ImportFile]
            do throws(ImportFileProblem) {
                lists = try ImportFile.open(files, format: format.format, scratch: scratch)
            } catch {
                throw Failure.usage(error.description + "; nothing was imported")
            }
            let store = try openStore(config, scratch: scratch)
            let client = global.lookupClient(config)
            let (summary, unreadable) = try await importing(lists, store: store, client: client, config: config)
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

    /// A dry run imports into a copy of the database (or an empty one when there is none yet), never the file.
    private func openStore(_ config: Config, scratch: URL) throws -> Store {
        let path = global.databasePath(config)
        guard dryRun else { return try global.openStore(config) }
        let copy = scratch.appending(path: "dry-run.sqlite").path
        do {
            try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
            if FileManager.default.fileExists(atPath: path) { try Store.snapshot(of: path, into: copy) }
            return try Store(path: copy, logger: global.logger)
        } catch let error as StoreError {
            throw Failure(store: error)
        }
    }

    private func importing(_ lists: [ImportFile], store: Store, client: TMDBClient?, config: Config) async throws
        -> (ImportSummary, [String])
    {
        let bar = ProgressBar.isTerminal && !json ? ImportProgressBar() : nil
        let output = ImportOutput(member: validatedMember, dryRun: dryRun, quiet: json, bar: bar)
        let importer = Importer(
            store: store, client: client, member: validatedMember, dryRun: dryRun,
            checks: MovieSchedulePolicy(config.schedule), events: output.show)
        let signals = Signals()
        let box = ResultBox()
        defer { bar?.clear() }
        do {
            _ = try await signals.run {
                box.set(try await importer.run(lists))
                return false
            }
        } catch TMDBError.unauthorized(_, let message) {
            throw Failure.config("TMDB rejected the credentials (\(message)); the rows linked before that stay")
        } catch let error as StoreError {
            throw error
        } catch {
            // A file read at the start that cannot be read any more (removed, or a disk error).
            throw Failure.temporary("cannot read the lists any more (\(error.localizedDescription))")
        }
        withExtendedLifetime(signals) {}
        return box.value ?? (ImportSummary(), [])
    }
}
