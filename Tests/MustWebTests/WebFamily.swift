import Clocks
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import MustCore
import NIOCore
import TMDBStub
import Testing

@testable import MustWeb

/// A family in a real SQLite file made through `Store`, and the page's application over it, built by the same
/// `buildApplication` as `mustc serve` and opened in-process (`app.test(.router)`): no port, no binary. Time is a
/// `TestClock` the tests turn.
struct WebFamily: Sendable {
    static let logger = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }
    /// Tuesday 24 November 2026, 10:20:00 UTC: a whole minute, so the ETag's minute turns after 60 s exactly.
    static let start = Date(timeIntervalSince1970: 1_795_515_600)
    static let password = "popcorn on sunday"

    let scratch = TemporaryDirectory("web-app")
    /// The writable store the tests make rows through; the application reads its own read-only one.
    let store: Store
    let clock = TestClock<Duration>()
    let time: TimeSource
    var config = Config()

    init() throws {
        store = try Store(path: scratch.file("mustc.sqlite"), logger: Self.logger)
        time = TimeSource.test(start: Self.start, clock: clock)
        config.serve.timeZone = "UTC"
    }

    var now: Date { time.now() }

    /// Ann keeps Up and Amélie, "Zoë & <b>Co</b>" keeps Spirited Away, Bob keeps a movie TMDB does not know; Up's
    /// rating moved this week.
    static func classic() throws -> WebFamily {
        let family = try WebFamily()
        let up = try family.keep(
            "Ann", RemoteMovie(id: 14160, title: "Up", voteAverage: 7.9, voteCount: 100, releaseDate: "2009-05-28"))
        try family.keep(
            "Ann", RemoteMovie(id: 194, title: "Amélie", voteAverage: 7.9, voteCount: 200, releaseDate: "2001-04-25"))
        try family.keep(
            "Zoë & <b>Co</b>",
            RemoteMovie(id: 129, title: "Spirited Away", voteAverage: 8.5, voteCount: 300, releaseDate: "2001-07-20"))
        _ = try family.store.link(member: "Bob", title: "Not On TMDB", now: family.now)
        try family.rate(
            up, RemoteMovie(id: 14160, title: "Up", voteAverage: 8.3, voteCount: 101, releaseDate: "2009-05-28"))
        return family
    }

    /// Links the member to the movie and stores TMDB's figures for it, as `mustc add` does after its lookup.
    @discardableResult
    func keep(_ member: String, _ movie: RemoteMovie) throws -> Int64 {
        let link = try store.link(member: member, title: movie.title ?? "", now: now)
        return try store.resolve(movieId: link.movieId, with: movie, now: now).movieId
    }

    /// New figures for a movie already kept, as a fetch writes them: a row in its history.
    func rate(_ movieId: Int64, _ movie: RemoteMovie) throws {
        #expect(try store.apply([.ratings(movieId: movieId, movie)], now: now).isEmpty)
    }

    /// Sets the family's password, as `mustc password` does.
    func setPassword() throws {
        try store.replacePassword(hash: FamilyPassword.hash(Self.password))
    }

    /// The application over a read-only store of the family's database, as `mustc serve` opens it.
    func test<Value: Sendable>(_ body: @Sendable (any TestClientProtocol) async throws -> Value) async throws -> Value {
        let reader = try Store.forReading(path: store.path, logger: Self.logger)
        let app = try buildApplication(store: reader, config: config, time: time, logger: Self.logger)
        return try await app.test(.router, body)
    }
}

extension TestClientProtocol {
    func get(_ uri: String, headers: HTTPFields = [:]) async throws -> TestResponse {
        try await executeRequest(uri: uri, method: .get, headers: headers, body: nil)
    }

    /// A form's POST (application/x-www-form-urlencoded), with the session's cookie when given.
    func post(_ uri: String, form: [(String, String)], cookie: String? = nil, origin: String? = nil)
        async throws -> TestResponse
    {
        var headers: HTTPFields = [.contentType: "application/x-www-form-urlencoded"]
        headers[.cookie] = cookie
        headers[.origin] = origin
        let body = form.map { "\($0.0)=\(Self.escaped($0.1))" }.joined(separator: "&")
        return try await executeRequest(uri: uri, method: .post, headers: headers, body: ByteBuffer(string: body))
    }

    static func escaped(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }

    /// Signs in with the family's password; the cookie to send back (`mustc_session=…`).
    func signIn() async throws -> String {
        let answer = try await post("/signin", form: [("password", WebFamily.password)])
        #expect(answer.status == .seeOther)
        let cookie = try #require(answer.headers[.setCookie])
        return String(cookie.prefix { $0 != ";" })
    }
}

extension TestResponse {
    var text: String { String(buffer: body) }

    /// The CSRF token a signed-in page's forms carry.
    var csrf: String? {
        text.firstMatch(of: #/name="csrf" value="([^"]+)"/#).map { String($0.output.1) }
    }
}
