import Foundation
import GRDB

extension Date {
    /// The date as GRDB stores a `Date` ("yyyy-MM-dd HH:mm:ss.SSS", UTC, to the nearest millisecond), the same
    /// text, written with gmtime_r. GRDB writes it with a `DateFormatter`, and the first use loads ICU's calendar,
    /// locale and time-zone data: in a forced fetch of 3,000 movies that was 4.3 MB of ICU pages (5.4 MB against
    /// 1.1 MB at start-up, smaps at the peak) for the run's five dates, and put the peak at 54 MB, over the 50 MB
    /// goal (release build, 2026-11-27). Reading stays GRDB's, which parses without ICU.
    var storedValue: DatabaseValue {
        // As Foundation hands a date to ICU: milliseconds since 1970 from the reference date; ICU's text is rounded.
        let milliseconds = ((timeIntervalSinceReferenceDate + 978_307_200) * 1000).rounded()
        // Years 0001…9999, as ISO8601.write: a time from a hand-edited database could overflow time_t(_:).
        let clamped = milliseconds.isNaN ? 0 : min(max(milliseconds, -62_135_596_800_000), 253_402_300_799_999)
        let seconds = (clamped / 1000).rounded(.down)
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(23)
        func digits(_ value: Int, _ count: Int, then separator: Character?) {
            var divisor = 1
            for _ in 1..<count { divisor *= 10 }
            while divisor > 0 {
                bytes.append(UInt8(ascii: "0") + UInt8((value / divisor) % 10))
                divisor /= 10
            }
            if let separator { bytes.append(separator.asciiValue ?? UInt8(ascii: " ")) }
        }
        digits(Int(parts.tm_year) + 1900, 4, then: "-")
        digits(Int(parts.tm_mon) + 1, 2, then: "-")
        digits(Int(parts.tm_mday), 2, then: " ")
        digits(Int(parts.tm_hour), 2, then: ":")
        digits(Int(parts.tm_min), 2, then: ":")
        digits(Int(parts.tm_sec), 2, then: ".")
        digits(Int(clamped - seconds * 1000), 3, then: nil)
        return String(decoding: bytes, as: UTF8.self).databaseValue
    }
}
