import Foundation

/// What a run's news says, in the family's words. Pure: the same changes give the same message.
///   "Now on Netflix: Dune (2021), kept by Claire and Daniel"
///   "Left Disney Plus: Up (2009)"
///   "Up (2009) rose to 8.1 (Sofia and Leo keep it)"
/// A rating counts when it moved at one decimal, as the page rounds it; a change of votes or popularity alone
/// never makes a message. Titles and names go through `TerminalText.cell`, as every output, so a title cannot
/// carry a control character or a line break onto the phone.
public enum NotifyWords {
    /// The most lines a message lists; the title still counts every item, and a last line says how many more.
    public static let maxLines = 20

    public static func news(
        _ changes: ChangesReport, kinds: Set<Config.Notify.Kind>, publicURL: String?
    ) -> NotifyMessage? {
        var lines: [(remoteId: Int?, text: String)] = []
        if kinds.contains(.availability) {
            let ordered = changes.availability.filter(\.arrived) + changes.availability.filter { !$0.arrived }
            lines += ordered.map { ($0.remoteId, availability($0)) }
        }
        if kinds.contains(.rating) {
            lines += ratingMoves(changes.changes).map { ($0.remoteId, $0.text) }
        }
        guard !lines.isEmpty else { return nil }
        var shown = lines.prefix(maxLines).map(\.text)
        if lines.count > maxLines { shown.append("and \(lines.count - maxLines) more") }
        let single = lines.count == 1 ? lines[0].remoteId : nil
        return NotifyMessage(
            title: "Movie news: \(count(lines.count, "item"))", body: shown.joined(separator: "\n"),
            click: link(publicURL, remoteId: single), items: lines.count)
    }

    /// "Now on Netflix: Dune (2021), kept by Claire and Daniel", "Left Disney Plus: Up (2009)".
    static func availability(_ change: AvailabilityChange) -> String {
        let movie = TerminalText.cell(change.shown)
        let provider = TerminalText.cell(change.provider)
        guard change.arrived else { return "Left \(provider): \(movie)" }
        let keepers = change.members.isEmpty ? "" : ", kept by " + names(change.members)
        return "Now on \(provider): \(movie)\(keepers)"
    }

    /// "Up (2009) rose to 8.1 (Sofia and Leo keep it)", biggest move first; only ratings that moved at one decimal.
    static func ratingMoves(_ movies: [MovieChanges]) -> [(remoteId: Int?, text: String)] {
        var moves: [(size: Double, remoteId: Int?, text: String)] = []
        for movie in movies {
            guard let before = movie.first.figures.voteAverage, let after = movie.last.figures.voteAverage,
                RatingsReport.oneDecimal(before) != RatingsReport.oneDecimal(after)
            else { continue }
            let verb = after > before ? "rose" : "fell"
            var text = "\(TerminalText.cell(movie.shown)) \(verb) to \(RatingsReport.oneDecimal(after))"
            if !movie.members.isEmpty {
                text += " (\(names(movie.members)) \(movie.members.count == 1 ? "keeps" : "keep") it)"
            }
            moves.append((abs(after - before), movie.remoteId, text))
        }
        return moves.sorted { $0.size > $1.size }.map { ($0.remoteId, $0.text) }
    }

    /// Tonight's pick for the whole family: the top three, each with where it streams.
    ///   "Tonight for Ann, Bob and Cleo: 3 picks"
    ///   "1. Dune (2021), 8.1: on Netflix"
    public static func tonight(_ report: PickReport, services: [String], publicURL: String?) -> NotifyMessage {
        let who = names(report.members)
        guard !report.picks.isEmpty else {
            return NotifyMessage(
                title: "Tonight for \(who): nothing to pick",
                body: "No movie on the family's lists that none of them has watched"
                    + (report.filtered ? " and that their age limits allow." : "."),
                click: link(publicURL, remoteId: nil, path: "/night"), items: 0)
        }
        let matcher = ServiceMatcher(services)
        let lines = report.picks.enumerated().map { index, pick in
            let movie = pick.candidate
            var line = "\(index + 1). \(TerminalText.cell(MovieName.shown(movie.title, movie.year)))"
            if movie.isRated, let average = movie.voteAverage { line += ", \(RatingsReport.oneDecimal(average))" }
            return line + ": " + whereItStreams(movie.providers, services: services.isEmpty ? nil : matcher)
        }
        return NotifyMessage(
            title: "Tonight for \(who): \(count(lines.count, "pick"))", body: lines.joined(separator: "\n"),
            click: link(publicURL, remoteId: nil, path: "/night"), items: lines.count)
    }

    /// "on Netflix and Max", "not streaming on the family's services", "where it streams is not known yet".
    static func whereItStreams(_ offers: [ProviderOffer]?, services: ServiceMatcher?) -> String {
        guard let offers else { return "where it streams is not known yet" }
        var seen: [String] = []
        for offer in offers.sorted(by: { ($0.kind, $0.name) < ($1.kind, $1.name) })
        where offer.kind.noExtraCost && services.map({ $0.matches(id: offer.id, name: offer.name) }) ?? true
            && !seen.contains(offer.name)
        {
            seen.append(offer.name)
        }
        guard !seen.isEmpty else {
            return services == nil ? "not streaming" : "not streaming on the family's services"
        }
        return "on " + names(seen)
    }

    /// Names as the page writes them: "Ann", "Ann and Bob", "Ann, Bob and Cleo", each made safe.
    static func names(_ names: [String]) -> String { MovieNight.names(names.map(TerminalText.cell)) }

    static func count(_ value: Int, _ noun: String) -> String { "\(value) \(noun)\(value == 1 ? "" : "s")" }

    /// The movie's page for a single item, the family's page for several; nil without `serve.publicURL`.
    static func link(_ publicURL: String?, remoteId: Int?, path: String? = nil) -> String? {
        guard var base = publicURL, !base.isEmpty else { return nil }
        while base.hasSuffix("/") { base.removeLast() }
        if let path { return base + path }
        return base + (remoteId.map { "/movies/\($0)" } ?? "/")
    }

    /// The short message of `mustc notify --test`.
    public static let test = NotifyMessage(
        title: "mustc: a test", body: "Notifications from mustc reach this destination.", items: 1)
}
