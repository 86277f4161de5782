import ArgumentParser
import Foundation
import MustCore

struct NightCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "night",
        abstract: "Record a movie night: who watched a movie together, and when; --undo takes it back.",
        discussion: """
            Marks each member watched the movie (a member who does not keep it gets it on their list, watched), \
            keeps their own ratings, and records the night, as the page's "We're watching this" does. A re-watch \
            is a night of its own: the watched day becomes the latest, and every earlier night stays in \
            `mustc nights`. --on takes a day written YYYY-MM-DD (default today). --undo takes back the latest \
            night of the movie with exactly these members (on --on's day when given), and puts every link back \
            as it was before it.
            """
    )

    @OptionGroup var global: GlobalOptions

    @Option(help: ArgumentHelp("The day they watched it (default today).", valueName: "YYYY-MM-DD"))
    var on: String?

    @Flag(help: "Take the night back.")
    var undo = false

    @Argument(help: "The movie: a title, \"Title (Year)\", tmdb:ID, imdb:ttID or a URL.")
    var movie: String

    @Argument(help: "The members who watched it.")
    var members: [String] = []

    func validate() throws {
        _ = try MovieArgument.parsed(movie, year: nil)
        guard !members.isEmpty else { throw ValidationError("name the members who watched it") }
        for member in members { _ = try NameArgument.validated(member, field: "member name") }
        _ = try day(now: global.time.now())
    }

    /// The day --on names, or today: exit 64 for one that is not a day, or after today.
    func day(now: Date) throws -> WatchDay {
        let today = WatchDay.of(now)
        guard let on else { return today }
        if let problem = WatchDay.problem(on, today: today) {
            guard problem.hasPrefix("is not") else { throw ValidationError("--on \(on) \(problem)") }
            throw ValidationError("--on \"\(TerminalText.cell(on))\" \(problem); write it so, as 2024-03-01")
        }
        return WatchDay.parse(on) ?? today
    }

    func run() async throws {
        try await reporting {
            let reference = try MovieArgument.parsed(movie, year: nil)
            let now = global.time.now()
            let config = try global.loadConfig()
            let editor = MovieEditor(
                store: try global.openStore(config), checks: MovieSchedulePolicy(config.schedule), time: global.time)
            if undo {
                let day = on == nil ? nil : try day(now: now)
                guard let night = try editor.store.latestNight(movie: reference, members: members, on: day),
                    let undone = try editor.undoNight(id: night.id)
                else {
                    throw Failure.usage(
                        "no movie night of \(quoted("\(reference)")) with \(MovieNight.names(members))"
                            + (day.map { " on \($0.text)" } ?? "")
                            + " is recorded; see `mustc nights`. Nothing changed.")
                }
                print(
                    "Took back the night of \(undone.day.text): \(quoted(undone.movie.shown)) with "
                        + "\(MovieNight.names(undone.watchers.map(\.name))); every mark is as it was before it.")
                return
            }
            switch try editor.night(reference, members: members, on: try day(now: now)) {
            case .unknownMembers(let names):
                throw Failure.usage(
                    "there is no member \(names.map(quoted).joined(separator: ", ")); see `mustc members`. "
                        + "Nothing was recorded.")
            case .unknownMovie(let reference):
                throw Failure.usage(
                    "there is no movie \(quoted("\(reference)")); add it first with `mustc add`. Nothing was recorded.")
            case .ambiguous(let reference, let movies):
                throw Failure.usage(
                    "\(movies.count) movies are named \(quoted("\(reference)")): "
                        + movies.map(\.reference.argument).joined(separator: ", ")
                        + "; name one of them. Nothing was recorded.")
            case .recorded(let night):
                print(
                    "Movie night of \(night.day.text): \(quoted(night.movie.shown)) with "
                        + "\(MovieNight.names(night.watchers.map(\.name))); each is marked watched. "
                        + "Rate it with `mustc watched MEMBER MOVIE --rating N`.")
            }
        }
    }
}

struct NightsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "nights",
        abstract: "List the movie nights, the latest first, with each watcher's own rating.",
        discussion: "Reads only. A rating given any way (the page, `watched --rating`, an import) shows here."
    )

    @OptionGroup var global: GlobalOptions

    @Option(help: "Output format: table or json.")
    var format: PickReport.Format = .table

    func run() async throws {
        try await reporting {
            let config = try global.loadConfig()
            let nights = try global.openStoreForReading(config).nights()
            if format == .json {
                Output.exact(ReportRenderer.json(NightsReport(nights: nights)))
                return
            }
            guard !nights.isEmpty else {
                print("No movie night yet: record one with `mustc night MOVIE MEMBER...`.")
                return
            }
            let rows = nights.map { night in
                [
                    night.day.text, TerminalText.cell(night.movie.shown),
                    night.watchers.map { "\(TerminalText.cell($0.name)) \($0.rating.map { "\($0)/10" } ?? "–")" }
                        .joined(separator: ", "),
                ]
            }
            print(ReportRenderer.table(header: ["Day", "Movie", "Watchers and their ratings"], rows: rows, indent: ""))
        }
    }
}

/// `mustc nights --format json`: `{"nights":[{"id","day","title","year","remoteId","watchers":[{"name","rating"}]}]}`.
struct NightsReport: Encodable {
    var nights: [MovieNightRecord]
}
