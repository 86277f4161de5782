import Foundation
import MustCore

/// `/night`: tick the members watching tonight and get `mustc pick`'s answer, from the same ranking
/// (`MovieNight` through `PickReport`). A plain GET form, so it works without JavaScript and can be bookmarked.
struct NightPage: Sendable {
    struct Choice: Sendable {
        /// The name as stored: the box's value, sent back as typed.
        var name: String
        /// The name as the page shows it (controls visible).
        var label: String
        var id: String
        var checked: Bool
    }

    struct Pick: Sendable {
        var rank: Int
        var shown: String
        var href: String?
        var why: String
    }

    struct Option: Sendable {
        var value: String
        var label: String
        var selected: Bool
    }

    static let count = 5
    /// Tonight's choices (issue 28), as the form shows them again.
    var minutes: String = ""
    var ages: [Option] = []
    var genres: [Option] = []
    var streaming = false
    var hasServices = false
    var includeUnrated = false
    /// "Cleo's limit applies: PG." when the ticked members or the form set one.
    var limitNote: String?
    var title = "Movie night"
    var members: [Choice]
    var picks: [Pick]
    var includeWatched: Bool
    /// What the page says above the picks: who they are for, or what to do first.
    var heading: String?
    var note: String?

    init(members all: [MemberSummary], chosen: [String], report: PickReport?, includeWatched: Bool) {
        let ticked = Set(chosen.map(TitleKey.make))
        members = all.enumerated().map { index, member in
            Choice(
                name: member.name, label: Shown.text(member.name), id: "member-\(index)",
                checked: ticked.contains(TitleKey.make(member.name)))
        }
        self.includeWatched = includeWatched
        picks =
            report?.picks.enumerated().map { index, pick in
                let shown = MovieName.shown(pick.candidate.title, pick.candidate.year)
                // The command's reason starts with the title, which the page shows as the link above it.
                let why = pick.why.hasPrefix(shown + ": ") ? String(pick.why.dropFirst(shown.count + 2)) : pick.why
                return Pick(
                    rank: index + 1, shown: Shown.text(shown),
                    href: WebPath.movie(remoteId: pick.candidate.remoteId, localId: pick.candidate.movieId),
                    why: Shown.text(why))
            } ?? []
        if let report {
            heading = "Tonight for \(Shown.text(MovieNight.names(report.members))), best first"
            note = report.picks.isEmpty ? "Nothing left to pick: they have watched everything they keep." : nil
        } else {
            note = all.isEmpty ? nil : "Tick who is watching, then Pick."
        }
    }

    mutating func offer(
        _ choices: NightChoices, genres seen: [String], certifications: [String], hasServices: Bool, applied: String?,
        limits: [String: String]
    ) {
        minutes = choices.minutes.map(String.init) ?? ""
        let wanted = Set(choices.genres.map(TitleKey.make))
        genres =
            [Option(value: "", label: "Any genre", selected: wanted.isEmpty)]
            + seen.map { Option(value: $0, label: Shown.text($0), selected: wanted.contains(TitleKey.make($0))) }
        let age = choices.age?.uppercased()
        ages =
            [Option(value: "", label: "The members' own", selected: age == nil)]
            + certifications.map { Option(value: $0, label: Shown.text($0), selected: $0.uppercased() == age) }
        streaming = choices.streaming
        self.hasServices = hasServices
        includeUnrated = choices.includeUnrated
        if let applied {
            let whose = limits.filter { $0.value.uppercased() == applied.uppercased() }.keys.sorted()
            let by = whose.isEmpty ? "Tonight's" : MovieNight.names(whose.map { $0 + "'s" })
            limitNote = Shown.text(
                "Age limit: \(applied) (\(by)). Movies with no certification are "
                    + (includeUnrated ? "included." : "left out."))
        }
    }
}
