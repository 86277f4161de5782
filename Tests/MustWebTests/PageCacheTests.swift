import Clocks
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import MustCore
import NIOCore
import Synchronization
import TestSupport
import Testing

@testable import MustWeb

/// The cache of rendered answers on its own, and behind `Freshness` over a real database: what is kept, for how
/// long, within which bounds, and that requests with credentials are always rendered.
@Suite struct PageCacheTests {
    static func page(_ text: String, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) -> PageCache.Page {
        PageCache.Page(status: status, headers: headers, body: ByteBuffer(string: text))
    }

    static func key(_ target: String) -> PageCache.Key { PageCache.Key(method: .get, target: target) }

    /// Asks `cache` for `target` and counts the renders it needed.
    static func load(
        _ cache: PageCache, _ target: String, _ validator: String, renders: Count,
        page: PageCache.Page? = nil
    ) async throws -> String {
        let answer = try await cache.page(for: key(target), validator: validator) {
            renders.add()
            return page ?? Self.page("\(target) under \(validator)")
        }
        return String(buffer: answer.body)
    }

    @Test func aKeptPageIsSentAgainOnlyUnderItsValidator() async throws {
        let cache = PageCache()
        let renders = Count()
        #expect(try await Self.load(cache, "/members/Ann", "v1", renders: renders) == "/members/Ann under v1")
        #expect(try await Self.load(cache, "/members/Ann", "v1", renders: renders) == "/members/Ann under v1")
        #expect(renders.now == 1)
        // A write (or the minute's turn) changes the validator: rendered again, and the new answer is kept.
        #expect(try await Self.load(cache, "/members/Ann", "v2", renders: renders) == "/members/Ann under v2")
        #expect(try await Self.load(cache, "/members/Ann", "v2", renders: renders) == "/members/Ann under v2")
        #expect(renders.now == 2)
        // The query is part of the page.
        #expect(try await Self.load(cache, "/members/Ann?sort=year", "v2", renders: renders).hasSuffix("year under v2"))
        #expect(renders.now == 3)
        #expect(cache.count == 2)
    }

    @Test func errorsAndCookiesAreNeverKept() async throws {
        let cache = PageCache()
        let renders = Count()
        let missing = Self.page("not found", status: .notFound)
        let signedIn = Self.page("hello Ann", headers: [.setCookie: "session=1"])
        for _ in 0..<2 {
            _ = try await Self.load(cache, "/members/Nobody", "v1", renders: renders, page: missing)
            _ = try await Self.load(cache, "/members/Ann", "v1", renders: renders, page: signedIn)
            await #expect(throws: PageError.self) {
                try await cache.page(for: Self.key("/changes?since=abc"), validator: "v1") {
                    renders.add()
                    throw PageError.badRequest("since=abc")
                }
            }
        }
        #expect(renders.now == 6)
        #expect(cache.count == 0 && cache.bytes == 0)

        let plain = HTTPRequest(method: .get, scheme: "http", authority: "home", path: "/")
        #expect(PageCache.mayServe(plain))
        var withCookie = plain
        withCookie.headerFields[.cookie] = "session=1"
        var withAuthorization = plain
        withAuthorization.headerFields[.authorization] = "Basic YTpi"
        var post = plain
        post.method = .post
        #expect(!PageCache.mayServe(withCookie) && !PageCache.mayServe(withAuthorization) && !PageCache.mayServe(post))
    }

    @Test func theLeastRecentlyUsedPageGoesFirstWithinEntriesAndBytes() async throws {
        let cache = PageCache(maxEntries: 2, maxBytes: 1000)
        let renders = Count()
        _ = try await Self.load(cache, "/a", "v", renders: renders)
        _ = try await Self.load(cache, "/b", "v", renders: renders)
        _ = try await Self.load(cache, "/a", "v", renders: renders)  // /a is now the more recent
        _ = try await Self.load(cache, "/c", "v", renders: renders)  // evicts /b
        #expect(renders.now == 3)
        _ = try await Self.load(cache, "/a", "v", renders: renders)
        #expect(renders.now == 3)
        _ = try await Self.load(cache, "/b", "v", renders: renders)
        #expect(renders.now == 4)
        #expect(cache.count == 2)

        // Bytes: two pages of 200 bytes fit in 500, a third pushes the oldest out; one over a quarter is not kept.
        let small = PageCache(maxEntries: 10, maxBytes: 500)
        let big = Self.page(String(repeating: "x", count: 200))
        for target in ["/1", "/2", "/3"] {
            _ = try await Self.load(
                small, target, "v", renders: renders, page: Self.page(String(repeating: "y", count: 120)))
        }
        #expect(small.count == 3 && small.bytes == 360)
        _ = try await Self.load(small, "/big", "v", renders: renders, page: big)
        #expect(small.count == 3 && small.bytes == 360, "200 bytes is over a quarter of 500")
        let tiny = PageCache(maxEntries: 10, maxBytes: 1000)
        for target in ["/1", "/2", "/3", "/4", "/5", "/6"] {
            _ = try await Self.load(tiny, target, "v", renders: renders, page: big)
        }
        #expect(tiny.count == 5 && tiny.bytes == 1000)
    }

    @Test func concurrentMissesOfOnePageRenderOnce() async throws {
        let cache = PageCache()
        let renders = Count()
        let (gate, open) = AsyncStream<Void>.makeStream()
        let answers = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<10 {
                group.addTask {
                    let page = try await cache.page(for: Self.key("/"), validator: "v") {
                        renders.add()
                        for await _ in gate {}
                        return Self.page("the family")
                    }
                    return String(buffer: page.body)
                }
            }
            // Held until the nine others wait for the first render (or a deadline passes, and the count fails).
            await Poll.until(within: .seconds(20)) { cache.waiting(for: Self.key("/")) >= 9 }
            open.finish()
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(answers == Array(repeating: "the family", count: 10))
        #expect(renders.now == 1)
    }
}

/// `Freshness` with its cache over a real database: requests carrying a cookie are rendered every time.
@Suite struct FreshnessCacheTests {
    struct Source: RequestContextSource { var logger: Logger }

    struct Context: RequestContext {
        typealias Source = FreshnessCacheTests.Source
        var coreContext: CoreRequestContextStorage
        init(source: Source) { coreContext = .init(source: source) }
    }

    @Test func aSignedInRequestIsRenderedEveryTime() async throws {
        let directory = FileManager.default.temporaryDirectory.appending(path: "mustc-pagecache-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let logger = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }
        let store = try Store(path: directory.appending(path: "mustc.sqlite").path, logger: logger)
        let clock = TestClock<Duration>()
        let time = TimeSource.test(start: Date(timeIntervalSince1970: 1_800_000_000), clock: clock)
        let freshness = Freshness<Context>(reader: StoreReader(store: store), cache: PageCache(), time: time)
        let renders = Count()

        func load(cookie: String?) async throws -> String {
            var head = HTTPRequest(method: .get, scheme: "http", authority: "home", path: "/members/Ann")
            head.headerFields[.cookie] = cookie
            let request = Request(head: head, body: RequestBody(buffer: ByteBuffer()))
            let response = try await freshness.handle(request, context: Context(source: Source(logger: logger))) {
                _, _ in
                renders.add()
                return Site.response("Ann's list", type: "text/html; charset=utf-8")
            }
            #expect(response.status == .ok)
            return try #require(response.headers[.eTag])
        }

        var tags: Set<String> = []
        for _ in 0..<3 { tags.insert(try await load(cookie: nil)) }
        // Rendered once under one validator, not once per load: the clock stands still.
        #expect(renders.now == 1 && tags.count == 1)
        for _ in 0..<3 { _ = try await load(cookie: "session=ann") }
        #expect(renders.now == 4)
        // The minute turns: a new validator, rendered once more.
        await clock.advance(by: .seconds(60))
        #expect(try await load(cookie: nil) != tags.first)
        #expect(try await load(cookie: nil) != tags.first)
        #expect(renders.now == 5)
    }
}

/// How many times a render ran, from any task.
final class Count: Sendable {
    private let value = Atomic(0)
    func add() { value.add(1, ordering: .relaxed) }
    var now: Int { value.load(ordering: .relaxed) }
}
