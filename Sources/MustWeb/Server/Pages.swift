import Foundation
import Hummingbird
import MustCore
import Synchronization

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
    /// Each kid's share of the library, as of the file's stamp.
    let visibilities = VisibilityCache()

    var time: TimeText { TimeText(zone: zone, now: clock.now()) }

    /// The start of the trends' and sparklines' window, from now.
    var trendStart: Date { Tonight.trendStart(clock.now()) }

    func home() async throws -> Response {
        let time = time
        let now = time.now
        let shelf = posters
        let today = WatchDay.of(now, in: zone)
        let since = WatchDay.of(now.addingTimeInterval(-Double(NightsSection.days - 1) * 86400), in: zone)
        let access = Viewer.current.access
        let shown = try await visibility()
        let page = try await reader.read { store in
            var page = HomePage(
                ratings: Self.kept(shown.filter(try store.ratings()), on: shelf), prior: try store.libraryPrior(),
                changes: shown.filter(try store.changes(since: Tonight.trendStart(now))),
                status: try store.status(now: now, runs: 1), time: time)
            let nights = shown.filter(try store.nights(since: since))
            page.nights = nights.isEmpty ? nil : NightsSection(nights, today: today, asking: access)
            return page
        }
        return site.page(page, template: "home")
    }

    /// A member's cards. Signed in, the same page with the add field and each card's controls; its token is a
    /// placeholder, so the page is kept once for every signed-in viewer (`EditAccess` puts each one's in).
    func member(_ name: String, query: MemberQuery) async throws -> Response {
        let since = trendStart
        let shelf = posters
        let shown = try await visibility()
        let (report, prior) = try await reader.read { store in
            (
                Self.kept(shown.filter(try store.ratings(member: name, trendSince: since)), on: shelf),
                try store.libraryPrior()
            )
        }
        guard let member = report.members.first else {
            throw PageError.notFound("There is no member \"\(name)\". The family page lists every member.")
        }
        // The add field and the cards' controls for whoever may change this list: a member sees them on their own.
        let edit = Viewer.current.access?.mayEdit(member: member.name) == true ? MemberEdit(member: member.name) : nil
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
        guard let (movie, tonight) = found,
            try await visibility().shows(localId: movie.localId, remoteId: movie.remoteId)
        else {
            throw PageError.notFound("No movie on any list has this address.")
        }
        var page = MoviePage(movie, time: time)
        page.tonight = TonightSection(tonight, region: region, remoteId: movie.remoteId)
        page.overview = tonight.overview.map(Shown.text)
        return site.page(page, template: "movie")
    }

    func changes(since: String?) async throws -> Response {
        let (text, all) = try await changesReport(since: since)
        let report = try await visibility().filter(all)
        return site.page(ChangesPage(report, since: text, time: time), template: "changes")
    }

    func status() async throws -> Response {
        try Self.notForKids()
        let time = time
        let report = try await reader.read { try $0.status(now: time.now, runs: 10) }
        let page = StatusPage(report.forPage, time: time, editing: Viewer.current.access?.parent == true)
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
        let report = try await visibility().filter(try await ratings(member: member))
        if let member, report.members.isEmpty {
            throw PageError.notFound("There is no member \"\(member)\".")
        }
        return Site.json(report.render(.json))
    }

    func changesJSON(since: String?) async throws -> Response {
        Site.json(try await visibility().filter(try await changesReport(since: since).report).render(.json))
    }

    func statusJSON() async throws -> Response {
        try Self.notForKids()
        let now = clock.now()
        // `mustc status --json` shows the last 10 runs; the page's copy leaves out the hook's program and output.
        return Site.json(ReportRenderer.json(try await reader.read { try $0.status(now: now, runs: 10) }.forPage))
    }

    /// What this request's viewer may see of the library: everything, or a kid's share, kept while the file is
    /// unchanged (one pass over the library: 1,000 movies in about a millisecond).
    func visibility() async throws -> Visibility {
        let audience = Viewer.current.audience
        guard audience.leavesOut else { return .everyone }
        let stamp = reader.dataStamp()
        if let kept = visibilities.kept(audience, stamp) { return kept }
        let region = family.region
        let shown = try await reader.read { try $0.visibility(audience, region: region) }
        visibilities.keep(shown, stamp)
        return shown
    }

    /// A kid's profile gets only the posters of movies it may see: a library movie's by its certification, and a
    /// suggestion's the same way; any other file is answered as not kept.
    func checkPoster(_ file: String) async throws {
        let shown = try await visibility()
        guard let limit = shown.audience.limit else { return }
        let region = family.region
        var allowed = shown.showsPoster(file)
        if allowed == nil {
            allowed = try await reader.read { try $0.suggestionPosterAdmitted(file, limit: limit, region: region) }
        }
        guard allowed == true else {
            throw PageError.notFound("This poster is not kept here (yet): the next fetch downloads it.")
        }
    }

    /// The fetch's status and its problems name every movie: a kid's profile has no use for them.
    static func notForKids() throws {
        guard Viewer.current.access?.isKid != true else {
            throw PageError(
                status: .forbidden, heading: "For grown-ups",
                message: "The status page is for grown-ups; the family page has your movies.")
        }
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

/// The last `Visibility` made for each audience, with the stamp of the file it was read from.
final class VisibilityCache: Sendable {
    private let kept = Mutex<[Audience: (stamp: DataStamp, visibility: Visibility)]>([:])

    func kept(_ audience: Audience, _ stamp: DataStamp) -> Visibility? {
        kept.withLock { $0[audience].flatMap { $0.stamp == stamp ? $0.visibility : nil } }
    }

    func keep(_ visibility: Visibility, _ stamp: DataStamp) {
        kept.withLock { $0[visibility.audience] = (stamp, visibility) }
    }
}
