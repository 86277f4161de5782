import Foundation
import Testing

@testable import MustWeb

@Suite struct ChartTests {
    @Test func aSparklineSpansTheBoxLowestAtTheBottom() throws {
        let line = try #require(Charts.sparkline([7.0, nil, 8.0, 7.5], width: 80, height: 20))
        // Three known points, evenly spaced; 8.0 at the top margin, 7.0 at the bottom one.
        #expect(line.points == "0.0,19.0 40.0,1.0 80.0,10.0")
        #expect(line.low == "7.0")
        #expect(line.high == "8.0")
        #expect(line.figures == ["7.0", "8.0", "7.5"])
    }

    @Test func aFlatOrSingleSeriesIsAFlatLineInTheMiddle() throws {
        #expect(try #require(Charts.sparkline([6.5, 6.5], width: 10, height: 20)).points == "0.0,10.0 10.0,10.0")
        let single = try #require(Charts.sparkline([nil, 6.5], width: 10, height: 20))
        #expect(single.points == "0.0,10.0 10.0,10.0")
        #expect(single.figures == ["6.5"])
    }

    @Test func noKnownFigureIsNoChart() {
        #expect(Charts.sparkline([]) == nil)
        #expect(Charts.sparkline([nil, .nan, .infinity]) == nil)
        #expect(Charts.timeline([(Date(), nil)]) == nil)
    }

    @Test func aTimelinePlacesFiguresByTime() throws {
        let start = Date(timeIntervalSince1970: 1_000_000)
        let line = try #require(
            Charts.timeline(
                [
                    (start, 10), (start.addingTimeInterval(100), nil), (start.addingTimeInterval(300), 20),
                    (start.addingTimeInterval(400), 15),
                ],
                width: 400, height: 102, format: Charts.whole))
        // x is the share of the 400 s span; y: 20 at the top (1), 10 at the bottom (101).
        #expect(line.points == "0.0,101.0 300.0,1.0 400.0,51.0")
        #expect(line.figures == ["10", "20", "15"])
        #expect((line.low, line.high) == ("10", "20"))
    }

    @Test func figuresAtOneInstantAreSpreadNotStacked() throws {
        let now = Date()
        let line = try #require(Charts.timeline([(now, 1), (now, 2), (now, 3)], width: 100, height: 12))
        #expect(line.points == "0.0,11.0 50.0,6.0 100.0,1.0")
    }

    @Test func wholeNumbersGetThousandsSeparators() {
        #expect(Charts.whole(0) == "0")
        #expect(Charts.whole(999) == "999")
        #expect(Charts.whole(12_000) == "12,000")
        #expect(Charts.whole(-1_234_567) == "-1,234,567")
        #expect(Charts.whole(.nan) == "nan")
    }
}
