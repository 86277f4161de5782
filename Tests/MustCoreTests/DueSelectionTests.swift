import Foundation
import TMDBStub
import Testing

@testable import MustCore

/// Picking the due movies: by the index, most overdue first, each once even while the run reschedules them.
@Suite struct DueSelectionTests {
    let scratch = TemporaryDirectory("due")
    var path: String { scratch.file("mustc.sqlite") }

    /// `count` movies inserted with plain SQLite (the schema's trigger gives each a schedule row); movie i is
    /// due at time i when i is a multiple of 3, and far in the future otherwise.
    func library(_ count: Int) throws -> Store {
        let store = try Store(path: path, logger: quietLogger)
        _ = try sqlite(
            path,
            """
            WITH RECURSIVE seq(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM seq WHERE i < \(count))
            INSERT INTO movie (id, title, titleKey, identityKey, createdAt)
            SELECT i, 'Movie ' || i, 'movie ' || i, 'title:movie ' || i, '2026-11-01' FROM seq;
            UPDATE movieSchedule SET nextCheckAt = CASE WHEN movieId % 3 = 0 THEN 1000 - movieId ELSE 4e9 END;
            """)
        return store
    }

    @Test func theDueQueryReadsTheIndexAndNeedsNoSort() throws {
        let store = try library(300)
        let plan = try store.dueSelectionPlan().joined(separator: "\n")
        #expect(plan.contains("movieSchedule USING INDEX movieSchedule_nextCheckAt"), "\(plan)")
        #expect(!plan.contains("SCAN movieSchedule"), "\(plan)")
        #expect(!plan.contains("TEMP B-TREE"), "\(plan)")
    }

    @Test(arguments: [1, 7, 100, 500])
    func pagesHandOutEachDueMovieOnceMostOverdueFirst(pageSize: Int) throws {
        let store = try library(300)
        let asOf = Date(timeIntervalSince1970: 2000)
        let scope = try store.fetchScope(force: false, now: asOf)
        #expect(scope.due == 100)
        #expect(scope.total == 300)
        var pages = MoviePages(store: store, pageSize: pageSize, scope: scope, time: .system)
        var seen: [Int64] = []
        while let movie = try pages.next() {
            seen.append(movie.id)
            // The run reschedules what it checked (always past its start) while it is still reading: nothing may
            // come back, and nothing may be skipped.
            let check = MovieCheck(checkedAt: asOf, interval: 60, nextCheckAt: asOf + 60)
            try store.apply([.checked(movieId: movie.id, check)], now: testStart)
        }
        #expect(seen == stride(from: 300, through: 3, by: -3).map(Int64.init))
    }

    @Test func theEarliestCheckIsTheMostOverdueMovie() throws {
        let store = try library(30)
        #expect(try store.earliestCheck() == Date(timeIntervalSince1970: 970))
        let counts = try store.checkCounts(now: Date(timeIntervalSince1970: 985))
        #expect(counts.dueNow == 6)
        #expect(counts.total == 30)
    }
}
