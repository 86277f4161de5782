import ArgumentParser
import Foundation
import MustCore

struct WatchedCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watched",
        abstract: "Mark movies a member has watched, with their own rating; --undo takes the mark back.",
        discussion: """
            The movies are named as for remove: any spelling the member added them with, "Title (Year)", \
            tmdb:ID or imdb:ttID. A movie the member does not keep but someone else does is put on their list, \
            watched. --on takes a day written YYYY-MM-DD (default today). --rating takes 4.5/5 (half stars), 9/10, \
            or a bare number out of 10; it is kept on a 1-10 scale. --undo takes back the watched mark and its day, \
            and keeps the rating and the movie on the list.
            """
    )

    @OptionGroup var global: GlobalOptions

    @Flag(help: "Take the watched mark back.")
    var undo = false

    @Option(help: ArgumentHelp("The day they watched it (default today).", valueName: "YYYY-MM-DD"))
    var on: String?

    @Option(help: ArgumentHelp("Their own rating: 4.5/5, 9/10, or a number out of 10.", valueName: "N"))
    var rating: String?

    @Option(help: "The release year, for a single title: tells remakes with the same title apart.")
    var year: Int?

    @Argument(help: "The family member.")
    var member: String

    @Argument(help: "One or more movies: titles, \"Title (Year)\", tmdb:ID, imdb:ttID or URLs.")
    var movies: [String] = []

    func validate() throws {
        _ = try NameArgument.validated(member, field: "member name")
        guard !movies.isEmpty else { throw ValidationError("name at least one movie") }
        if year != nil, movies.count > 1 { throw ValidationError("--year applies to a single movie") }
        for movie in movies { _ = try MovieArgument.parsed(movie, year: year) }
        if undo, on != nil || rating != nil {
            throw ValidationError("--undo takes the mark back; it takes no --on or --rating")
        }
        _ = try mark(now: global.time.now())
    }

    /// The mark the options ask for: exit 64 naming a rating or day that is not one.
    func mark(now: Date) throws -> WatchMark {
        var mark = WatchMark(watched: true, on: WatchDay.of(now))
        if let on {
            if let problem = WatchDay.problem(on, today: WatchDay.of(now)) {
                // A day written right is shown as it is; anything else quoted, as typed.
                guard problem.hasPrefix("is not") else {
                    throw ValidationError("--on \(on) \(problem); give the day they watched it")
                }
                throw ValidationError("--on \"\(TerminalText.cell(on))\" \(problem); write it so, as 2024-03-01")
            }
            mark.on = WatchDay.parse(on)
        }
        if let rating {
            guard let value = OwnRating.parse(rating) else {
                throw ValidationError(
                    "--rating \(rating.debugDescription) is not a rating; give half stars out of 5 (4.5/5), "
                        + "or a whole number out of 10 (9/10, or 9)")
            }
            mark.rating = value
        }
        return mark
    }

    func run() async throws {
        try await reporting {
            let references = try movies.map { try MovieArgument.parsed($0, year: year) }
            let wanted = try mark(now: global.time.now())
            let config = try global.loadConfig()
            // The same editor as the page's cards, so a mark from either is the same write.
            let editor = MovieEditor(
                store: try global.openStore(config), checks: MovieSchedulePolicy(config.schedule), time: global.time)
            let outcome =
                undo
                ? try editor.unwatched(member: member, references)
                : try editor.watched(member: member, references, mark: wanted)
            switch outcome {
            case .unknownMember:
                throw Failure.usage("there is no member \(quoted(member)); see `mustc members`")
            case .unknownMovie(let reference):
                throw Failure.usage(
                    undo
                        ? "\(member) has no movie \(quoted("\(reference)")); nothing was changed. See `mustc movies --member "
                            + "\(Shell.quoted(member))`"
                        : "there is no movie \(quoted("\(reference)")); add it first with `mustc add`. Nothing was marked."
                )
            case .ambiguous(let reference, let movies):
                throw Failure.usage(
                    "\(movies.count) movies are named \(quoted("\(reference)")): "
                        + movies.map(\.reference.argument).joined(separator: ", ")
                        + "; name one of them. Nothing was marked.")
            case .done(let member, let movies):
                for movie in movies { print(line(member, movie, wanted)) }
            }
        }
    }

    private func line(_ member: String, _ done: WatchedMovie, _ mark: WatchMark) -> String {
        let title = quoted(done.movie.shown)
        if undo {
            return done.changed
                ? "\(member) has not watched \(title) after all."
                : "\(member) had not marked \(title) watched; nothing changed."
        }
        var text = "\(member) watched \(title) on \(mark.on?.text ?? "an unknown day")"
        if let rating = mark.rating { text += ", rated \(rating)/10" }
        text += done.linked ? "; it is on \(member)'s list now, watched." : "."
        return done.changed ? text : text + " (already marked so; nothing changed)"
    }
}
