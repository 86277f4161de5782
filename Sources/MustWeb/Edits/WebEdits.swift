import Foundation
import Logging
import MustCore
import NIOPosix
import Synchronization

/// What the page needs for edits: a store it may write (or why it may not), the TMDB client settings, and the
/// sign-in state shared by every request (the attempt limiter, the last edit's message for each session).
public final class WebEdits: Sendable {
    /// Why edits are off, when the server cannot write the database; shown on /signin.
    let readOnlyReason: String?
    let editor: MovieEditor?
    let config: Config
    let logger: Logger
    let sessions = SessionPolicy()
    let limiter = Mutex(SignInLimiter())
    let notices = Mutex(NoticeBoard())
    /// Whether a password is set, as of the database file's stamp (size and time of the file and its log): a
    /// password set or removed by `mustc password` writes the file, so the stamp moves with it.
    let passwordSet = Mutex<(stamp: DataStamp, isSet: Bool)?>(nil)
    let clock: @Sendable () -> Date
    /// Made once: every add from the page shares one rate limiter, as a fetch's lookups do.
    let lookupClient: TMDBClient?
    let settleClient: TMDBClient?

    /// Opens the database for writing when this user may; otherwise edits stay off and the reason is kept (the
    /// path goes to the log only, as the pages never name files).
    public init(path: String, config: Config, logger: Logger, clock: @escaping @Sendable () -> Date = { Date() }) {
        self.config = config
        self.logger = logger
        self.clock = clock
        var reason: String?
        var editor: MovieEditor?
        if access(path, W_OK) != 0 || access((path as NSString).deletingLastPathComponent, W_OK) != 0 {
            reason = "the server runs as a user who may not write the database"
            logger.warning("edits from the page are off: this user cannot write \(path) or its directory")
        } else {
            do {
                editor = MovieEditor(
                    store: try Store(path: path, logger: logger), checks: MovieSchedulePolicy(config.schedule),
                    clock: clock)
            } catch {
                reason = "the server could not open the database for writing"
                logger.warning("edits from the page are off: \(error)")
            }
        }
        self.readOnlyReason = reason
        self.editor = editor
        lookupClient = TMDBClient.forLookups(config, logger: logger)
        settleClient = TMDBClient.forSettling(config, logger: logger)
    }

    /// Runs blocking work (SQLite, bcrypt) on NIO's thread pool, off the event loop and the cooperative threads.
    func blocking<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await NIOThreadPool.singleton.runIfActive { try body() }
    }
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
    var isError = false
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
