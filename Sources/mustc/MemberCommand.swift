import ArgumentParser
import Foundation
import MustCore

struct MemberCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "member",
        abstract: "Set what a family member may watch (--age-limit), or whose media server events are theirs.",
        discussion: """
            The limit is a certification of the family's region (family.region, default US), such as PG or PG-13. \
            A pick that includes the member never goes above it, and leaves out movies with no certification in \
            the region unless pick is given --include-unrated. The order of the certifications is TMDB's, read \
            once (GET /certification/movie/list) and kept. \
            --media-user USER sends the events of that Jellyfin, Plex or Emby user (`mustc webhook`) to this member; \
            without it, a user's events go to the member of the same name.
            """
    )

    @OptionGroup var global: GlobalOptions

    @Option(help: ArgumentHelp("The highest certification they may see, or none.", valueName: "CERT|none"))
    var ageLimit: String?

    @Option(help: ArgumentHelp("A media server's user whose events are this member's.", valueName: "USER"))
    var mediaUser: String?

    @Argument(help: "The family member.")
    var member: String

    func validate() throws {
        _ = try NameArgument.validated(member, field: "member name")
        guard ageLimit != nil || mediaUser != nil else {
            throw ValidationError("say what to set: --age-limit CERT|none, or --media-user USER")
        }
        if let ageLimit, ageLimit.trimmingCharacters(in: .whitespaces).isEmpty {
            throw ValidationError("--age-limit takes a certification, or none")
        }
        if let mediaUser { _ = try NameArgument.validated(mediaUser, field: "media server user") }
    }

    func run() async throws {
        try await reporting {
            let config = try global.loadConfig()
            if let mediaUser {
                guard let name = try global.openStore(config).mapMediaUser(mediaUser, toMember: member) else {
                    throw Failure.usage("there is no member \(quoted(member)); see `mustc members`")
                }
                print("\(name) gets the media servers' events of user \(TerminalText.visible(mediaUser)).")
            }
            guard let ageLimit else { return }
            let region = config.family.region
            var limit: String?
            if ageLimit.trimmingCharacters(in: .whitespaces).lowercased() != "none" {
                let list = try await Certifications.order(global, config)
                limit = try Certifications.checked(ageLimit, in: list, region: region, option: "--age-limit")
            }
            guard let name = try global.openStore(config).setAgeLimit(member: member, to: limit) else {
                throw Failure.usage("there is no member \(quoted(member)); see `mustc members`")
            }
            print(limit.map { "\(name) may watch up to \($0) (\(region))." } ?? "\(name) has no age limit.")
        }
    }
}
