import ArgumentParser
import Foundation
import MustCore

struct ProvidersCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "providers",
        abstract: "List the providers seen in the library for the family's region, or choose the family's services.",
        discussion: """
            Each with its TMDB id, how many of the library's movies it offers and how (subscription, free, with \
            ads, rent, buy), most movies first, and whether it is one of the family's services. Reads only, \
            offline: providers show once a fetch has read the movies' offers. \
            --ours NAME|ID (repeat for several; none for no service) chooses the family's services among them, \
            the same choice as the page's settings. family.services in the config wins over that choice while it \
            lists any: the choice is then refused, and one made before is kept for when the config lists none.
            """
    )

    @OptionGroup var global: GlobalOptions

    @Option(help: "Output format: table or json.")
    var format: PickReport.Format = .table

    @Option(
        help: ArgumentHelp(
            "Choose the family's services: a provider's name or id; repeat for several, or none.", valueName: "NAME|ID")
    )
    var ours: [String] = []

    func validate() throws {
        for name in ours where name.trimmingCharacters(in: .whitespaces).isEmpty {
            throw ValidationError("--ours takes a provider's name or TMDB id, or none")
        }
    }

    func run() async throws {
        try await reporting {
            let config = try global.loadConfig()
            if !ours.isEmpty { return try choose(config) }
            let region = config.family.region
            let store = try global.openStoreForReading(config)
            let seen = try store.providersSeen(region: region)
            if format == .json {
                Output.exact(ReportRenderer.json(seen))
                return
            }
            guard !seen.isEmpty else {
                print("No providers seen for \(region) yet: they show once `mustc fetch` has read the movies' offers.")
                return
            }
            let family = try store.familyServices(configured: config.family.services)
            let services = ServiceMatcher(family.services)
            let rows = seen.map { provider in
                [
                    provider.name, String(provider.id), String(provider.movies),
                    provider.kinds.map(\.heading).joined(separator: ", ").lowercased(),
                    services.matches(id: provider.id, name: provider.name) ? "yes" : "",
                ]
            }
            print("Providers in \(region):")
            print(
                ReportRenderer.table(header: ["Provider", "Id", "Movies", "Offers", "Ours"], rows: rows, indent: "  "))
            print(Self.source(family))
        }
    }

    /// Where "Ours" comes from, in one line.
    static func source(_ family: FamilyServices) -> String {
        switch family.source {
        case .config:
            return "Ours: family.services in the config"
                + (family.shadowed ? " (it wins over the choice made on the page or with --ours, which is kept)." : ".")
        case .chosen: return "Ours: chosen on the page's settings or with --ours."
        case .none: return "Ours: none chosen; choose them with --ours, on the page's settings, or in family.services."
        }
    }

    /// `--ours`: each name or id must be a provider seen in the region; the choice replaces the last.
    private func choose(_ config: Config) throws {
        guard config.family.services.isEmpty else {
            throw Failure.config(
                "family.services in the config lists the family's services, and it wins over --ours; edit it there, "
                    + "or remove it to choose with --ours or on the page")
        }
        let region = config.family.region
        let store = try global.openStore(config)
        var ids: [Int] = []
        if !(ours.count == 1 && ours[0].trimmingCharacters(in: .whitespaces).lowercased() == "none") {
            let seen = try store.providersSeen(region: region)
            for name in ours {
                let matcher = ServiceMatcher([name.trimmingCharacters(in: .whitespaces)])
                guard let found = seen.first(where: { matcher.matches(id: $0.id, name: $0.name) }) else {
                    let close = ServiceNames.closest(to: name, among: seen.map(\.name))
                    throw Failure.usage(
                        "no movie in the library is on \(quoted(name)) in \(region); see `mustc providers`"
                            + (close.isEmpty ? "" : "; did you mean \(close.map(quoted).joined(separator: ", "))?"))
                }
                ids.append(found.id)
            }
        }
        try store.chooseServices(ids, now: global.time.now())
        let chosen = try store.familyServices(configured: []).services.compactMap(Int.init)
        let names = try store.providersSeen(region: region).filter { chosen.contains($0.id) }.map(\.name)
        print(
            names.isEmpty
                ? "The family has no services now."
                : "The family's services: \(names.map(TerminalText.visible).joined(separator: ", ")).")
    }
}
