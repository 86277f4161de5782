import HTTPTypes
import Hummingbird
import NIOCore
import Synchronization

/// Rendered answers (pages and JSON), kept while the validator they were rendered under still holds: the same
/// `ETag` that `Freshness` sends, built from a stat(2) of the database and its write-ahead log and the current
/// minute. So a kept answer is never older than one a 304 would accept, and a phone without the tag (or `wrk`)
/// gets the page without a query or a render. A member page of 200 movies costs 8.5 ms of CPU to render
/// (contrib/benchmarks/serve); answering it from here costs a lookup.
///
/// Kept only for requests without credentials: a request carrying `Cookie` or `Authorization` is neither answered
/// from here nor stored, and neither is an answer that sets a cookie. Signed-in pages (the edits' sessions, their
/// forms and CSRF tokens) differ per person and must always be rendered for that request.
///
/// Bounded by entries and by bytes; the least recently used entry goes first. Concurrent misses of one key under
/// one validator render once: the first renders, the others wait for its answer (or render themselves if it
/// failed or could not be kept).
final class PageCache: Sendable {
    /// A rendered answer: what a kept page needs to be sent again.
    struct Page: Sendable {
        var status: HTTPResponse.Status
        var headers: HTTPFields
        var body: ByteBuffer

        var response: Response {
            Response(status: status, headers: headers, body: .init(byteBuffer: body))
        }
    }

    /// Method, path and query exactly as asked: `?sort=year` and `?sort=title` are two pages. `variant` tells the
    /// signed-in rendering of a page (its controls, a placeholder for the token) from the signed-out one.
    struct Key: Hashable, Sendable {
        var method: HTTPRequest.Method
        var target: String
        var variant = ""
    }

    private struct Entry {
        var validator: String
        var page: Page
        var lastUse: UInt64
    }

    private struct Flight {
        var validator: String
        var waiters: [CheckedContinuation<Page?, Never>] = []
    }

    private struct State {
        var entries: [Key: Entry] = [:]
        var bytes = 0
        var clock: UInt64 = 0
        var flights: [Key: Flight] = [:]
    }

    private enum Decision {
        case hit(Page)
        case lead
        case wait
        case renderAlone
    }

    let maxEntries: Int
    let maxBytes: Int
    private let state = Mutex(State())

    /// 256 pages and 16 MB: a member page of 200 movies is about 100 KB, and the server peaked at 53 MB without a
    /// cache against a goal of 80 MB.
    init(maxEntries: Int = 256, maxBytes: Int = 16 * 1024 * 1024) {
        self.maxEntries = maxEntries
        self.maxBytes = maxBytes
    }

    /// Whether a request may be answered from the cache, or its answer kept: GET or HEAD, no credentials.
    static func mayServe(_ request: HTTPRequest) -> Bool {
        (request.method == .get || request.method == .head) && request.headerFields[.cookie] == nil
            && request.headerFields[.authorization] == nil
    }

    /// Whether a rendered answer may be kept: a success that sets no cookie. Error pages are rendered each time.
    static func mayKeep(_ page: Page) -> Bool {
        page.status == .ok && page.headers[.setCookie] == nil
    }

    var count: Int { state.withLock { $0.entries.count } }
    var bytes: Int { state.withLock { $0.bytes } }
    /// How many requests wait for the render of `key` now under way.
    func waiting(for key: Key) -> Int { state.withLock { $0.flights[key]?.waiters.count ?? 0 } }

    /// The answer kept for `key` under `validator`, or `render`'s, kept for the next request when it may be.
    func page(for key: Key, validator: String, render: () async throws -> Page) async throws -> Page {
        switch decide(key, validator) {
        case .hit(let page):
            return page
        case .wait:
            if let page = await awaitFlight(key, validator) { return page }
            return try await render()
        case .renderAlone:
            return try await render()
        case .lead:
            let page: Page
            do {
                page = try await render()
            } catch {
                land(key, validator, nil)
                throw error
            }
            land(key, validator, Self.mayKeep(page) ? page : nil)
            return page
        }
    }

    private func decide(_ key: Key, _ validator: String) -> Decision {
        state.withLock { state in
            state.clock += 1
            if let entry = state.entries[key], entry.validator == validator {
                state.entries[key]?.lastUse = state.clock
                return .hit(entry.page)
            }
            guard let flight = state.flights[key] else {
                state.flights[key] = Flight(validator: validator)
                return .lead
            }
            // A render under an older (or newer) validator is not this page: render alongside it.
            return flight.validator == validator ? .wait : .renderAlone
        }
    }

    private func awaitFlight(_ key: Key, _ validator: String) async -> Page? {
        await withCheckedContinuation { continuation in
            let landed: Page?? = state.withLock { state in
                if state.flights[key]?.validator == validator {
                    state.flights[key]?.waiters.append(continuation)
                    return nil
                }
                // The flight landed between deciding and waiting: its page is kept, or it could not be.
                let entry = state.entries[key]
                return .some(entry?.validator == validator ? entry?.page : nil)
            }
            if let landed { continuation.resume(returning: landed) }
        }
    }

    /// Ends the flight of `key`: keeps `page` if there is one, and hands it (or nil) to every waiter.
    private func land(_ key: Key, _ validator: String, _ page: Page?) {
        let waiters = state.withLock { state -> [CheckedContinuation<Page?, Never>] in
            let waiters = state.flights.removeValue(forKey: key)?.waiters ?? []
            if let page { Self.keep(page, for: key, validator: validator, in: &state, limits: self) }
            return waiters
        }
        for waiter in waiters { waiter.resume(returning: page) }
    }

    private static func keep(_ page: Page, for key: Key, validator: String, in state: inout State, limits: PageCache) {
        let size = page.body.readableBytes
        // One answer may take at most a quarter of the budget, so that one huge page does not empty the cache.
        guard size <= limits.maxBytes / 4 else { return }
        if let old = state.entries.removeValue(forKey: key) { state.bytes -= old.page.body.readableBytes }
        // Least recently used first; a linear scan over at most a few hundred entries, only when one is added.
        while !state.entries.isEmpty
            && (state.entries.count >= limits.maxEntries || state.bytes + size > limits.maxBytes)
        {
            guard let oldest = state.entries.min(by: { $0.value.lastUse < $1.value.lastUse }) else { break }
            state.entries.removeValue(forKey: oldest.key)
            state.bytes -= oldest.value.page.body.readableBytes
        }
        state.clock += 1
        state.entries[key] = Entry(validator: validator, page: page, lastUse: state.clock)
        state.bytes += size
    }
}

extension PageCache.Page {
    /// Reads a response's whole body, so that it can be sent now and kept for later.
    init(_ response: Response) async throws {
        let collector = BodyCollector()
        try await response.body.write(collector)
        self.init(status: response.status, headers: response.headers, body: collector.buffer)
    }
}

/// A `ResponseBodyWriter` that gathers what a body writes into one buffer.
private final class BodyCollector: ResponseBodyWriter {
    var buffer = ByteBuffer()

    func write(_ buffer: ByteBuffer) async throws {
        // The pages write one buffer: kept as it is, without a copy into a buffer grown to twice its size.
        guard self.buffer.readableBytes > 0 else { return self.buffer = buffer }
        var buffer = buffer
        self.buffer.writeBuffer(&buffer)
    }

    func finish(_ trailingHeaders: HTTPFields?) async throws {}
}
