import Foundation
import GRDB

/// A movie as a person names it back: its id, title and year.
public struct MovieName: Sendable, Equatable {
    public var id: Int64
    public var title: String
    public var year: Int?
    public var remoteId: Int?

    public init(id: Int64, title: String, year: Int?, remoteId: Int?) {
        self.id = id
        self.title = title
        self.year = year
        self.remoteId = remoteId
    }

    public var shown: String { Self.shown(title, year) }

    /// "Dune (1984)", or the title alone when the year is unknown or already in it (a title typed that way before
    /// years were kept).
    public static func shown(_ title: String, _ year: Int?) -> String {
        guard let year, !title.hasSuffix("(\(year))") else { return title }
        return "\(title) (\(year))"
    }

    /// What to type to name this movie again: its title and year when the year is known (readable, and it tells
    /// remakes apart), else its TMDB id once known, else its title.
    public var reference: MovieReference {
        if year == nil, let remoteId { return .tmdb(remoteId) }
        return .title(title, year: year)
    }
}

/// One of TMDB's closest results for a title none matched exactly.
public struct MovieCandidate: Sendable, Equatable, Encodable {
    public var remoteId: Int
    public var title: String
    @NullWhenAbsent public var year: Int?

    public init(remoteId: Int, title: String, year: Int?) {
        self.remoteId = remoteId
        self.title = title
        self.year = year
    }

    public var shown: String { MovieName.shown(title, year) }

    /// One of TMDB's results as a candidate.
    init(_ remote: RemoteMovie) {
        self.init(remoteId: remote.id, title: remote.title ?? "untitled", year: remote.year)
    }
}

/// A movie waiting for someone to say which TMDB movie it is.
public struct MovieNeedingChoice: Sendable, Equatable, Encodable {
    public var title: String
    @NullWhenAbsent public var year: Int?
    /// Who keeps it, in name order; the commands shown use the first.
    public var members: [String]
    public var candidates: [MovieCandidate]
    /// Watches a media server sent for the bare title, applied to the movie chosen.
    public var held: [HeldMark] = []

    public var shown: String { MovieName.shown(title, year) }
}

/// Which of a member's movies a reference names.
public enum MemberMovieLookup: Sendable, Equatable {
    case unknownMember
    case unknownMovie
    /// The movie exists, but this member does not keep it.
    case notKept(member: String, MovieName)
    case ambiguous(member: String, [MovieName])
    case found(member: String, memberId: Int64, MovieName)
}

extension Store {
    /// The unique key a movie is: "tmdb:<id>" once resolved; otherwise "imdb:<tt…>" for a movie named by its
    /// IMDb id, or "title:<fold>" and " (<year>)" when a year was given. Migration 0004 writes the same.
    static func identityKey(remoteId: Int) -> String { "tmdb:\(remoteId)" }

    static func identityKey(titleKey: String, year: Int?) -> String {
        "title:" + titleKey + (year.map { " (\($0))" } ?? "")
    }

    /// The movie a reference names, created when none is stored yet; an unseen spelling of a title is kept as an
    /// alias. A movie named by an id and not yet looked up takes the id as its title.
    func findOrCreate(_ db: Database, _ reference: MovieReference, now: Date) throws -> (id: Int64, created: Bool) {
        switch reference {
        case .title(let title, let year):
            let key = TitleKey.make(title)
            let alias = try Int64.fetchOne(
                db, sql: "SELECT movieId FROM movieAlias WHERE key = ? AND year = ?", arguments: [key, year ?? 0])
            let movie =
                try alias.map { ($0, false) }
                ?? insertMovie(
                    db, title: title, titleKey: key, year: year,
                    identity: Self.identityKey(titleKey: key, year: year), now: now)
            try db.execute(
                sql: "INSERT INTO movieAlias (key, year, movieId, title) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING",
                arguments: [key, year ?? 0, movie.0, title])
            return movie
        case .tmdb(let id):
            let byId = try db.cachedStatement(sql: "SELECT id FROM movie WHERE remoteId = ?")
            if let found = try Int64.fetchOne(byId, arguments: [id]) {
                return (found, false)
            }
            return try insertMovie(
                db, title: reference.description, titleKey: reference.description, year: nil,
                identity: Self.identityKey(remoteId: id), remoteId: id, now: now)
        case .imdb(let id):
            let found = try Int64.fetchOne(
                db, sql: "SELECT id FROM movie WHERE imdbId = ? ORDER BY remoteId IS NULL, id LIMIT 1", arguments: [id])
            if let found { return (found, false) }
            return try insertMovie(
                db, title: reference.description, titleKey: reference.description, year: nil,
                identity: reference.description, imdbId: id, now: now)
        }
    }

    /// Inserts unless a row with the identity exists (another process may have just made it); either way, its id.
    private func insertMovie(
        _ db: Database, title: String, titleKey: String, year: Int?, identity: String, remoteId: Int? = nil,
        imdbId: String? = nil, now: Date
    ) throws -> (Int64, Bool) {
        try db.execute(
            cached: """
                INSERT INTO movie (title, titleKey, year, identityKey, remoteId, imdbId, createdAt)
                VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING
                """,
            arguments: [title, titleKey, year, identity, remoteId, imdbId, now.storedValue])
        let created = db.changesCount > 0
        let byIdentity = try db.cachedStatement(sql: "SELECT id FROM movie WHERE identityKey = ?")
        guard let id = try Int64.fetchOne(byIdentity, arguments: [identity])
        else { throw StoreError.failed(reason: "movie vanished during insert") }
        return (id, created)
    }

    /// The member's movie the reference names: by id, or by title (its fold or any alias) and year when given.
    static func memberMovie(_ db: Database, member name: String, _ reference: MovieReference) throws
        -> MemberMovieLookup
    {
        guard
            let member = try Row.fetchOne(
                db, sql: "SELECT id, name FROM member WHERE nameKey = ?", arguments: [TitleKey.make(name)])
        else { return .unknownMember }
        let (memberId, memberName): (Int64, String) = (member["id"], member["name"])
        let everyone = try movies(db, named: reference, keptBy: nil)
        guard !everyone.isEmpty else { return .unknownMovie }
        let kept = try movies(db, named: reference, keptBy: memberId)
        switch kept.count {
        case 0: return .notKept(member: memberName, everyone[0])
        case 1: return .found(member: memberName, memberId: memberId, kept[0])
        default: return .ambiguous(member: memberName, kept)
        }
    }

    static func movies(_ db: Database, named reference: MovieReference, keptBy memberId: Int64?) throws
        -> [MovieName]
    {
        let condition: String
        var arguments: StatementArguments = ["member": memberId]
        switch reference {
        case .tmdb(let id):
            condition = "movie.remoteId = :id"
            arguments += ["id": id]
        case .imdb(let id):
            condition = "movie.imdbId = :id"
            arguments += ["id": id]
        case .title(let title, let year):
            condition = """
                (movie.titleKey = :key OR EXISTS (SELECT 1 FROM movieAlias WHERE movieId = movie.id AND key = :key))
                AND (:year IS NULL OR movie.year = :year
                    OR EXISTS (SELECT 1 FROM movieAlias WHERE movieId = movie.id AND key = :key AND year = :year))
                """
            arguments += ["key": TitleKey.make(title), "year": year]
        }
        return try Row.fetchAll(
            db,
            sql: """
                SELECT movie.id, movie.title, movie.year, movie.remoteId FROM movie
                WHERE \(condition) AND (:member IS NULL
                    OR EXISTS (SELECT 1 FROM memberMovie WHERE movieId = movie.id AND memberId = :member))
                ORDER BY movie.titleKey, movie.year, movie.id
                """,
            arguments: arguments
        ).map { MovieName(id: $0["id"], title: $0["title"], year: $0["year"], remoteId: $0["remoteId"]) }
    }

    /// The member's movie a reference names, for `mustc resolve`.
    public func movie(member name: String, named reference: MovieReference) throws(StoreError) -> MemberMovieLookup {
        try read { db in try Self.memberMovie(db, member: name, reference) }
    }

    /// Every movie of the library a reference names, whoever keeps it: the page asks which one when a typed title
    /// names more than one ("Dune" with Dune (1984) and Dune (2021)).
    public func libraryMovies(named reference: MovieReference) throws(StoreError) -> [MovieName] {
        try read { db in try Self.movies(db, named: reference, keptBy: nil) }
    }

    /// Replaces the candidates shown for a movie no TMDB result matched exactly.
    public func saveCandidates(movieId: Int64, _ candidates: [MovieCandidate]) throws(StoreError) {
        try write { db in try Self.saveCandidates(db, movieId: movieId, candidates) }
    }

    static func saveCandidates(_ db: Database, movieId: Int64, _ candidates: [MovieCandidate]) throws {
        try db.execute(sql: "DELETE FROM movieCandidate WHERE movieId = ?", arguments: [movieId])
        for (rank, candidate) in candidates.enumerated() {
            try db.execute(
                sql: "INSERT INTO movieCandidate (movieId, rank, remoteId, title, year) VALUES (?, ?, ?, ?, ?)",
                arguments: [movieId, rank, candidate.remoteId, candidate.title, candidate.year])
        }
    }

    /// Unresolved movies with candidates waiting for a choice, for `mustc status`.
    static func moviesNeedingChoice(_ db: Database) throws -> [MovieNeedingChoice] {
        let rows = try Row.fetchAll(
            db,
            sql: """
                SELECT movie.id, movie.title, movie.year, movieCandidate.remoteId AS candidateId,
                    movieCandidate.title AS candidateTitle, movieCandidate.year AS candidateYear,
                    (SELECT group_concat(name, char(31)) FROM (SELECT member.name FROM memberMovie
                        JOIN member ON member.id = memberMovie.memberId
                        WHERE memberMovie.movieId = movie.id ORDER BY member.nameKey)) AS members
                FROM movie JOIN movieCandidate ON movieCandidate.movieId = movie.id
                WHERE movie.remoteId IS NULL
                ORDER BY movie.titleKey, movie.year, movie.id, movieCandidate.rank
                """)
        var result: [MovieNeedingChoice] = []
        var current: Int64?
        let held = try heldMarks(db)
        for row in rows {
            let id: Int64 = row["id"]
            if id != current {
                let members = (row["members"] as String?)?.split(separator: "\u{1F}").map(String.init) ?? []
                result.append(
                    MovieNeedingChoice(
                        title: row["title"], year: row["year"], members: members, candidates: [], held: held[id] ?? []))
                current = id
            }
            result[result.count - 1].candidates.append(
                MovieCandidate(remoteId: row["candidateId"], title: row["candidateTitle"], year: row["candidateYear"]))
        }
        return result
    }
}
