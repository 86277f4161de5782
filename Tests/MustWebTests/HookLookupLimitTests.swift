import Foundation
import MustCore
import TMDBStub
import Testing

@testable import MustWeb

/// A burst of webhook events naming new movies: at most `WebEdits.pendingLookups` lookups wait for TMDB at once, and
/// the movies past them are left to the next fetch.
@Suite final class HookLookupLimitTests {
    let stub = TMDBStubServer(movies: [])

    init() throws { try stub.start() }

    deinit { stub.stop() }

    @Test func aBurstOfNewMoviesHoldsAtMostAHundredLookups() throws {
        var family = try WebFamily()
        family.config.tmdb.baseURL = stub.baseURL
        family.config.tmdb.apiKey = stub.apiKey
        family.config.tmdb.maxRequestsPerSecond = 1000
        // Every lookup hangs past the test's end: none finishes and makes room.
        stub.inject(.hang(seconds: 60), on: .search, times: nil)
        let edits = WebEdits(
            path: family.store.path, reader: family.store, config: family.config, logger: WebFamily.logger,
            time: family.time)
        let editor = try edits.editor()
        for index in 1...120 {
            let link = try family.store.link(member: "Ann", title: "Film \(index)", now: family.now)
            edits.lookUpLater(link, named: .title("Film \(index)", year: nil), editor: editor)
        }
        let waiting = edits.hookLookups.withLock { $0.count }
        #expect(waiting == WebEdits.pendingLookups && waiting == 100)
        // The twenty past them are stored all the same, waiting for the next fetch.
        #expect(try family.store.moviesToRefresh().filter { $0.remoteId == nil }.count == 120)
    }
}
