import Foundation
import MustCore
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A TMDB v3-compatible HTTP server on loopback for tests and benchmarks: the real paths, field names,
/// status codes and error bodies, with injectable faults, latency and a rate limit.
public final class TMDBStubServer: @unchecked Sendable {
    public let apiKey: String
    public let accessToken: String

    private let lock = NSLock()
    // Guarded by `lock`.
    private var movies: [Int: StubMovie] = [:] {
        didSet { searchIndex = nil }
    }
    /// Folded titles, built on the first search after a change: searching stays cheap with 50,000 movies.
    private var searchIndex: [(suffix: String, id: Int, whole: Bool)]?
    /// Runtime, genres, certifications and offers set by tests; the others get `StubExtras.standard`.
    private var extras: [Int: StubExtras] = [:]
    /// `/movie/{id}/recommendations`, by seed id, as tests set them; unset: an empty page, as TMDB answers for an
    /// obscure movie.
    var recommendations: [Int: [Int]] = [:]
    /// Serialised blocks, by what they hold (see `blockUnlocked`), shared by every stub in the process: a block is
    /// made from its key's values alone, and each test's stub had made the same few again (a popular movie's
    /// providers are 80 KB of JSON), 1.4 of the suite's CPU-seconds.
    private static let blockCache = Mutex<[String: CutBlock]>([:])
    /// A movie's details as last serialised, with the movie and extras they were made from (see `detailsUnlocked`).
    private var detailsCache: [Int: (movie: StubMovie, extras: StubExtras, body: Data)] = [:]
    private var faults: [FaultRule] = []
    private var recorded: [RecordedRequest] = []
    private var recordedImages: [RecordedRequest] = []
    private(set) var imagesServed = 0
    private(set) var served = 0
    private(set) var rateLimitedCount = 0
    private var inFlight = 0
    private(set) var peakInFlight = 0
    private var rateWindow: [Date] = []
    private var latencySeconds: Double = 0
    private var limit: (requests: Int, per: Double)?
    private var holding: (@Sendable (RecordedRequest) -> Bool)?
    private var heldNow = 0
    private var server: LoopbackListener?
    var changeLog = ChangeLog()

    public private(set) var port: UInt16 = 0
    public var recordsRequests = true

    public init(apiKey: String = "stub-api-key", accessToken: String = "stub-access-token", movies: [StubMovie] = []) {
        self.apiKey = apiKey
        self.accessToken = accessToken
        for movie in movies { self.movies[movie.id] = movie }
    }

    /// Where nothing listens (port 1, tcpmux). Tests of unreachable servers use it rather than stopping a stub,
    /// whose freed port the kernel may hand at once to another test's stub running in parallel.
    public static let unreachableBaseURL = URL(string: "http://127.0.0.1:1/3")!

    /// The base URL clients use, like `https://api.themoviedb.org/3`.
    public var baseURL: URL { URL(string: "http://127.0.0.1:\(port)/3")! }

    // MARK: Catalogue and behaviour

    public func upsert(_ movie: StubMovie) { locked { movies[movie.id] = movie } }
    public func upsert(contentsOf list: [StubMovie]) { locked { for movie in list { movies[movie.id] = movie } } }
    public func remove(id: Int) { locked { _ = movies.removeValue(forKey: id) } }
    public func movie(id: Int) -> StubMovie? { locked { movies[id] } }

    public func update(id: Int, _ change: (inout StubMovie) -> Void) {
        locked { if var movie = movies[id] { change(&movie); movies[id] = movie } }
    }

    /// Sets the movies `GET /movie/{id}/recommendations` lists for `id`, in that order.
    public func setRecommendations(id: Int, _ ids: [Int]) { locked { recommendations[id] = ids } }

    func recommendationsUnlocked(_ id: Int) -> [Int] { recommendations[id] ?? [] }

    /// Sets what the movie's details and appended blocks say.
    public func setExtras(id: Int, _ value: StubExtras) { locked { extras[id] = value } }

    public func updateExtras(id: Int, _ change: (inout StubExtras) -> Void) {
        locked {
            guard let movie = movies[id] else { return }
            var value = extras[id] ?? StubExtras.standard(for: movie)
            change(&value)
            extras[id] = value
        }
    }

    public var latency: Double {
        get { locked { latencySeconds } }
        set { locked { latencySeconds = newValue } }
    }

    /// Answers 429 (status_code 25, Retry-After 1) once more than `requests` arrive within `per` seconds.
    public func setRateLimit(requests: Int, per seconds: Double) { locked { limit = (requests, seconds) } }

    /// Applies `fault` to the next `times` matching requests, or to all of them when `times` is nil.
    public func inject(_ fault: StubFault, on route: StubRoute = .any, times: Int? = 1) {
        locked { faults.append(FaultRule(route: route, fault: fault, remaining: times)) }
    }

    public func clearFaults() { locked { faults.removeAll() } }

    public var requests: [RecordedRequest] { locked { recorded } }
    /// Requests to the image host (`/t/p/…`), apart from the API's: they are not in `requests` or `requestCount`.
    public var imageRequests: [RecordedRequest] { locked { recordedImages } }
    public var imageRequestCount: Int { locked { imagesServed } }
    /// The image host's base URL, like `https://image.tmdb.org/t/p/`.
    public var imageBaseURL: URL { URL(string: "http://127.0.0.1:\(port)\(StubPoster.prefix)")! }
    /// The most requests the stub was answering at one moment, since the start or the last reset.
    public var peakConcurrency: Int { locked { peakInFlight } }
    public func resetCounters() {
        locked {
            (peakInFlight, served, rateLimitedCount, recorded) = (0, 0, 0, [])
            server?.resetAccepted()
        }
    }
    public var requestCount: Int { locked { served } }

    /// Answers the requests `matching` picks only once `release()` is called (or the stub stops), so a test can
    /// hold a run at a known point, still running, instead of racing it against the clock.
    public func hold(_ matching: @escaping @Sendable (RecordedRequest) -> Bool) { locked { holding = matching } }
    public func release() { locked { holding = nil } }
    /// Requests held at this moment.
    public var heldCount: Int { locked { heldNow } }
    /// TCP connections accepted since the start or the last reset: tells whether clients reuse connections.
    public var connectionCount: Int { locked { server }?.accepted ?? 0 }

    // MARK: Lifecycle

    /// Listens on 127.0.0.1 (port 0 picks a free one) and serves on background threads.
    public func start(port requested: UInt16 = 0) throws {
        let started = try LoopbackListener(port: requested, backlog: 128) { [self] in serve($0) }
        locked {
            server = started
            port = started.port
        }
    }

    /// Stops listening and cuts every open connection (see `LoopbackListener.stop`).
    public func stop() { locked { server }?.stop() }

    deinit { stop() }

    /// Whether `stop()` was called; checked between a held or late answer's steps.
    private var isStopped: Bool { locked { server }?.isStopped ?? false }

    private func serve(_ connection: Int32) {
        var wire = HTTPWire(socket: connection)
        while let head = wire.readHead() {
            locked {
                inFlight += 1
                peakInFlight = max(peakInFlight, inFlight)
            }
            let reply = respond(to: head)
            waitWhileHeld(head)
            if reply.delay > 0 { pause(reply.delay) }
            locked { inFlight -= 1 }
            if isStopped { break }
            wire.write(
                status: reply.status, headers: reply.headers, body: reply.body, keepAlive: head.keepAlive,
                cutAt: reply.cutAt)
            if !head.keepAlive || reply.cutAt != nil { break }
        }
    }

    private func waitWhileHeld(_ head: HTTPWire.Head) {
        let (path, query) = Self.split(head.target)
        let request = RecordedRequest(path: path, query: query, headers: head.headers)
        func held() -> Bool { server?.isStopped != true && holding?(request) == true }
        guard locked({ held() }) else { return }
        locked { heldNow += 1 }
        while locked({ held() }) { Thread.sleep(forTimeInterval: 0.01) }
        locked { heldNow -= 1 }
    }

    /// Sleeps in short steps so that `stop()` is not held up by a hanging response.
    private func pause(_ seconds: Double) {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline, !isStopped {
            Thread.sleep(forTimeInterval: min(0.02, max(0, deadline.timeIntervalSinceNow)))
        }
    }

    // MARK: Called with the lock held

    /// Movies with a word of their folded title or original title starting with `key` (TMDB matches words,
    /// not arbitrary substrings): exact matches first, as TMDB ranks them, then by popularity.
    func matches(_ key: String) -> [StubMovie] {
        let index = searchIndex ?? buildSearchIndex()
        var low = 0
        var high = index.count
        while low < high {
            let middle = (low + high) / 2
            if index[middle].suffix < key { low = middle + 1 } else { high = middle }
        }
        var ids = Set<Int>()
        var exact = Set<Int>()
        while low < index.count, index[low].suffix.hasPrefix(key) {
            ids.insert(index[low].id)
            if index[low].whole && index[low].suffix == key { exact.insert(index[low].id) }
            low += 1
        }
        return ids.compactMap { movies[$0] }
            .sorted {
                (exact.contains($0.id) ? 1 : 0, $0.popularity, -$0.id) > (
                    exact.contains($1.id) ? 1 : 0, $1.popularity, -$1.id
                )
            }
    }

    /// Every word-start suffix of every folded title, sorted, so a search is a binary search.
    private func buildSearchIndex() -> [(suffix: String, id: Int, whole: Bool)] {
        var index: [(suffix: String, id: Int, whole: Bool)] = []
        for movie in movies.values {
            for key in Set([Self.fold(movie.title), Self.fold(movie.originalTitle)]) {
                var atWordStart = true
                for position in key.indices {
                    if atWordStart { index.append((String(key[position...]), movie.id, position == key.startIndex)) }
                    atWordStart = key[position] == " "
                }
            }
        }
        index.sort { $0.suffix < $1.suffix }
        searchIndex = index
        return index
    }

    func movieUnlocked(_ id: Int) -> StubMovie? { movies[id] }

    func extrasUnlocked(for movie: StubMovie) -> StubExtras { extras[movie.id] ?? StubExtras.standard(for: movie) }

    /// `GET /movie/{id}`'s own fields as JSON, made again only when the movie or its extras changed: tests fetch
    /// the same unchanged movies run after run, and JSONSerialization was 3% of the whole suite's CPU.
    func detailsUnlocked(_ movie: StubMovie, extras value: StubExtras) -> Data {
        if let kept = detailsCache[movie.id], kept.movie == movie, kept.extras == value { return kept.body }
        var fields = movie.details
        fields["runtime"] = value.runtime ?? NSNull()
        fields["genres"] = value.genresField
        let body = Self.json(fields).body
        detailsCache[movie.id] = (movie, value, body)
        return body
    }

    /// A block as JSON, kept by what it says rather than by movie: a fetch asks for each movie once, and most movies
    /// share their filler countries. The provider links carry the movie's id, put in after.
    func blockUnlocked(_ block: String, movie: StubMovie, extras value: StubExtras) -> Data {
        let key: String
        if block == "release_dates" {
            key = "r \(value.certification ?? "-") \(value.releaseCountries)"
        } else {
            let offers = value.offers.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value.map(\.id))" }
            key = "p \(offers) \(value.providerCountries)"
        }
        let cut: CutBlock
        if let kept = Self.blockCache.withLock({ $0[key] }) {
            cut = kept
        } else {
            let object = block == "release_dates" ? value.releaseDates : value.watchProviders(movieId: 0)
            cut = CutBlock((try? JSONSerialization.data(withJSONObject: object)) ?? Data("null".utf8))
            Self.blockCache.withLock { $0[key] = cut }
        }
        return cut.joined(movieId: movie.id)
    }

    /// A tick of `/_stub/touch?field=providers`: Netflix starts or stops offering the movie by subscription in the US.
    func toggleNetflixUnlocked(_ id: Int) {
        guard let movie = movies[id] else { return }
        var value = extrasUnlocked(for: movie)
        var flatrate = value.offers["flatrate"] ?? []
        if let index = flatrate.firstIndex(of: .netflix) {
            flatrate.remove(at: index)
        } else {
            flatrate.append(.netflix)
        }
        value.offers["flatrate"] = flatrate
        extras[id] = value
    }
    var allMoviesUnlocked: Dictionary<Int, StubMovie>.Values { movies.values }

    func replaceUnlocked(_ movie: StubMovie) { movies[movie.id] = movie }
    var connectionsUnlocked: Int { server?.accepted ?? 0 }

    func authorized(query: [String: String], headers: [String: String]) -> Bool {
        query["api_key"] == apiKey || headers["authorization"] == "Bearer \(accessToken)"
    }

    func noteImage(_ request: RecordedRequest) {
        imagesServed += 1
        if recordsRequests { recordedImages.append(request) }
    }

    func note(_ request: RecordedRequest) {
        served += 1
        if recordsRequests { recorded.append(request) }
    }

    /// A 429 once the sliding window holds more than the limit allows.
    func overLimit() -> Reply? {
        guard let limit else { return nil }
        let now = Date()
        rateWindow.append(now)
        if let firstInWindow = rateWindow.firstIndex(where: { now.timeIntervalSince($0) < limit.per }) {
            rateWindow.removeFirst(firstInWindow)
        }
        guard rateWindow.count > limit.requests else { return nil }
        rateLimitedCount += 1
        return Self.reply(for: .rateLimited(retryAfter: "1"), otherwise: Reply(status: 200, body: Data()))
    }

    func takeFault(for path: String) -> StubFault? {
        guard let index = faults.firstIndex(where: { $0.route.matches(path: path) && $0.remaining != 0 }) else {
            return nil
        }
        let fault = faults[index].fault
        if let remaining = faults[index].remaining { faults[index].remaining = remaining - 1 }
        return fault
    }

    func locked<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }
}

public enum StubError: Error, CustomStringConvertible {
    case socket(String, Int32)

    public var description: String {
        switch self {
        case .socket(let call, let code): "stub server \(call) failed: \(String(cString: strerror(code)))"
        }
    }
}
