import Foundation
import GRDB
import Testing

@testable import MustCore

/// The dates a fetch writes are GRDB's own text, byte for byte, so rows written before and after compare and sort
/// alike; GRDB's `DateFormatter` is the reference here.
@Suite struct StoredDateTests {
    @Test func everyDateIsWrittenAsGRDBWritesIt() {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        var dates = [
            Date(timeIntervalSince1970: 0), Date(timeIntervalSince1970: 1_780_000_000.9995),
            Date(timeIntervalSince1970: 1_780_000_000.0004), Date(timeIntervalSince1970: 951_782_400.999_999),
            Date(timeIntervalSinceReferenceDate: 0), Date(timeIntervalSince1970: 4_102_444_799.999),
        ]
        for _ in 0..<5_000 {
            // A fixed sequence (an LCG), so a failure names the same date on every run.
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let seconds = Double(state >> 33) / Double(1 << 31) * 4_102_444_800
            dates.append(Date(timeIntervalSince1970: seconds))
        }
        var differing: [String] = []
        for date in dates where date.storedValue != date.databaseValue {
            differing.append("\(date.timeIntervalSince1970): \(date.storedValue) ≠ \(date.databaseValue)")
        }
        let differingCount = differing.count
        #expect(differingCount == 0, "of \(dates.count), for example \(differing.prefix(5))")
    }

    @Test func aStoredDateReadsBackToTheMillisecond() throws {
        let date = Date(timeIntervalSince1970: 1_780_000_123.456_7)
        let read = try #require(Date.fromDatabaseValue(date.storedValue))
        #expect(abs(read.timeIntervalSince1970 - 1_780_000_123.457) < 0.000_1)
    }
}
