import Foundation
import ZIPFoundation

/// One CSV list ready to import: where to read it, what to call it in messages, and its columns.
public struct ImportFile: Sendable, Equatable {
    /// As given on the command line, or "export.zip:watchlist.csv" for a list inside a zip.
    public var name: String
    public var path: String
    public var layout: ImportLayout
    public var size: Int

    /// Opens each file (and each list inside a Letterboxd export zip) and reads its header, so that a bad file
    /// stops the import before anything is written. Lists inside zips are copied into `scratch`.
    public static func open(_ paths: [String], format: ImportFormat?, scratch: URL) throws(ImportFileProblem)
        -> [ImportFile]
    {
        var files: [ImportFile] = []
        for path in paths {
            guard FileManager.default.isReadableFile(atPath: path) else {
                throw ImportFileProblem(file: path, reason: "it does not exist or cannot be read")
            }
            if isZip(path) {
                files += try zipped(path, format: format, scratch: scratch)
            } else {
                files.append(try checked(name: path, path: path, format: format))
            }
        }
        return files
    }

    static func checked(name: String, path: String, format: ImportFormat?) throws(ImportFileProblem) -> ImportFile {
        do {
            let reader = try CSVRecordReader(path: path)
            guard case .fields(let header, _)? = try reader.next() else {
                throw ImportHeaderProblem.unknown([])
            }
            let layout = try ImportLayout.detect(header, format: format, fileName: name)
            return ImportFile(name: name, path: path, layout: layout, size: reader.size)
        } catch let problem as ImportHeaderProblem {
            throw ImportFileProblem(file: name, reason: problem.description)
        } catch {
            throw ImportFileProblem(file: name, reason: "it cannot be read (\(error.localizedDescription))")
        }
    }

    private static func isZip(_ path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        return (try? handle.read(upToCount: 4)) == Data([0x50, 0x4B, 0x03, 0x04])
    }

    /// The film lists of a Letterboxd export, in this order: ratings.csv last, as it holds each film's current
    /// rating where the diary holds the one given at each viewing. Its `deleted/` and `orphaned/` folders and its
    /// other files (profile, comments, lists in another layout) are not the member's list.
    static let letterboxdLists = ["watchlist.csv", "watched.csv", "diary.csv", "ratings.csv"]

    private static func zipped(_ path: String, format: ImportFormat?, scratch: URL) throws(ImportFileProblem)
        -> [ImportFile]
    {
        do {
            let archive = try Archive(url: URL(fileURLWithPath: path), accessMode: .read)
            var found: [(Int, Entry)] = []
            for entry in archive where entry.type == .file {
                let parts = entry.path.split(separator: "/").map(String.init)
                guard let last = parts.last, let rank = letterboxdLists.firstIndex(of: last.lowercased()),
                    !parts.dropLast().contains(where: { ["deleted", "orphaned"].contains($0.lowercased()) })
                else { continue }
                found.append((rank, entry))
            }
            guard !found.isEmpty else {
                throw ImportFileProblem(
                    file: path, reason: "it has none of \(letterboxdLists.joined(separator: ", ")) inside")
            }
            try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
            var files: [ImportFile] = []
            for (index, (_, entry)) in found.sorted(by: { $0.0 < $1.0 }).enumerated() {
                let copy = scratch.appending(path: "\(index)-\(entry.path.split(separator: "/").last ?? "list.csv")")
                _ = try archive.extract(entry, to: copy)
                files.append(try checked(name: "\(path):\(entry.path)", path: copy.path, format: format))
            }
            return files
        } catch let problem as ImportFileProblem {
            throw problem
        } catch {
            throw ImportFileProblem(file: path, reason: "it is not a zip mustc can read (\(error))")
        }
    }
}

/// A file that cannot be imported at all: nothing is written.
public struct ImportFileProblem: Error, Sendable, Equatable, CustomStringConvertible {
    public var file: String
    public var reason: String

    public var description: String { "cannot import \(file): \(reason)" }
}
