import Foundation

/// The two poster sizes mustc keeps, by TMDB's names: `w185` for lists (185 × 278), `w342` for the movie page and
/// for a list on a high-density screen (342 × 513).
public enum PosterSize: String, Sendable, CaseIterable {
    case w185, w342

    /// TMDB's posters are 2:3; these are the sizes the width names.
    public var width: Int {
        switch self {
        case .w185: 185
        case .w342: 342
        }
    }

    public var height: Int { (width * 3 + 1) / 2 }
}

/// The posters directory of one database: `<database>.posters/w185/abc.jpg` and `…/w342/abc.jpg`, beside the
/// database file so a backup of the data directory holds it and a `serve` that may read the database may read it.
/// One directory per database file (not one per data directory), so the bound of one never evicts another's.
public struct PosterShelf: Sendable, Equatable {
    public var directory: String

    public init(directory: String) { self.directory = directory }

    public init(databasePath: String) { directory = databasePath + ".posters" }

    /// Where the poster of a valid path is kept at `size`; nil for a path `PosterPath` refuses.
    public func file(_ path: String, size: PosterSize) -> String? {
        guard PosterPath.isValid(path) else { return nil }
        return folder(size) + "/" + PosterPath.fileName(path)
    }

    public func folder(_ size: PosterSize) -> String { directory + "/" + size.rawValue }

    /// Whether the poster is on disk at `size`: one stat(2), which leaves the file's access time alone.
    public func has(_ path: String, size: PosterSize) -> Bool {
        guard let file = file(path, size: size) else { return false }
        var info = stat()
        return stat(file, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG && info.st_size > 0
    }

    /// The poster paths ("/abc.jpg") kept at both sizes: one listing of each folder, for a run's start.
    public func keptPaths() -> Set<String> {
        func names(_ size: PosterSize) -> Set<String> {
            Set((try? FileManager.default.contentsOfDirectory(atPath: folder(size))) ?? [])
        }
        return Set(names(.w185).intersection(names(.w342)).map { "/" + $0 })
    }

    /// The path, when its poster is on disk at `size`; nil otherwise, so the page draws the placeholder rather than
    /// a broken image while a download is pending or after it failed.
    public func kept(_ path: String?, size: PosterSize = .w185) -> String? {
        guard let path, has(path, size: size) else { return nil }
        return path
    }
}
