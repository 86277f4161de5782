import Foundation
import Hummingbird
import MustCore

/// Each page and API answer: reads the same report the command would, on the reader's threads, then renders it.
struct Pages: Sendable {
    let reader: StoreReader
    let site: Site
    /// The posters directory beside the database; a page shows a poster only once its file is there.
    var posters: PosterShelf { PosterShelf(databasePath: reader.store.path) }
    /// The window of the trends and sparklines, as `ratings` uses by default.
    static let window = "7d"

    func home() async throws -> Response {
        let now = Date()
        let posters = posters
        let page = try await reader.read { store in
            var changes = try store.changes(since: now.addingTimeInterval(-7 * 86400))
            for index in changes.changes.indices.prefix(HomePage.shownChanges) {
                changes.changes[index].posterPath = posters.kept(changes.changes[index].posterPath)
            }
            return HomePage(
                members: try store.members(), changes: changes, status: try store.status(now: now, runs: 1), now: now)
        }
        return site.page(page, template: "home")
    }

    func member(_ name: String, sort: String?) async throws -> Response {
        guard let order = MemberSort(rawValue: sort ?? "title") else {
            throw PageError.badRequest(
                "sort=\(sort ?? "") is not a way to sort; use title, year, rating or trend.")
        }
        let report = try await ratings(member: name, posters: true)
        guard let member = report.members.first else {
            throw PageError.notFound("There is no member \"\(name)\". The family page lists every member.")
        }
        return site.page(MemberPage(member: member, sort: order, window: Self.window), template: "member")
    }

    func movie(_ key: MovieKey) async throws -> Response {
        let posters = posters
        let found: MovieReport? = try await reader.read { store in
            guard var movie = try store.movieReport(key) else { return nil }
            movie.posterPath = posters.kept(movie.posterPath, size: .w342)
            return movie
        }
        guard let movie = found else {
            throw PageError.notFound("No movie on any list has this address.")
        }
        return site.page(MoviePage(movie), template: "movie")
    }

    func changes(since: String?) async throws -> Response {
        let (text, report) = try await changesReport(since: since)
        return site.page(ChangesPage(report, since: text), template: "changes")
    }

    func status() async throws -> Response {
        let now = Date()
        let report = try await reader.read { try $0.status(now: now, runs: 10) }
        return site.page(StatusPage(report.forPage, now: now), template: "status")
    }

    // MARK: JSON, in exactly the shapes of the commands' `--format json`, by the same code.

    func ratingsJSON(member: String?) async throws -> Response {
        let report = try await ratings(member: member)
        if let member, report.members.isEmpty {
            throw PageError.notFound("There is no member \"\(member)\".")
        }
        return Site.json(report.render(.json))
    }

    func changesJSON(since: String?) async throws -> Response {
        Site.json(try await changesReport(since: since).report.render(.json))
    }

    func statusJSON() async throws -> Response {
        let now = Date()
        // `mustc status --json` shows the last 10 runs; the page's copy leaves out the hook's program and output.
        return Site.json(ReportRenderer.json(try await reader.read { try $0.status(now: now, runs: 10) }.forPage))
    }

    /// `ratings`' report with its default 7-day trend window; with `posters`, each movie's poster path only
    /// where its file is on disk (a stat per movie, on the reader's thread).
    private func ratings(member: String?, posters: Bool = false) async throws -> RatingsReport {
        let since = Date().addingTimeInterval(-(Durations.parse(Self.window) ?? 7 * 86400))
        let shelf = self.posters
        return try await reader.read { store in
            var report = try store.ratings(member: member, trendSince: since)
            guard posters else { return report }
            for member in report.members.indices {
                for movie in report.members[member].movies.indices {
                    let path = report.members[member].movies[movie].posterPath
                    report.members[member].movies[movie].posterPath = shelf.kept(path)
                }
            }
            return report
        }
    }

    private func changesReport(since: String?) async throws -> (text: String, report: ChangesReport) {
        let text = since ?? "7d"
        guard let start = Since.parse(text, now: Date()) else {
            throw PageError.badRequest(
                "since=\(text) is neither a duration (such as 2d or 36h) nor a date (such as 2026-11-20).")
        }
        let shelf = posters
        return (
            text,
            try await reader.read { store in
                var report = try store.changes(since: start)
                for index in report.changes.indices {
                    report.changes[index].posterPath = shelf.kept(report.changes[index].posterPath)
                }
                return report
            }
        )
    }
}
