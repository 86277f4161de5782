import Foundation
import Hummingbird
import MustCore

/// Each page and API answer: reads the same report the command would, on the reader's threads, then renders it.
struct Pages: Sendable {
    let reader: StoreReader
    let site: Site
    /// The posters directory beside the database; a page shows a poster only once its file is there.
    var posters: PosterShelf { PosterShelf(databasePath: reader.store.path) }
    /// The zone the pages write times in (`serve.timeZone`).
    let zone: TimeZone
    /// The one time source: "now" on every page, and the start of each window, come from it.
    let clock: TimeSource
    /// The family's region and services (`family.*`), for /night and the movie page.
    var family = Config.Family()

    var time: TimeText { TimeText(zone: zone, now: clock.now()) }

    /// The start of the trends' and sparklines' window, from now.
    var trendStart: Date { Tonight.trendStart(clock.now()) }

    func home() async throws -> Response {
        let time = time
        let now = time.now
        let shelf = posters
        let today = WatchDay.of(now, in: zone)
        let since = WatchDay.of(now.addingTimeInterval(-Double(NightsSection.days - 1) * 86400), in: zone)
        let signedIn = Viewer.current.session != nil
        let page = try await reader.read { store in
            var page = HomePage(
                ratings: Self.kept(try store.ratings(), on: shelf), prior: try store.libraryPrior(),
                changes: try store.changes(since: Tonight.trendStart(now)),
                status: try store.status(now: now, runs: 1), time: time)
            let nights = try store.nights(since: since)
            page.nights = nights.isEmpty ? nil : NightsSection(nights, today: today, signedIn: signedIn)
            return page
        }
        return site.page(page, template: "home")
    }

    /// A member's cards. Signed in, the same page with the add field and each card's controls; its token is a
    /// placeholder, so the page is kept once for every signed-in viewer (`EditAccess` puts each one's in).
    func member(_ name: String, query: MemberQuery) async throws -> Response {
        let since = trendStart
        let shelf = posters
        let (report, prior) = try await reader.read { store in
            (Self.kept(try store.ratings(member: name, trendSince: since), on: shelf), try store.libraryPrior())
        }
        guard let member = report.members.first else {
            throw PageError.notFound("There is no member \"\(name)\". The family page lists every member.")
        }
        let edit = Viewer.current.session == nil ? nil : MemberEdit(member: member.name)
        return site.page(MemberPage(member: member, query: query, prior: prior, edit: edit), template: "member")
    }

    func movie(_ key: MovieKey) async throws -> Response {
        let shelf = posters
        let region = family.region
        let found: (MovieReport, MovieTonight)? = try await reader.read { store in
            guard var movie = try store.movieReport(key) else { return nil }
            movie.posterPath = shelf.kept(movie.posterPath, size: .w342)
            return (movie, try store.movieTonight(localId: movie.localId, region: region))
        }
        guard let (movie, tonight) = found else {
            throw PageError.notFound("No movie on any list has this address.")
        }
        var page = MoviePage(movie, time: time)
        page.tonight = TonightSection(tonight, region: region, remoteId: movie.remoteId)
        page.overview = tonight.overview.map(Shown.text)
        return site.page(page, template: "movie")
    }

    func changes(since: String?) async throws -> Response {
        let (text, report) = try await changesReport(since: since)
        return site.page(ChangesPage(report, since: text, time: time), template: "changes")
    }

    func status() async throws -> Response {
        let time = time
        let report = try await reader.read { try $0.status(now: time.now, runs: 10) }
        let page = StatusPage(report.forPage, time: time, editing: Viewer.current.session != nil)
        return site.page(page, template: "status")
    }

    /// The family's services as of now: the config's when it lists any, else the choice kept from the page.
    func familyServices() async throws -> FamilyServices {
        let configured = family.services
        return try await reader.read { try $0.familyServices(configured: configured) }
    }

    /// Each movie's poster path only where its file is on disk (a stat per movie, on the reader's thread).
    static func kept(_ report: RatingsReport, on shelf: PosterShelf) -> RatingsReport {
        var report = report
        for member in report.members.indices {
            for movie in report.members[member].movies.indices {
                let path = report.members[member].movies[movie].posterPath
                report.members[member].movies[movie].posterPath = shelf.kept(path)
            }
        }
        return report
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
        let now = clock.now()
        // `mustc status --json` shows the last 10 runs; the page's copy leaves out the hook's program and output.
        return Site.json(ReportRenderer.json(try await reader.read { try $0.status(now: now, runs: 10) }.forPage))
    }

    /// `ratings`' report with its default 7-day trend window.
    private func ratings(member: String?) async throws -> RatingsReport {
        let since = trendStart
        return try await reader.read { try $0.ratings(member: member, trendSince: since) }
    }

    private func changesReport(since: String?) async throws -> (text: String, report: ChangesReport) {
        let text = since ?? Tonight.trendWindowText
        guard let start = Since.parse(text, now: clock.now()) else {
            throw PageError.badRequest(
                "since=\(text) is neither a duration (such as 2d or 36h) nor a date (such as 2026-11-20).")
        }
        let configured = family.services
        return (
            text,
            try await reader.read {
                try $0.changes(since: start, services: try $0.familyServices(configured: configured).services)
            }
        )
    }
}
