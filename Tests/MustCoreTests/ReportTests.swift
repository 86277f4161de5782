import Foundation
import MustCore
import Testing

/// The ratings report's formats. Its JSON is hand-written for speed, so it is checked against JSONEncoder.
@Suite struct ReportTests {
    static let report = RatingsReport(members: [
        MemberRatings(
            name: "Zoë \"Z\" O'Neil",
            movies: [
                MovieRating(
                    title: "Amélie", year: 2001, remoteId: 194, popularity: 7.248, voteAverage: 7.9, voteCount: 11_412,
                    updatedAt: Date(timeIntervalSince1970: 1_795_000_000)),
                MovieRating(title: "Tab\there, back\\slash, bell\u{7}, /slash/ 千と千尋", popularity: 8, voteAverage: 0.1),
                MovieRating(title: "Not fetched"),
            ]),
        MemberRatings(name: "Nobody", movies: []),
    ])

    func parsed(_ text: String) throws -> NSDictionary {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? NSDictionary)
    }

    @Test func handWrittenJSONEqualsJSONEncoders() throws {
        let fast = Self.report.render(.json)
        let reference = ReportRenderer.json(Self.report)
        #expect(try parsed(fast) == parsed(reference))
        #expect(fast.contains(#""remoteId" : null"#))
        #expect(fast.contains(#""movies" : []"#))
        #expect(fast.contains(#""updatedAt" : "2026-11-18T"#))
        #expect(fast.contains(#""year" : 2001"#) && fast.contains(#""year" : null"#))
        #expect(Self.report.render(.table).contains("Amélie (2001)"))
        #expect(RatingsReport(members: []).render(.json) == "{\n  \"members\" : []\n}")
    }

    @Test func streamedJSONIsTheSameTextInChunks() {
        let movies = (0..<2_000).map { index in
            MovieRating(
                title: "Movie \(index) \"quoted\"", remoteId: index, popularity: Double(index) / 7, voteCount: index)
        }
        let big = RatingsReport(members: [MemberRatings(name: "Ann", movies: movies)] + Self.report.members)
        var chunks: [Int] = []
        var streamed: [UInt8] = []
        big.write(.json) { chunk in
            chunks.append(chunk.count)
            streamed.append(contentsOf: chunk)
        }
        #expect(String(decoding: streamed, as: UTF8.self) == big.render(.json))
        #expect(chunks.count > 2)
        #expect(chunks.dropLast().allSatisfy { $0 >= 64 << 10 && $0 < (64 << 10) + 4096 })
    }

    @Test func timestampsAreUTCSeconds() {
        #expect(ISO8601.string(Date(timeIntervalSince1970: -86_400)) == "1969-12-31T00:00:00Z")
        #expect(ISO8601.string(Date(timeIntervalSince1970: 0)) == "1970-01-01T00:00:00Z")
        #expect(ISO8601.string(Date(timeIntervalSince1970: 1_795_000_000.9)) == "2026-11-18T11:06:40Z")
        #expect(ISO8601.string(Date(timeIntervalSince1970: 951_782_400)) == "2000-02-29T00:00:00Z")
        #expect(ISO8601.string(Date(timeIntervalSince1970: 1e300)) == "9999-12-31T23:59:59Z")
        #expect(ISO8601.string(Date(timeIntervalSince1970: -1e300)) == "0001-01-01T00:00:00Z")
    }

    /// The table for `report`, written out by hand: figures as sent, controls made visible, a dash for each figure
    /// not fetched yet.
    static let expectedTable = [
        "Zoë \"Z\" O'Neil",
        "  Movie                                            Popularity  Rating  Votes  Updated",
        "  Amélie (2001)                                    7.248       7.9     11412  2026-11-18T11:06:40Z",
        "  Tab\\there, back\\slash, bell\\u0007, /slash/ 千と千尋  8.0         0.1     –      not fetched yet",
        "  Not fetched                                      –           –       –      not fetched yet",
        "",
        "Nobody",
        "  (no movies)",
    ].joined(separator: "\n")

    @Test func tableShowsFiguresAsSentControlsVisibleAndDashesForMissingOnes() {
        let table = Self.report.render(.table)
        #expect(table == Self.expectedTable)
        let notFetched = table.split(separator: "\n").first { $0.contains("Not fetched") } ?? ""
        #expect(notFetched.split(separator: " ").filter { $0 == "–" }.count == 3, "\(notFetched)")
    }

    /// JSON and CSV are streamed by code of their own, so the streamed text is compared with the rendered one.
    @Test(arguments: [ReportFormat.json, .csv])
    func writtenEqualsRendered(_ format: ReportFormat) {
        var written: [UInt8] = []
        Self.report.write(format) { written.append(contentsOf: $0) }
        #expect(String(decoding: written, as: UTF8.self) == Self.report.render(format))
    }

    /// The table is rendered whole and then written, so comparing the two would compare a string with itself.
    @Test func writtenTableIsTheExpectedTable() {
        var written: [UInt8] = []
        Self.report.write(.table) { written.append(contentsOf: $0) }
        #expect(String(decoding: written, as: UTF8.self) == Self.expectedTable)
    }

    @Test func csvQuotesWhatNeedsQuoting() {
        let lines = Self.report.render(.csv).components(separatedBy: "\r\n")
        #expect(
            lines[0]
                == "member,title,year,remoteId,popularity,voteAverage,voteCount,updatedAt,"
                + "trendSince,trendPopularity,trendVoteAverage,trendVoteCount,watched,watchedOn,ownRating")
        #expect(lines[1].hasPrefix(#""Zoë ""Z"" O'Neil",Amélie,2001,194,7.248,7.9,11412,2026-11-18T"#))
        #expect(lines.count == 5)
        #expect(lines[2].hasPrefix("\"Zoë \"\"Z\"\" O'Neil\",\"Tab\there, back\\slash, bell\u{7}"))
        let title = "Line\u{2028}break, \"quoted\""
        let odd = RatingsReport(members: [MemberRatings(name: "A", movies: [MovieRating(title: title)])])
        #expect(odd.render(.csv).hasSuffix("A,\"Line\u{2028}break, \"\"quoted\"\"\",,,,,,,,,,,false,,\r\n"))
        let plain = RatingsReport(members: [MemberRatings(name: "Amélie", movies: [MovieRating(title: "Été")])])
        #expect(plain.render(.csv).hasSuffix("\r\nAmélie,Été,,,,,,,,,,,false,,\r\n"))
    }
}
