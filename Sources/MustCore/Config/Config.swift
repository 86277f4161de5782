import Foundation

/// Everything mustc can be configured with. Every field has a default that works.
public struct Config: Sendable, Equatable {
    public struct TMDB: Sendable, Equatable {
        public var apiKey: String?
        public var accessToken: String?
        public var baseURL = URL(string: "https://api.themoviedb.org/3")!
        /// TMDB's image host, not the API: posters come from `{imageBaseURL}{size}{poster_path}`, with no key.
        public var imageBaseURL = URL(string: "https://image.tmdb.org/t/p/")!
        /// TMDB's `language` parameter: titles come in it ("fr-FR" gives "Le Parrain"). Always sent, so what a
        /// family reads does not depend on TMDB's default.
        public var language = "en-US"
        public var requestTimeout: TimeInterval = 10
        public var maxRequestsPerSecond: Double = 35
        public var maxRetries = 3
        public var transport = HTTPTransportKind.curl

        public var credentials: TMDBCredentials? {
            if let accessToken, !accessToken.isEmpty { return .accessToken(accessToken) }
            if let apiKey, !apiKey.isEmpty { return .apiKey(apiKey) }
            return nil
        }
    }

    public struct Fetch: Sendable, Equatable {
        public var maxConcurrentOperations = 4
        public var runBudget: TimeInterval = 30 * 60
        /// Movies per transaction. Writes leave the HTTP thread, so a longer one stalls no request; 200 a commit
        /// wrote 3 µs less per movie than 50 (perf, none changed) and holds the write lock about 2 ms.
        public var writeBatchSize = 200
        /// A command (argv, no shell) run after a newData run with that run's changes as JSON on its stdin.
        public var onNewData: [String]?
        public var onNewDataTimeout: TimeInterval = 30
    }

    public struct History: Sendable, Equatable {
        /// Entries older than this are pruned during a fetch.
        public var keep: TimeInterval = 365 * 86400
    }

    public struct Serve: Sendable, Equatable {
        /// Where `mustc serve` listens: loopback unless the user asks for the network.
        public var listen = ListenAddress(host: "127.0.0.1", port: 8080)
        /// The zone the pages write times in (an IANA name such as "Europe/Berlin"); nil is the system's.
        public var timeZone: String?
        /// More names the page answers to (besides its listen address, localhost, 127.0.0.1, [::1] and this
        /// machine's names and addresses): a proxy's public name, a name in /etc/hosts. Any other `Host` gets 421,
        /// so a website the family visits cannot read the lists through DNS rebinding.
        public var hosts: [String] = []
        /// The page's address as others reach it (a proxy's https URL), without a trailing slash: the base of the
        /// webhook URLs `mustc webhook` prints, and of the links in notifications. nil: the listen address.
        public var publicURL: String?
        /// A reverse proxy's signed-in user, believed from its addresses only; nil: no header is believed.
        public var proxyAuth: ProxyAuth?
    }

    public struct Posters: Sendable, Equatable {
        /// The posters directory's bound: unused posters go first, then those shown least recently. 0 keeps none.
        public var maxBytes: Int64 = 500_000_000
        /// Downloads at once, apart from the API's requests.
        public var maxConcurrentDownloads = 4
    }

    public struct Schedule: Sendable, Equatable {
        public var minimumInterval: TimeInterval = 15 * 60
        public var maximumInterval: TimeInterval = 24 * 3600
        public var backoffFactor: Double = 2
        public var failureRetryInterval: TimeInterval = 10 * 60
        public var notFoundRetryInterval: TimeInterval = 7 * 24 * 3600
    }

    /// Who watches and where: the region whose certifications and providers are read, the services the
    /// family pays for, and how often the large appended blocks are asked for again.
    public struct Family: Sendable, Equatable {
        /// ISO 3166-1 alpha-2, in capitals.
        public var region = "US"
        /// Provider names or ids (as text), as the user wrote them.
        public var services: [String] = []
        /// A movie's release and provider blocks are asked for again once older than this; every other refresh
        /// is the small details request (1.6 KB against about 80 KB for a popular movie with both blocks).
        public var availabilityEvery: TimeInterval = 24 * 3600

        public init() {}
    }

    /// Suggestions: the fetch's daily budget of TMDB requests for them, recommendations and details
    /// together; 0 turns them off.
    public struct Suggest: Sendable, Equatable {
        public var requestsPerDay = 60

        public init() {}
    }

    public var database: String?
    public var tmdb = TMDB()
    public var family = Family()
    public var fetch = Fetch()
    public var schedule = Schedule()
    public var history = History()
    public var serve = Serve()
    public var posters = Posters()
    public var notify = Notify()
    public var suggest = Suggest()

    public init() {}
}

extension Config {
    /// Where the family hears of news: ntfy, Gotify and a plain webhook, what kinds of news, and when
    /// tonight's pick goes out.
    public struct Notify: Sendable, Equatable {
        public enum Kind: String, Sendable, CaseIterable { case availability, rating, night }

        public var destinations: [NotifyDestination] = []
        /// Availability only by default: the news families ask for.
        public var kinds: Set<Kind> = [.availability]
        /// The weekly time of tonight's pick, in `serve.timeZone`; needs `night` in `kinds`.
        public var tonight: WeeklyTime?
        /// One deadline for a run's sends, however many destinations hang.
        public var sendTimeout: TimeInterval = 10

        public init() {}

        /// Every token and header value, to keep out of output, logs and child environments.
        public var secrets: [String] {
            destinations.flatMap { [$0.token].compactMap { $0 } + Array($0.headers.values) }.filter { !$0.isEmpty }
        }
    }
}

/// How mustc authenticates to TMDB. Never printed: `description` is redacted.
public enum TMDBCredentials: Sendable, Equatable, CustomStringConvertible {
    case apiKey(String)
    case accessToken(String)

    public var description: String {
        switch self {
        case .apiKey: "api key (redacted)"
        case .accessToken: "access token (redacted)"
        }
    }

    var secret: String {
        switch self {
        case .apiKey(let value), .accessToken(let value): value
        }
    }
}
