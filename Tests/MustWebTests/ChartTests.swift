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
}
