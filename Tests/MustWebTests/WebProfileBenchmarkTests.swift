import Foundation
import HTTPTypes
import HummingbirdTesting
import MustCore
import TMDBStub
import Testing

@testable import MustWeb

/// What a kid's filter costs, in-process over a real 1,000-movie library (5 members, 200 movies each,
/// certifications G, PG, PG-13, R and none in turn): `Store.visibility` alone, and a member page of 200 movies for
/// the kid and for the family password. Measurements, printed: no timing fails the test (this is a debug build, and
/// the machine is shared). What is asserted is that the kid's page is the one filtered.
@Suite struct WebProfileBenchmarkTests {
    static let members = ["Ann", "Bob", "Cid", "Dee", "Leo"]
    static let certifications: [String?] = ["G", "PG", "PG-13", "R", nil]

    static func library() throws -> WebFamily {
        let family = try WebFamily()
        try family.setPassword()
        try family.store.keepCertificationOrder(WebSettingsTests.usOrder, region: "US", now: family.now)
        var writes: [MovieWrite] = []
        for index in 0..<1_000 {
            let id = 100_000 + index
            let movie = RemoteMovie(
                id: id, title: "Movie \(index)", voteAverage: 5 + Double(index % 50) / 10, voteCount: 100 + index,
                releaseDate: "2001-01-01")
            let movieId = try family.keep(members[index % 5], movie)
            let certification = certifications[(index / 5) % 5]
            writes.append(
                .extras(movieId: movieId, MovieExtras(runtime: 100, certification: .some(certification)), region: "US"))
        }
        #expect(try family.store.apply(writes, now: family.now).isEmpty)
        _ = try family.store.setAgeLimit(member: "Leo", to: "PG-13")
        _ = try family.store.setKid(member: "Leo", true)
        return family
    }

    static func median(_ runs: Int, _ body: () async throws -> Void) async rethrows -> Double {
        var times: [Double] = []
        for _ in 0..<runs {
            let start = ContinuousClock.now
            try await body()
            let elapsed = ContinuousClock.now - start
            times.append(Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1e3)
        }
        return times.sorted()[times.count / 2]
    }

    /// Runs of each measurement, the printed figures being their medians: with 41, this suite alone had taken 3.0
    /// CPU-seconds in a debug build.
    static let runs = 11

    @Test func aKidsFilterOverAThousandMovies() async throws {
        let family = try Self.library()
        let store = family.store
        var shown = 0
        let filter = try await Self.median(Self.runs) {
            let visibility = try store.visibility(.limited("PG-13"), region: "US")
            shown = (100_000..<101_000).filter { visibility.shows(localId: nil, remoteId: $0) }.count
        }
        #expect(shown == 600)
        let everyone = try await Self.median(Self.runs) { _ = try store.visibility(.everyone, region: "US") }

        let (kidPage, grownUpPage, parentPage, kidCount, parentCount) = try await family.test { client in
            let parent = try await client.signIn()
            let kid = try #require(try await client.choose("Leo").cookie)
            // A grown-up's view of Ann's list has the kid's markup (no card controls) without the filter.
            let grownUp = try #require(try await client.choose("Bob").cookie)
            var counter = 0
            // The first 48 cards of Ann's 200 (the password) or of the 120 the kid may see: the same number of cards
            // rendered. A query no page reads makes each request a page of its own: never the page cache's copy.
            func page(_ cookie: String) async throws -> TestResponse {
                counter += 1
                let answer = try await client.get("/members/Ann?bench=\(counter)", headers: [.cookie: cookie])
                #expect(answer.status == .ok)
                return answer
            }
            let count = { (page: TestResponse) in
                page.text.firstMatch(of: #/<p class="count">(\d+) movies/#).flatMap { Int($0.output.1) } ?? 0
            }
            let counts = (count(try await page(kid)), count(try await page(parent)))
            // Interleaved, so that the shared machine's load falls on the three alike.
            var times: [[Double]] = [[], [], []]
            for _ in 0..<Self.runs {
                for (index, cookie) in [kid, grownUp, parent].enumerated() {
                    times[index].append(try await Self.median(1) { _ = try await page(cookie) })
                }
            }
            let (kidTime, grownUpTime, parentTime) = (
                times[0].sorted()[Self.runs / 2], times[1].sorted()[Self.runs / 2], times[2].sorted()[Self.runs / 2]
            )
            return (kidTime, grownUpTime, parentTime, counts.0, counts.1)
        }
        #expect(kidCount == 120 && parentCount == 200, "the kid's page is filtered: \(kidCount) against \(parentCount)")
        print(
            String(
                format:
                    "profile filter, 1,000 movies (the test build, median of %d): Store.visibility(kid PG-13) %.2f ms,"
                    + " (everyone) %.3f ms; /members/Ann (48 cards of 200, or of 120) as the kid %.2f ms, as a grown-up %.2f ms"
                    + " (the filter adds %.2f ms), as the password (with the cards' controls) %.2f ms",
                Self.runs, filter, everyone, kidPage, grownUpPage, kidPage - grownUpPage, parentPage))
    }
}
