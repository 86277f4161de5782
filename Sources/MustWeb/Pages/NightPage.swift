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

    static let count = 5
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
}
