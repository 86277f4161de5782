import Foundation
import HTTPTypes
import HummingbirdTesting
import MustCore
import NIOCore
import TMDBStub
import TestSupport
import Testing

@testable import MustWeb

/// A media server's watch of a bare title (no ids, no year) that names two TMDB movies ("Dune": 1984 and 2021),
/// through the real webhook route against the loopback TMDB stub: the movie waits for a choice, unwatched, and the
/// choice applies the watch with its day. A year, or a title only one movie has, links as before.
@Suite final class HookChoiceTests: Sendable {
    let stub = TMDBStubServer(movies: StubMovie.classics + StubMovie.identity)
    let token = WebhookToken.random()

    init() throws { try stub.start() }

    deinit { stub.stop() }

    /// Ann, a password, the stub as TMDB, and a Jellyfin URL.
    func family() throws -> WebFamily {
        var family = try WebFamily()
        family.config.tmdb.baseURL = stub.baseURL
        family.config.tmdb.apiKey = stub.apiKey
        family.config.tmdb.maxRequestsPerSecond = 1000
        try family.keep(
            "Ann", RemoteMovie(id: 194, title: "Amélie", voteAverage: 7.9, voteCount: 200, releaseDate: "2001-04-25"))
        try family.setPassword()
        try family.store.replaceWebhookTokens([.jellyfin: token.hash], now: family.now)
        return family
    }

    /// Jellyfin's `PlaybackStop`, played to the end, for Ann, naming the movie by `fields` alone (no provider ids).
    func stop(_ client: any TestClientProtocol, _ fields: [String: Any]) async throws -> TestResponse {
        var body: [String: Any] = [
            "NotificationType": "PlaybackStop", "ItemType": "Movie", "NotificationUsername": "ann", "UserId": "5c6d7e",
            "RunTimeTicks": 81_840_000_000, "PlaybackPositionTicks": 81_800_000_000, "PlayedToCompletion": true,
            "Timestamp": "2026-11-24T10:20:00.0000000+00:00", "Audio_0_Language": NSNull(),
        ]
        body.merge(fields) { $1 }
        let json = try JSONSerialization.data(withJSONObject: body)
        return try await client.executeRequest(
            uri: "/hooks/jellyfin/\(token.value)", method: .post, headers: [.contentType: "application/json"],
            body: ByteBuffer(bytes: json))
    }

    /// Ann's movies as "title remoteId: watched day", sorted.
    func marks(_ family: WebFamily) throws -> [String] {
        let movies = try family.store.ratings(member: "Ann").members.first?.movies ?? []
        return movies.map { movie in
            "\(movie.title) \(movie.remoteId ?? 0): "
                + (movie.mark.watched ? "watched \(movie.mark.on?.text ?? "-")" : "not watched")
        }.sorted()
    }

    func heldCount(_ family: WebFamily) throws -> String {
        try sqlite(family.store.path, "SELECT count(*) FROM pendingMark")
    }

    /// Waits (20 s at most) for the lookup that follows the answer to save the choice.
    func choices(_ family: WebFamily) async throws -> [MovieNeedingChoice] {
        var seen: [MovieNeedingChoice] = []
        await Poll.until(within: .seconds(20), every: .milliseconds(20)) {
            seen = (try? family.store.status(now: family.now).needsChoice) ?? []
            return !seen.isEmpty
        }
        return seen
    }

    @Test func aBareTitleOfTwoMoviesWaitsForAChoiceThatAppliesTheWatch() async throws {
        let family = try family()
        try await family.test { client in
            let answer = try await stop(client, ["Name": "Dune"])
            #expect(answer.status == .ok)
            #expect(answer.text.hasPrefix("held Ann's watched mark on Dune (2026-11-24)"), "\(answer.text)")
            let waiting = try #require(try await choices(family).first)
            #expect(waiting.shown == "Dune" && waiting.members == ["Ann"])
            #expect(waiting.candidates.map(\.remoteId) == [438631, 841])
            #expect(waiting.held == [HeldMark(member: "Ann", day: "2026-11-24", source: "jellyfin")])
            #expect(try marks(family) == ["Amélie 194: not watched", "Dune 0: not watched"])

            // The same stop again holds nothing more.
            let again = try await stop(client, ["Name": "Dune"])
            #expect(again.text.hasPrefix("Ann's watched mark on Dune was already held: counted once"), "\(again.text)")
            #expect(try heldCount(family) == "1")

            let cookie = try await client.signIn()
            let status = try await client.get("/status", headers: [.cookie: cookie])
            #expect(status.text.contains("Movies that need a choice"))
            #expect(status.text.contains("Ann&#39;s watched mark of 2026-11-24 (from jellyfin) waits for this choice"))
            #expect(status.text.contains("It is Dune (1984), tmdb:841"))
            let settled = try await client.post(
                "/settle",
                form: [
                    ("csrf", try #require(status.csrf)), ("member", "Ann"), ("movie", "Dune"),
                    ("target", "tmdb:841"), ("back", "/status"),
                ], cookie: cookie, origin: "http://localhost")
            #expect(settled.status == .seeOther, "\(settled.text)")
        }
        #expect(try marks(family) == ["Amélie 194: not watched", "Dune 841: watched 2026-11-24"])
        #expect(try heldCount(family) == "0")
        #expect(try sqlite(family.store.path, "SELECT watchedSource FROM memberMovie WHERE watched = 1") == "jellyfin")
        #expect(try family.store.status(now: family.now).needsChoice.isEmpty)
    }

    @Test func aYearOrASingleMovieOfTheTitleLinksAsBefore() async throws {
        let family = try family()
        try await family.test { client in
            let dune = try await stop(client, ["Name": "Dune", "Year": 2021])
            #expect(dune.text.hasPrefix("marked Dune (2021) watched on 2026-11-24 for Ann"), "\(dune.text)")
            // Up has no year here, but TMDB has one Up: held only until the lookup names it.
            let up = try await stop(client, ["Name": "Up"])
            #expect(up.status == .ok)
            let expected = [
                "Amélie 194: not watched", "Dune 438631: watched 2026-11-24", "Up 14160: watched 2026-11-24",
            ]
            var seen: [String] = []
            await Poll.until(within: .seconds(20), every: .milliseconds(20)) {
                // TMDB's rate limit spaces the two lookups on the test's clock: turned a millisecond a look.
                await family.clock.advance(by: .milliseconds(1))
                seen = (try? marks(family)) ?? []
                return seen == expected
            }
            #expect(seen == expected)
        }
        #expect(try heldCount(family) == "0")
        #expect(try family.store.status(now: family.now).needsChoice.isEmpty)
    }
}
