import Foundation
import Logging
import MustCore
import Synchronization

/// What the page needs for edits: the pages' read-only store for every read, a store it may write (opened at the
/// first write, or why it may not), the TMDB clients, and the sign-in state shared by every request (the attempt
/// limiter, the last edit's message for each session).
public final class WebEdits: Sendable {
    /// Why edits are off, when the server cannot write the database; shown on /signin.
    let readOnlyReason: String?
    /// The pages' store: session checks and the forms' data read through it, so page views never write.
    let reader: Store
    let path: String
    /// Opened at the first write (a sign-in, an edit): GRDB's pool writes a table into an empty write-ahead log
    /// when it opens, and a server that is only looked at must leave the file as it found it.
    private let writable = Mutex<MovieEditor?>(nil)
    let config: Config
    let logger: Logger
    let sessions = SessionPolicy()
    let limiter = Mutex(SignInLimiter())
    /// Wrong webhook addresses, counted apart from passwords (Hooks/MediaServerRoutes.swift), and the movies a webhook's
    /// lookup is running for.
    let hookLimiter = Mutex(SignInLimiter())
    let hookLookups = Mutex(Set<Int64>())
    /// The events being written, in turns of one transaction each (Hooks/MediaServerWrites.swift).
    let mediaServerWrites = MediaServerWrites()
    let notices = Mutex(NoticeBoard())
    /// Whether a password is set and whether profiles come first, as of the database file's stamp.
    let accessState = Mutex<(stamp: DataStamp, state: AccessState)?>(nil)
    /// Wrong PINs, counted per profile.
    let lockout = Mutex(ProfileLockout())
    /// The one time source: sessions, the sign-in limiter, notices and edits take "now" from it.
    let time: TimeSource
    /// Made once: every add from the page shares one rate limiter, as a fetch's lookups do.
    let lookupClient: TMDBClient?
    let settleClient: TMDBClient?

    /// Edits stay off, with the reason kept, when this user may not write the database (the path goes to the log
    /// only, as the pages never name files).
    public init(
        path: String, reader: Store, config: Config, logger: Logger, time: TimeSource
    ) {
        self.path = path
        self.reader = reader
        self.config = config
        self.logger = logger
        self.time = time
        if access(path, W_OK) != 0 || access((path as NSString).deletingLastPathComponent, W_OK) != 0 {
            readOnlyReason = "the server runs as a user who may not write the database"
            logger.warning("edits from the page are off: this user cannot write \(path) or its directory")
        } else {
            readOnlyReason = nil
        }
        lookupClient = TMDBClient.forLookups(config, time: time, logger: logger)
        settleClient = TMDBClient.forSettling(config, time: time, logger: logger)
    }

    /// The editor over a writable store, opened on first use; call it on the blocking pool.
    func editor() throws -> MovieEditor {
        if let reason = readOnlyReason { throw EditsOff(reason: reason) }
        let (path, logger, time) = (path, logger, time)
        let checks = MovieSchedulePolicy(config.schedule)
        return try writable.withLock { editor in
            if let editor { return editor }
            // Checkpoints off the commits: many clients' short writes (a media server's events) queue behind one.
            let store = try Store(path: path, logger: logger, backgroundCheckpoints: true)
            let opened = MovieEditor(store: store, checks: checks, time: time)
            editor = opened
            return opened
        }
    }

    /// Runs blocking work (SQLite, bcrypt) through `BlockingWork`, off the event loop and the cooperative threads.
    func blocking<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await BlockingWork.runThrowing { try body() }
    }
}

/// Edits are off: the server may not write the database.
struct EditsOff: Error {
    var reason: String
}

/// The message an edit leaves for the page it redirects to, one per session, shown once. Bounded: a session that
/// never comes back for its message cannot grow it without limit.
struct NoticeBoard: Sendable {
    private var notices: [String: (notice: EditNotice, at: Date)] = [:]
    static let capacity = 1_000

    mutating func post(_ notice: EditNotice, for session: String, at now: Date) {
        notices[session] = (notice, now)
        if notices.count > Self.capacity, let oldest = notices.min(by: { $0.value.at < $1.value.at })?.key {
            notices[oldest] = nil
        }
    }

    mutating func take(for session: String) -> EditNotice? {
        notices.removeValue(forKey: session)?.notice
    }
}

/// What an edit did, in words, with the buttons that follow from it (another remake, a candidate).
struct EditNotice: Sendable {
    var lines: [String]
    /// Buttons that settle the movie as another TMDB movie: the remakes not taken, or the candidates.
    var choices: [SettleChoice] = []
    /// Buttons that add a movie to the member's list: the answers to "which one?".
    var adds: [AddChoice] = []
    var isError = false
    /// The member page's card the edit was made on (`m3`): the notice shows there; nil: at the page's top.
    var card: String?
}

/// One button that adds a movie to a member's list, or (`another`) asks TMDB for one the library does not keep.
struct AddChoice: Sendable {
    var action: String
    var movie: String
    var label: String
    var another = false
    /// Adds the title as typed, without asking whether a close one was meant.
    var typed = false
    /// The page the button's answer returns to; nil: the route's own.
    var back: String?
}

/// One button that says "it is this TMDB movie" for a member's movie: the same arguments as `mustc resolve`.
struct SettleChoice: Sendable {
    var member: String
    var movie: String
    var target: String
    var label: String
    /// The page a failed settle returns to, and a settle from /status (the others go to the settled movie's page).
    var back = "/status"
}
