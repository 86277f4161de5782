import Foundation
import ZIPFoundation

/// One list ready to import: its rows, past the header; what to call it in messages.
///
/// Each input is opened once and read once, front to back: the reader that read the header goes on with the rows,
/// so a pipe, `-` (standard input) or a FIFO gives the same rows as the file itself.
public struct ImportFile: @unchecked Sendable {
    // Unchecked: the rows are read by one task at a time, first to open the list and then to import it.
    /// As given on the command line, or "export.zip:watchlist.csv" for a list inside a zip.
    public var name: String
    /// Bytes, when known (nil for a stream): for the progress bar.
    public var size: Int?
    let rows: any ImportRowSource

    /// Opens each file (and each list inside a Letterboxd or Trakt export zip) and reads its header, so that a bad
    /// file stops the import before anything is written. A zip given as a stream is copied into `scratch` first:
    /// its table of contents is at its end. A JSON array is read by the format whose container it is (Trakt's);
    /// a CSV by the format its header names (`ImportFormat.detect`), and a Netflix history is read whole here, as
    /// its day and month order and its profile are settled from the whole file.
    /// `letterboxd` names the kind of every CSV given (`--letterboxd`); a zip's lists are named by their entries.
    public static func open(
        _ paths: [String], format: ImportFormat?, encoding: ListEncoding? = nil, letterboxd: LetterboxdList? = nil,
        netflix: NetflixChoice, scratch: URL, interrupt: ReadInterrupt
    ) throws -> [ImportFile] {
        var files: [ImportFile] = []
        for path in paths {
            let input = try ListInput(path: path, interrupt: interrupt)
            var options = Options(format: format, encoding: encoding, interrupt: interrupt, netflix: netflix)
            let json = (format.map { [$0] } ?? ImportFormat.allCases).contains { $0.container == .jsonArray }
            if json, try input.startsLikeJSONArray() {
                files.append(try trakt(name: path, source: input, size: input.size, options))
                continue
            }
            guard try input.startsLikeZip() else {
                let reader = CSVRecordReader(source: input, size: input.size, encoding: encoding)
                options.list = letterboxd
                files.append(try checked(name: path, reader: reader, options))
                continue
            }
            var archive = path
            if input.size == nil {
                archive = scratch.appending(path: "stream-\(files.count).zip").path
                try input.copy(to: archive, scratch: scratch, name: path)
            }
            files += try zipped(archive, name: path, options)
        }
        return files
    }

    struct Options {
        var format: ImportFormat?
        var encoding: ListEncoding?
        var interrupt: ReadInterrupt
        var netflix: NetflixChoice
        var list: LetterboxdList?
    }

    static func checked(name: String, reader: CSVRecordReader, _ options: Options) throws -> ImportFile {
        do {
            let first = try reader.next()
            guard case .fields(let header, _)? = first else {
                if case .malformed(_, let reason)? = first {
                    throw ImportFileProblem(file: name, reason: "its header cannot be read (\(reason))")
                }
                throw ImportFileProblem(file: name, reason: "it is empty: a list starts with a header row")
            }
            reader.expectedFields = header.count
            let format = options.format ?? ImportFormat.detect(header: header)
            if format == .netflix, let netflix = NetflixLayout.detect(header) {
                let rows = try NetflixRows(reader: reader, layout: netflix, name: name, options.netflix)
                return ImportFile(name: name, size: reader.size, rows: rows)
            }
            let layout = try ImportLayout.detect(header, format: format, fileName: name, list: options.list)
            return ImportFile(name: name, size: reader.size, rows: CSVRows(reader: reader, layout: layout))
        } catch let problem as ImportHeaderProblem {
            throw ImportFileProblem(file: name, reason: problem.description)
        } catch let problem as ImportInputProblem {
            throw ImportFileProblem(file: name, reason: problem.description)
        } catch let failure as ReadFailure {
            throw ImportFileProblem(file: name, reason: "it cannot be read (\(failure))")
        } catch let failure as ZipEntryFailure {
            throw ImportFileProblem(file: name, reason: failure.description)
        }
    }

    /// A file of Trakt's export, read up to its array's opening bracket.
    static func trakt(name: String, source: any ByteSource, size: Int?, _ options: Options) throws -> ImportFile {
        let reader = JSONArrayReader(source: source)
        do {
            try reader.start()
        } catch let problem as ImportInputProblem {
            throw ImportFileProblem(file: name, reason: problem.description)
        } catch let failure as ReadFailure {
            throw ImportFileProblem(file: name, reason: "it cannot be read (\(failure))")
        } catch let failure as ZipEntryFailure {
            throw ImportFileProblem(file: name, reason: failure.description)
        }
        return ImportFile(name: name, size: size, rows: TraktRows(reader: reader))
    }

    /// The lists of an export zip (`ImportFormat.zipEntries`), in their order. A Letterboxd export's `deleted/`
    /// and `orphaned/` folders and its other files (profile, comments, lists in another layout) are not the
    /// member's list.
    private static func zipped(_ path: String, name: String, _ options: Options) throws -> [ImportFile] {
        var found: [(rank: Int, format: ImportFormat, entry: String)] = []
        do {
            let archive = try Archive(url: URL(fileURLWithPath: path), accessMode: .read)
            for entry in archive where entry.type == .file {
                let parts = entry.path.split(separator: "/").map(String.init)
                guard let last = parts.last, let list = ImportFormat.zipEntry(last),
                    !parts.dropLast().contains(where: { ["deleted", "orphaned"].contains($0.lowercased()) })
                else { continue }
                found.append((list.rank, list.format, entry.path))
            }
        } catch {
            throw ImportFileProblem(file: name, reason: "it is not a zip mustc can read (\(error))")
        }
        guard !found.isEmpty else {
            throw ImportFileProblem(
                file: name, reason: "it has none of \(ImportFormat.zipEntryNames.joined(separator: ", ")) inside")
        }
        return try found.sorted(by: { $0.rank < $1.rank }).map { _, format, entry in
            let source = try ZipEntrySource(archive: path, entry: entry, interrupt: options.interrupt)
            if format.container == .jsonArray {
                return try trakt(name: "\(name):\(entry)", source: source, size: nil, options)
            }
            let reader = CSVRecordReader(source: source, size: nil, encoding: options.encoding)
            return try checked(name: "\(name):\(entry)", reader: reader, options)
        }
    }
}

/// A file that cannot be imported at all: nothing is written.
public struct ImportFileProblem: Error, Sendable, Equatable, CustomStringConvertible {
    public var file: String
    public var reason: String

    public var description: String { "cannot import \(file): \(reason)" }
}
