import Foundation
import MustCore
import TMDBStub
import Testing

/// TMDB's figures as they arrive: integers for whole numbers, strings in old answers, "" for no date; and a field
/// mustc cannot read named with what was there.
@Suite final class LenientDecodingTests {
    let stub = TMDBStubServer(movies: StubMovie.classics)

    init() throws { try stub.start() }

    deinit { stub.stop() }

    func client() -> TMDBClient {
        TMDBClient(
            baseURL: stub.baseURL, credentials: .apiKey(stub.apiKey), timeout: 30, retry: .none,
            transport: CurlTransport.stack(time: .system).transport, time: .system, logger: quietLogger)
    }

    func decode(_ json: String) throws -> RemoteMovie {
        try JSONDecoder().decode(RemoteMovie.self, from: Data(json.utf8))
    }

    @Test func numbersArriveAsIntegersFractionsOrStrings() throws {
        let movie = try decode(
            #"{"id": 1, "popularity": "93.4917224393659", "vote_average": 8, "vote_count": 7.0, "release_date": ""}"#)
        #expect(movie.popularity == 93.4917224393659)
        #expect(movie.voteAverage == 8)
        #expect(movie.voteCount == 7)
        #expect(movie.releaseDate == nil)
        #expect(try decode(#"{"id": 1, "vote_count": "12", "popularity": null}"#).voteCount == 12)
        #expect(try decode(#"{"id": 1, "vote_count": "12", "popularity": null}"#).popularity == nil)
    }

    @Test(arguments: [
        (#"{"id": 1, "popularity": "oops"}"#, #"popularity: expected a number, found "oops""#),
        (#"{"id": 1, "popularity": "NaN"}"#, #"popularity: expected a number, found "NaN""#),
        (#"{"id": 1, "vote_count": 7.5}"#, "vote_count: expected a whole number, found 7.5"),
        (#"{"id": 1, "vote_average": true}"#, "vote_average: expected a number, found true"),
        (#"{"id": 1, "vote_average": [1]}"#, "vote_average: expected a number, found an array"),
        (#"{"title": "Up"}"#, "id is missing"),
    ])
    func whatCannotBeReadIsNamedWithWhatWasThere(_ json: String, _ expected: String) {
        #expect {
            try self.decode(json)
        } throws: { error in
            (error as? DecodingError)?.fieldAndProblem == expected
        }
    }

    @Test func theClientTakesAStringPopularity() async throws {
        stub.inject(.field("popularity", json: #""93.4917224393659""#), on: .details(id: 194))
        #expect(try await client().details(id: 194).popularity == 93.4917224393659)
    }

    @Test func theClientNamesTheFieldAndKeepsTheKeyHidden() async throws {
        stub.inject(.field("popularity", json: #""oops""#), on: .details(id: 194))
        await #expect {
            try await self.client().details(id: 194)
        } throws: { error in
            guard case .malformed(let url, let reason) = error as? TMDBError else { return false }
            return reason == #"popularity: expected a number, found "oops""# && !url.contains(self.stub.apiKey)
                && !"\(error)".contains(self.stub.apiKey)
        }
    }

    @Test func anEchoedKeyIsRedactedFromTheReason() async throws {
        stub.inject(.field("vote_count", json: "\"\(stub.apiKey)\""), on: .details(id: 194))
        await #expect {
            try await self.client().details(id: 194)
        } throws: { error in
            "\(error)".contains("vote_count: expected a whole number") && !"\(error)".contains(self.stub.apiKey)
        }
    }
}
