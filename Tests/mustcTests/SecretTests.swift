import Foundation
import TMDBStub
import Testing

/// The TMDB key or token never shows, whatever the command, verbosity or failure.
@Suite final class SecretTests {
    static let key = "k3y-\(UUID().uuidString)"
    static let token = "t0ken-\(UUID().uuidString)"
    let stub: TMDBStubServer
    let mustc: MustcBinary

    init() throws {
        stub = TMDBStubServer(apiKey: Self.key, accessToken: Self.token, movies: StubMovie.classics)
        try stub.start()
        mustc = MustcBinary(stub: stub)
    }

    // The accept thread keeps a started stub alive; only stop() ends it and closes its sockets.
    deinit { stub.stop() }

    func expectNoSecret(_ outcome: Outcome, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(!outcome.all.contains(Self.key), sourceLocation: sourceLocation)
        #expect(!outcome.all.contains(Self.token), sourceLocation: sourceLocation)
    }

    @Test func verboseRunsLogRedactedURLs() async throws {
        let added = try await mustc("add", "--verbose", "Alice", "Amélie")
        #expect(added.status == 0)
        #expect(added.stderr.contains("api_key=REDACTED"))
        expectNoSecret(added)
        expectNoSecret(try await mustc("ratings", "--verbose", "--format", "json"))
        expectNoSecret(try await mustc("movies", "-v"))
    }

    @Test func rejectedCredentialsAreReportedWithoutThem() async throws {
        var wrong = mustc
        wrong.environment["TMDB_API_KEY"] = Self.key + "-wrong"
        let outcome = try await wrong("add", "--verbose", "Alice", "Up")
        #expect(outcome.status == 0)
        #expect(outcome.stderr.contains("401") || outcome.stderr.contains("rejected"))
        expectNoSecret(outcome)
        #expect(!outcome.all.contains(Self.key + "-wrong"))
    }

    @Test func bearerTokenNeverShows() async throws {
        var bearer = mustc
        bearer.environment["TMDB_API_KEY"] = nil
        bearer.environment["TMDB_ACCESS_TOKEN"] = Self.token
        let outcome = try await bearer("add", "-v", "Alice", "Spirited Away")
        #expect(outcome.status == 0)
        #expect(outcome.stdout.contains("id 129"))
        expectNoSecret(outcome)
    }

    @Test func secretsInABrokenConfigFileDoNotLeak() async throws {
        let path = mustc.home.file("config.json")
        try #"{"tmdb": {"apiKey": "\#(Self.key)", "bogus": 1}}"#.write(toFile: path, atomically: true, encoding: .utf8)
        let unknown = try await mustc("add", "--config", path, "-v", "Alice", "Up")
        #expect(unknown.status == 78)
        expectNoSecret(unknown)
        try #"{"tmdb": {"apiKey": "\#(Self.key)"#.write(toFile: path, atomically: true, encoding: .utf8)
        let malformed = try await mustc("add", "--config", path, "-v", "Alice", "Up")
        #expect(malformed.status == 78)
        expectNoSecret(malformed)
    }
}
