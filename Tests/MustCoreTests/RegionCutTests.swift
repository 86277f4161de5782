import Foundation
import Testing

@testable import MustCore

/// The appended blocks cut to the family's region before decoding: the same extras as decoding the whole
/// answer, for the region, another, and one the answer lacks; a body the cut cannot follow is decoded whole.
@Suite struct RegionCutTests {
    /// A real-shaped answer: the details, then both blocks, spaced and escaped as answers recorded by others are
    /// (`watch\/providers`), with filler countries before and after the ones read.
    static func answer(countries: Int) -> Data {
        var releases: [String] = []
        var offers: [String] = []
        for index in 0..<countries {
            let code = String(UnicodeScalar(UInt8(65 + index / 26))) + String(UnicodeScalar(UInt8(65 + index % 26)))
            releases.append(
                #"{"iso_3166_1": "\#(code)", "release_dates": [{"certification": "C\#(index) ", "descriptors": [], "#
                    + #""iso_639_1": "", "note": "", "release_date": "2021-10-22T00:00:00.000Z", "type": 3}]}"#)
            offers.append(
                #""\#(code)": {"link": "https://www.themoviedb.org/movie/1/watch?locale=\#(code)", "flatrate": "#
                    + #"[{"logo_path": "\/l.jpg", "provider_id": \#(index), "provider_name": "P\u00e9 \#(index)", "#
                    + #""display_priority": 1}], "rent": [{"provider_id": 2, "provider_name": "Apple TV"}]}"#)
        }
        let text =
            #"{"id": 438631, "title": "Dune \"Part\" {One}", "popularity": 160.4, "vote_average": 7.8, "#
            + #""vote_count": 12000, "release_date": "2021-09-15", "runtime": 155, "#
            + #""genres": [{"id": 878, "name": "Science Fiction"}], "#
            + #""release_dates" : { "results" : [ \#(releases.joined(separator: ", ")) ] }, "#
            + #""watch\/providers": {"results": {\#(offers.joined(separator: ",\n"))}}, "imdb_id": "tt1160419"}"#
        return Data(text.utf8)
    }

    func decoded(_ body: Data, region: String) throws -> DetailsAnswer {
        try DecodingRegion.$current.withValue(region) { try JSONDecoder().decode(DetailsAnswer.self, from: body) }
    }

    @Test func theCutAnswerDecodesAsTheWholeOneForAnyRegion() throws {
        let body = Self.answer(countries: 90)
        for region in ["AA", "BZ", "DL", "ZZ"] {
            let cut = try #require(RegionCut.cut(body, region: region), "\(region)")
            #expect(cut.count < body.count / 20, "\(region): \(cut.count) of \(body.count) bytes")
            let (whole, part) = (try decoded(body, region: region), try decoded(cut, region: region))
            #expect(part.movie == whole.movie && part.extras == whole.extras, "\(region)")
            #expect(part.movie.title == #"Dune "Part" {One}"# && part.movie.imdbId == "tt1160419")
        }
        let bz = try decoded(try #require(RegionCut.cut(body, region: "BZ")), region: "BZ").extras
        #expect(bz?.certification == .some("C51") && bz?.providers?.first?.name == "Pé 51", "\(String(describing: bz))")
        let none = try decoded(try #require(RegionCut.cut(body, region: "ZZ")), region: "ZZ").extras
        #expect(none?.certification == .some(nil) && none?.providers == [])
    }

    @Test func aBrokenBlockIsLeftForTheDecoderAndABrokenBodyIsNotCut() throws {
        let broken = Data(#"{"id": 1, "release_dates": "oops", "watch/providers": {"results": []}}"#.utf8)
        let cut = try #require(RegionCut.cut(broken, region: "US"))
        let (whole, part) = (try decoded(broken, region: "US"), try decoded(cut, region: "US"))
        #expect(part.extras == whole.extras && part.extras?.certification == nil && part.extras?.providers == nil)
        #expect(RegionCut.cut(Data(#"{"id": 1, "release_dates": {"results": [ "#.utf8), region: "US") == nil)
        #expect(RegionCut.cut(Data(#"[1, 2]"#.utf8), region: "US") == nil)
    }

    /// The decoder refuses the release block when a country before the region's names itself with no string: the
    /// cut keeps such an entry, so the certification stays unknown as it did before the cut.
    @Test func anEntryTheDecoderWouldRefuseIsKept() throws {
        let body = Data(
            (#"{"id": 1, "release_dates": {"results": [{"iso_3166_1": 12, "release_dates": []}, "#
                + #"{"iso_3166_1": null}, {"iso_3166_1": "GB", "release_dates": [{"certification": "15", "type": 3}]}, "#
                + #"{"iso_3166_1": "US", "release_dates": [{"certification": "R", "type": 3}]}]}}"#).utf8)
        let cut = try #require(RegionCut.cut(body, region: "US"))
        let text = String(decoding: cut, as: UTF8.self)
        #expect(text.contains(#""iso_3166_1": 12"#) && !text.contains("GB") && !text.contains("null"), "\(text)")
        let (whole, part) = (try decoded(body, region: "US"), try decoded(cut, region: "US"))
        #expect(whole.extras?.certification == nil && part.extras == whole.extras)
    }
}
