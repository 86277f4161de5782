import Foundation

/// What `--date-order` and `--netflix-profile` say about Netflix files, and today's day (a later date is not taken).
public struct NetflixChoice: Sendable {
    public var dateOrder: DateOrder?
    public var profile: String?
    public var today: WatchDay

    public init(dateOrder: DateOrder? = nil, profile: String? = nil, today: WatchDay) {
        (self.dateOrder, self.profile, self.today) = (dateOrder, profile, today)
    }
}

/// Where a Netflix file's columns are: the account page's `NetflixViewingHistory.csv` (`Title,Date`), or the full
/// data download's `ViewingActivity.csv` (`Profile Name,Start Time,Duration,…,Title,Supplemental Video Type,…`).
enum NetflixLayout: Equatable {
    case history(title: Int, date: Int)
    case activity(profile: Int, start: Int, duration: Int?, title: Int, supplemental: Int?)

    static func detect(_ header: [String]) -> NetflixLayout? {
        let names = header.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        func column(_ name: String) -> Int? { names.firstIndex(of: name) }
        // Exactly these two, an empty column aside (a trailing comma): a mustc CSV has a title column too.
        if names.filter({ !$0.isEmpty }).count == 2, let title = column("title"), let date = column("date") {
            return .history(title: title, date: date)
        }
        guard let profile = column("profile name"), let start = column("start time"), let title = column("title")
        else { return nil }
        return .activity(
            profile: profile, start: start, duration: column("duration"), title: title,
            supplemental: column("supplemental video type"))
    }
}

/// A Netflix history, read whole before any row is told: which profile, the order of day and month, and which
/// titles are a show's episodes are settled from the whole file (so a file that cannot be read without
/// `--date-order` or `--netflix-profile` stops before anything is written). What is kept is each viewing's title,
/// profile and date, a few hundred bytes a line (a 10,000-line file is a few MB).
final class NetflixRows: ImportRowSource {
    private struct View {
        var line: Int
        var profile: Int
        var title: String
        var date: String
        var seconds: Int?
        var supplemental: String
    }

    private enum Line {
        case view(View)
        case invalid(line: Int, reason: String)
    }

    /// A film's viewings: one watch, on its latest day, carried by one line.
    private struct Film {
        var carrier: Int
        var day: WatchDay?
        var seconds: Int? = 0
    }

    private let reader: CSVRecordReader
    private let activity: Bool
    private var lines: [Line] = []
    private var profiles: [String] = []
    private var chosen = 0
    private var order: DateOrder?
    private var shows: Set<String> = []
    /// The distinct `Show: Rest` titles under each prefix (the text before the first colon).
    private var siblings: [String: Set<String>] = [:]
    /// What TMDB said of the titles only it can tell (`undecided`); absent until `decide` is called.
    private var verdicts: [String: TitleVerdict] = [:]
    private var collected = false
    private var films: [String: Film] = [:]
    private let today: WatchDay
    private var next = 0

    /// A film played for less than this in all, over every session, was sampled, not watched.
    static let shortestViewing = 10 * 60

    /// Reads every record of `reader` (past its header) and settles what the file needs; throws an
    /// `ImportFileProblem` naming `name` when the file needs an option it was not given.
    init(reader: CSVRecordReader, layout: NetflixLayout, name: String, _ choice: NetflixChoice) throws {
        self.reader = reader
        today = choice.today
        if case .activity = layout { activity = true } else { activity = false }
        try read(layout)
        do {
            try settle(choice)
        } catch let problem as DateOrderProblem {
            throw ImportFileProblem(file: name, reason: problem.description)
        } catch let problem as ProfileProblem {
            throw ImportFileProblem(file: name, reason: problem.description)
        }
    }

    var position: Int { reader.position }
    var encoding: ListEncoding { reader.encoding }

    private func read(_ layout: NetflixLayout) throws {
        var known: [String: Int] = [:]
        while let record = try reader.next() {
            switch record {
            case .malformed(let line, let reason):
                lines.append(.invalid(line: line, reason: reason))
            case .fields(let fields, let line):
                func field(_ index: Int?) -> String {
                    guard let index, index < fields.count else { return "" }
                    return fields[index].trimmingCharacters(in: .whitespaces)
                }
                var view = View(line: line, profile: 0, title: "", date: "", supplemental: "")
                switch layout {
                case .history(let title, let date):
                    (view.title, view.date) = (field(title), field(date))
                case .activity(let profile, let start, let duration, let title, let supplemental):
                    (view.title, view.date) = (field(title), field(start))
                    (view.seconds, view.supplemental) = (Self.seconds(field(duration)), field(supplemental))
                    let name = field(profile)
                    if let index = known[name] {
                        view.profile = index
                    } else {
                        view.profile = profiles.count
                        known[name] = profiles.count
                        profiles.append(name)
                    }
                }
                if view.title.isEmpty {
                    lines.append(.invalid(line: line, reason: "it has no title"))
                } else {
                    lines.append(.view(view))
                }
            }
        }
    }

    /// The profile, the episodes' shows and the order of day and month.
    private func settle(_ choice: NetflixChoice) throws {
        // NetflixViewingHistory.csv is one profile's already: `--netflix-profile` is for ViewingActivity.csv.
        chosen = activity ? try ProfileProblem.choose(choice.profile, among: profiles) : 0
        var evidence = DateOrderEvidence()
        for case .view(let view) in lines where view.profile == chosen && view.supplemental.isEmpty {
            if let show = NetflixTitle.show(view.title) { shows.insert(show) }
            if let colon = view.title.range(of: ": ") {
                siblings[String(view.title[..<colon.lowerBound]), default: []].insert(view.title)
            }
        }
        guard !activity else { return }
        for case .view(let view) in lines {
            if let date = NetflixDate.parse(view.date) {
                evidence.add(date, text: view.date, movie: kind(view.title) != .episode)
            }
        }
        order = try evidence.settled(given: choice.dateOrder)
    }

    /// What the file alone tells of a title. A `Show: Rest` title is an episode when it or another title of the
    /// show is written as one; it is undecided when other titles share its show's name (a show's episodes, or a
    /// trilogy's films) or its last part is a numbered part (`Dune: Part Two`, `Lupin: Part 2`); alone, it is a
    /// film (`Léon: The Professional`, `To All the Boys: P.S. I Still Love You`).
    private func kind(_ title: String) -> TitleVerdict {
        if NetflixTitle.show(title) != nil { return .episode }
        guard let colon = title.range(of: ": ") else { return .film }
        let show = String(title[..<colon.lowerBound])
        if shows.contains(show) { return .episode }
        if (siblings[show]?.count ?? 0) > 1 || NetflixTitle.numberedPart(title) { return .unsure }
        return .film
    }

    /// What a title is once TMDB has been asked: an undecided title TMDB was not asked about is unsure.
    private func verdict(_ title: String) -> TitleVerdict {
        let kind = kind(title)
        guard kind == .unsure else { return kind }
        return verdicts[title] ?? .unsure
    }

    /// Each film's latest day, the line that carries it, and the time it was played in all.
    private func collect() {
        collected = true
        for (index, line) in lines.enumerated() {
            guard case .view(let view) = line, view.profile == chosen, view.supplemental.isEmpty,
                verdict(view.title) == .film, future(view) == nil
            else { continue }
            let day = self.day(view).day
            guard var film = films[view.title] else {
                films[view.title] = Film(carrier: index, day: day, seconds: view.seconds)
                continue
            }
            if let day, day > film.day ?? day { (film.carrier, film.day) = (index, day) }
            film.seconds = film.seconds.flatMap { total in view.seconds.map { total + $0 } }
            films[view.title] = film
        }
    }

    /// Why a line is refused whole: its date is after today, so it tells of no viewing yet (neither the link nor
    /// the watched mark is taken).
    private func future(_ view: View) -> String? {
        let day = activity ? WatchDay.parse(String(view.date.prefix(10))) : NetflixDate.parse(view.date)?.day(order)
        guard let day, day > today else { return nil }
        return "the date \(Excerpt.quoted(view.date)) is after today (\(today.text)): no viewing yet, not imported"
    }

    /// The day a line was watched, or why its date is not taken.
    private func day(_ view: View) -> (day: WatchDay?, problem: String?) {
        let day: WatchDay?
        if activity {
            // `Start Time` is UTC: `2023-06-28 20:15:03`.
            day = WatchDay.parse(String(view.date.prefix(10)))
        } else {
            day = NetflixDate.parse(view.date)?.day(order)
        }
        guard let day else {
            let how =
                activity ? "a time written YYYY-MM-DD HH:MM:SS" : "a date in the order \(order?.rawValue ?? "dmy")"
            return (nil, "the date \(Excerpt.quoted(view.date)) is not \(how); not taken")
        }
        if let problem = WatchDay.problem(day.text, today: today) {
            return (nil, "the date \(Excerpt.quoted(view.date)) \(problem); not taken")
        }
        return (day, nil)
    }

    /// `today` was settled when the file was opened: the same day, read from the same clock.
    func next(member: String, today: WatchDay) throws -> (at: String, row: ImportRow)? {
        if !collected { collect() }
        guard next < lines.count else { return nil }
        defer { next += 1 }
        switch lines[next] {
        case .invalid(let line, let reason): return ("\(line)", .invalid(reason))
        case .view(let view): return ("\(view.line)", row(view, index: next))
        }
    }

    private func row(_ view: View, index: Int) -> ImportRow {
        let title = Excerpt.quoted(view.title)
        if view.profile != chosen {
            return .skipped(
                "\(Excerpt.shown(profiles[view.profile]))'s viewing, not \(Excerpt.shown(profiles[chosen]))'s")
        }
        if !view.supplemental.isEmpty {
            let kind = view.supplemental.lowercased().replacingOccurrences(of: "_", with: " ")
            return .extra("a \(Excerpt.shown(kind)) of \(title), not the film itself")
        }
        switch verdict(view.title) {
        case .episode: return .episode("an episode: \(title)")
        case .unsure: return .unsure(unsure(view.title))
        case .film: break
        }
        if let future = future(view) { return .invalid(future) }
        guard let film = films[view.title] else { return .invalid("it has no title") }
        if activity, let seconds = film.seconds, seconds < Self.shortestViewing {
            return .extra("\(title) played \(seconds / 60) min in all: sampled, not watched")
        }
        guard film.carrier == index else {
            return .merged("another \(activity ? "session" : "day") of the viewing of \(title)", rewatch: false)
        }
        var entry = ImportEntry(title: view.title)
        do {
            entry.title = try NameValidation.validate(view.title, field: "title")
        } catch {
            return .invalid(error.description)
        }
        entry.mark.watched = true
        (entry.mark.on, entry.markProblem) = day(view)
        // Netflix gives no year: the movie was released by the day it was watched.
        entry.latestYear = entry.mark.on.flatMap { Int($0.text.prefix(4)) }
        return .movie(entry)
    }

    /// Why a title could not be told: what in the file makes it doubtful, and that TMDB was not there to say.
    private func unsure(_ title: String) -> String {
        let shown = Excerpt.quoted(title)
        let show = title.components(separatedBy: ": ")[0]
        let others = (siblings[show]?.count ?? 1) - 1
        let why =
            others > 0
            ? "\(others) other \(others == 1 ? "title starts" : "titles start") \(Excerpt.quoted(show + ": "))"
            : "its last part is numbered"
        return "\(shown): a film or an episode? \(why), and TMDB could not be asked whether it is a movie; "
            + "not imported (importing the file again with TMDB credentials, TMDB answering, tells it)"
    }

    /// `Duration` as `HH:MM:SS`, in seconds; nil when it is not that.
    static func seconds(_ text: String) -> Int? {
        let parts = text.split(separator: ":")
        guard parts.count == 3, let hours = Int(parts[0]), let minutes = Int(parts[1]), let seconds = Int(parts[2]),
            hours >= 0, hours < 1000, (0..<60).contains(minutes), (0..<60).contains(seconds)
        else { return nil }
        return hours * 3600 + minutes * 60 + seconds
    }
}

extension NetflixRows: UndecidedTitles {
    /// The titles only TMDB can tell, once each, with the year they were last watched in (a film released later
    /// is not the one watched).
    var undecided: [(title: String, latestYear: Int?)] {
        var titles: Set<String> = []
        var years: [String: Int] = [:]
        for case .view(let view) in lines
        where view.profile == chosen && view.supplemental.isEmpty && kind(view.title) == .unsure {
            titles.insert(view.title)
            if let year = day(view).day.flatMap({ Int($0.text.prefix(4)) }) {
                years[view.title] = max(years[view.title] ?? year, year)
            }
        }
        return titles.sorted().map { ($0, years[$0]) }
    }

    func decide(movies: Set<String>, asked: Set<String>) {
        for title in asked { verdicts[title] = movies.contains(title) ? .film : .episode }
    }
}

/// A `ViewingActivity.csv` of several profiles without `--netflix-profile`, or with one it does not have.
struct ProfileProblem: Error, CustomStringConvertible {
    var given: String?
    var profiles: [String]

    /// The index of the profile to import: the one given (its name folded as member names are), else the only one.
    static func choose(_ given: String?, among profiles: [String]) throws(ProfileProblem) -> Int {
        guard let given, !profiles.isEmpty else {
            guard profiles.count <= 1 else { throw ProfileProblem(given: nil, profiles: profiles) }
            return 0
        }
        if let exact = profiles.firstIndex(of: given) { return exact }
        let key = TitleKey.make(given)
        guard let folded = profiles.firstIndex(where: { TitleKey.make($0) == key }) else {
            throw ProfileProblem(given: given, profiles: profiles)
        }
        return folded
    }

    var description: String {
        let names = profiles.map(Excerpt.quoted).joined(separator: ", ")
        guard let given else {
            return
                "it holds the viewing of \(profiles.count) profiles (\(names)); choose one with --netflix-profile NAME"
        }
        return "it has no profile \(Excerpt.quoted(given)); its profiles are \(names)"
    }
}
