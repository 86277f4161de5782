import Foundation
import MustCore
import TMDBStub
import Testing

/// The appended blocks read through the client from the stub over loopback: one region only, TMDB's free-text
/// certifications trimmed, the theatrical release first, and a broken block leaving only its own part unknown.
@Suite final class MovieExtrasTests {
    let stub: TMDBStubServer
    static let popular = StubMovie(id: 438_631, title: "Dune", popularity: 160.4, voteAverage: 7.8, voteCount: 12_000)

    init() throws {
        stub = TMDBStubServer(movies: [Self.popular])
        stub.setExtras(
            id: Self.popular.id,
            StubExtras(
                runtime: 155, genres: ["Science Fiction", "Drama"], certification: "PG-13 ",
                offers: ["flatrate": [.netflix], "ads": [.rokuChannel], "free": [.plex], "rent": [.appleTV]],
                releaseCountries: 50, providerCountries: 80))
        try stub.start()
    }

    deinit { stub.stop() }

    var client: TMDBClient {
        TMDBClient(
            baseURL: stub.baseURL, credentials: .apiKey(stub.apiKey), timeout: 30, retry: .none,
            transport: HTTPTransportKind.curl.stack(maxConnections: 2, time: .system).transport, time: .system,
            logger: quietLogger)
    }

    func extras(_ region: String) async throws -> MovieExtras {
        let (movie, extras) = try await client.details(id: Self.popular.id, extrasRegion: region)
        #expect(movie.voteCount == 12_000)
        return try #require(extras)
    }

    @Test func onlyTheRegionIsReadWithItsCertificationTrimmedAndEveryKind() async throws {
        let us = try await extras("US")
        // This movie's request, not merely the last one: a stub's port can be one another test's stopped server
        // had, and a client of that test's can still reach it (seen once: the last request had no blocks).
        let asked = stub.requests.last { $0.path == "/3/movie/\(Self.popular.id)" }
        #expect(asked?.query["append_to_response"] == "release_dates,watch/providers", "\(stub.requests)")
        #expect(us.runtime == 155 && us.genres == ["Science Fiction", "Drama"])
        #expect(us.certification == .some("PG-13"))
        #expect(us.providers?.map(\.kind) == [.flatrate, .free, .ads, .rent])
        #expect(us.providers?.first == ProviderOffer(kind: .flatrate, id: 8, name: "Netflix"))
        // Another region of the same answer: its own data, never the US's.
        let gb = try await extras("GB")
        #expect(gb.certification == .some("12"))
        #expect(gb.providers?.contains { $0.name == "Local Service 4" } == true)
        #expect(gb.providers?.contains { $0.id == 337 } == false)
        // A region the answer lacks: known to have nothing.
        let none = try await extras("ZZ")
        #expect(none.certification == .some(nil) && none.providers == [])
    }

    @Test func theTheatricalReleaseComesFirstElseTheLowestTypeWithACertification() async throws {
        let releases = #"""
            {"results": [{"iso_3166_1": "DE", "release_dates": []},
              {"iso_3166_1": "US", "release_dates": [
                {"certification": "", "type": 3, "release_date": "2021-10-22T00:00:00.000Z"},
                {"certification": "NR", "type": 5},
                {"certification": " TV-14 ", "note": "", "type": 4, "descriptors": []},
                {"certification": "R ", "type": 3, "iso_639_1": ""}]}]}
            """#
        stub.inject(.field("release_dates", json: releases), on: .details(id: Self.popular.id))
        #expect(try await extras("US").certification == .some("R"))
        let noTheatrical = releases.replacingOccurrences(of: #""R ""#, with: #""""#)
        stub.inject(.field("release_dates", json: noTheatrical), on: .details(id: Self.popular.id))
        #expect(try await extras("US").certification == .some("TV-14"))
    }

    @Test func aBrokenBlockLeavesOnlyItsPartUnknown() async throws {
        stub.inject(.field("release_dates", json: #"{"results": {"US": 1}}"#), on: .details(id: Self.popular.id))
        let noReleases = try await extras("US")
        #expect(noReleases.certification == nil && noReleases.providers?.isEmpty == false)
        stub.inject(.field("watch/providers", json: "null"), on: .details(id: Self.popular.id))
        let noProviders = try await extras("US")
        #expect(noProviders.providers == nil && noProviders.certification == .some("PG-13"))
        stub.inject(.field("runtime", json: #""long""#), on: .details(id: Self.popular.id))
        let noRuntime = try await extras("US")
        #expect(noRuntime.runtime == nil && noRuntime.genres?.count == 2)
    }

    @Test func certificationsComeInTMDBsOrderForTheRegion() async throws {
        let us = try await client.certifications(region: "US")
        #expect(us.sorted { $0.order < $1.order }.map(\.certification) == ["NR", "G", "PG", "PG-13", "R", "NC-17"])
        let gb = try await client.certifications(region: "GB")
        #expect(gb.filter { $0.order == 3 }.map(\.certification).sorted() == ["12", "12A"])
        #expect(try await client.certifications(region: "ZZ").isEmpty)
    }
}
