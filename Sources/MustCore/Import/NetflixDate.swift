import Foundation

/// The order of day and month in the dates of a `NetflixViewingHistory.csv`, which follow the account's locale.
public enum DateOrder: String, CaseIterable, Sendable {
    case dmy, mdy
}

/// A date as `NetflixViewingHistory.csv` writes it: `10/19/22` (m/d/yy), `27/07/2020` (dd/mm/yyyy), `28-06-23`
/// (dd-mm-yy), `3.5.25` (d.m.yy, or m.d.yy: it can't tell), or year first (`2023-06-28`, `2023/06/28`).
struct NetflixDate: Sendable, Equatable {
    /// The first two numbers, when the year is last: which is the day is the file's order.
    var first: Int
    var second: Int
    var year: Int
    var yearFirst: Bool

    /// The numbers of `text`, or nil when it is not three numbers split by `/`, `-` or `.`; a two-digit year is
    /// this century's (Netflix's history starts in 2007).
    static func parse(_ text: String) -> NetflixDate? {
        var trimmed = Substring(text.trimmingCharacters(in: .whitespaces))
        if trimmed.hasSuffix(".") { trimmed = trimmed.dropLast() }
        let parts = trimmed.split(omittingEmptySubsequences: false) { $0 == "/" || $0 == "-" || $0 == "." }
        guard parts.count == 3, parts.allSatisfy({ !$0.isEmpty && $0.count <= 4 && $0.allSatisfy(\.isASCII) }),
            let a = Int(parts[0]), let b = Int(parts[1]), let c = Int(parts[2])
        else { return nil }
        if parts[0].count == 4 { return NetflixDate(first: b, second: c, year: a, yearFirst: true) }
        guard parts[0].count <= 2, parts[1].count <= 2, parts[2].count == 2 || parts[2].count == 4 else { return nil }
        return NetflixDate(first: a, second: b, year: parts[2].count == 2 ? 2000 + c : c, yearFirst: false)
    }

    /// The order this date shows by itself: the one with a number above 12 first is the day.
    var shows: DateOrder? {
        guard !yearFirst else { return nil }
        if first > 12, second <= 12 { return .dmy }
        if second > 12, first <= 12 { return .mdy }
        return nil
    }

    /// Whether the order matters for this date: both numbers could be the month, and they differ.
    var ambiguous: Bool { !yearFirst && first <= 12 && second <= 12 && first != second }

    /// The day, read in `order` (a year-first date is always year, month, day); nil when that is no real day.
    func day(_ order: DateOrder?) -> WatchDay? {
        let (month, day): (Int, Int)
        if yearFirst {
            (month, day) = (first, second)
        } else if let order = order ?? shows ?? (ambiguous ? nil : .dmy) {
            (month, day) = order == .dmy ? (second, first) : (first, second)
        } else {
            return nil
        }
        func padded(_ value: Int, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return WatchDay.parse("\(padded(year, 4))-\(padded(month, 2))-\(padded(day, 2))")
    }
}

/// The day and month order of a whole file, from the dates that show it by themselves.
struct DateOrderEvidence: Sendable {
    var dayFirst: String?
    var monthFirst: String?
    /// A movie's date that reads as two days (`3/5/25`): the order must be known for it.
    var ambiguous: String?

    mutating func add(_ date: NetflixDate, text: String, movie: Bool) {
        switch date.shows {
        case .dmy?: dayFirst = dayFirst ?? text
        case .mdy?: monthFirst = monthFirst ?? text
        case nil: if movie, date.ambiguous { ambiguous = ambiguous ?? text }
        }
    }

    /// The file's order: the one `given` (`--date-order`), else the one its dates show; throws when they show
    /// both, or none while a movie's date needs one.
    func settled(given: DateOrder?) throws(DateOrderProblem) -> DateOrder? {
        if let given { return given }
        switch (dayFirst, monthFirst) {
        case (let day?, let month?): throw .both(dayFirst: day, monthFirst: month)
        case (_?, nil): return .dmy
        case (nil, _?): return .mdy
        case (nil, nil):
            if let ambiguous { throw .unknown(example: ambiguous) }
            return nil
        }
    }
}

/// Why a Netflix history's dates cannot be read without `--date-order`.
enum DateOrderProblem: Error, Equatable, CustomStringConvertible {
    case both(dayFirst: String, monthFirst: String)
    case unknown(example: String)

    var description: String {
        switch self {
        case .both(let day, let month):
            "its dates are written in both orders (\(Excerpt.quoted(day)) has the day first, "
                + "\(Excerpt.quoted(month)) the month); say which the account uses with --date-order dmy or "
                + "--date-order mdy (a row whose date does not fit that order is still imported: its film is "
                + "marked watched, without a day)"
        case .unknown(let example):
            "its dates (like \(Excerpt.quoted(example))) read as day/month/year and as month/day/year alike, and "
                + "no date in it tells which; say which the account uses with --date-order dmy (27/07/2020) or "
                + "--date-order mdy (07/27/2020)"
        }
    }
}
