import ArgumentParser
import Foundation
import MustCore

struct MemberCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "member",
        abstract:
            "Set what a family member may watch (--age-limit), their profile (--pin, --kid), or whose media server events are theirs.",
        discussion: """
            The limit is a certification of the family's region (family.region, default US), such as PG or PG-13. \
            A pick that includes the member never goes above it, and leaves out movies with no certification in \
            the region unless pick is given --include-unrated. The order of the certifications is TMDB's, read \
            once (GET /certification/movie/list) and kept. \
            --media-user USER sends the events of that Jellyfin, Plex or Emby user (`mustc webhook`) to this member; \
            without it, a user's events go to the member of the same name. \
            --pin asks for a PIN of 4 to 8 digits twice (at a terminal without showing it, otherwise two lines of \
            standard input); the page then asks for it when this member's profile is chosen. Only a bcrypt hash is \
            kept. --kid makes the profile a kid's: on the page they see only movies within their own age limit \
            (movies with no certification are left out unless the limit is none) and change only their own list. \
            Once any member has a PIN or is a kid, the page opens on "Who's watching?". Changing a PIN or a kind \
            signs that profile out.
            """
    )

    @OptionGroup var global: GlobalOptions

    @Option(help: ArgumentHelp("The highest certification they may see, or none.", valueName: "CERT|none"))
    var ageLimit: String?

    @Option(help: ArgumentHelp("A media server's user whose events are this member's.", valueName: "USER"))
    var mediaUser: String?

    @Flag(help: "Ask for a PIN (4 to 8 digits, twice) that the page asks for when this profile is chosen.")
    var pin = false

    @Flag(help: "Remove the profile's PIN.")
    var noPin = false

    @Flag(help: "A kid's profile: sees only movies within their own age limit, and changes only their own list.")
    var kid = false

    @Flag(help: "A grown-up's profile (the default).")
    var grownUp = false

    @Argument(help: "The family member.")
    var member: String

    func validate() throws {
        _ = try NameArgument.validated(member, field: "member name")
        guard ageLimit != nil || mediaUser != nil || pin || noPin || kid || grownUp else {
            throw ValidationError(
                "say what to set: --age-limit CERT|none, --pin, --no-pin, --kid, --grown-up or --media-user USER")
        }
        if pin && noPin { throw ValidationError("--pin and --no-pin can't go together: choose one") }
        if kid && grownUp { throw ValidationError("--kid and --grown-up can't go together: choose one") }
        if let ageLimit, ageLimit.trimmingCharacters(in: .whitespaces).isEmpty {
            throw ValidationError("--age-limit takes a certification, or none")
        }
        if let mediaUser { _ = try NameArgument.validated(mediaUser, field: "media server user") }
    }

    func run() async throws {
        try await reporting {
            let config = try global.loadConfig()
            // The PIN is read first: a mismatch changes nothing at all.
            let newPin = pin ? try Self.readPin() : nil
            if let mediaUser {
                guard let name = try global.openStore(config).mapMediaUser(mediaUser, toMember: member) else {
                    throw Failure.usage("there is no member \(quoted(member)); see `mustc members`")
                }
                print("\(name) gets the media servers' events of user \(TerminalText.visible(mediaUser)).")
            }
            if ageLimit != nil { try await setAgeLimit(config) }
            if kid || grownUp { try setKind(config) }
            if let newPin { try setPin(config, hash: ProfilePin.hash(newPin)) }
            if noPin { try setPin(config, hash: nil) }
        }
    }

    private func setAgeLimit(_ config: Config) async throws {
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

    private func setKind(_ config: Config) throws {
        let store = try global.openStore(config)
        guard let (name, ended) = try store.setKid(member: member, kid) else {
            throw Failure.usage("there is no member \(quoted(member)); see `mustc members`")
        }
        let shown = TerminalText.visible(name)
        guard kid else {
            print("\(shown) has a grown-up's profile\(Self.signedOut(ended)).")
            return
        }
        let limit = try store.profile(named: name)?.ageLimit
        print(
            limit.map { "\(shown) has a kid's profile: on the page they see movies up to \(TerminalText.visible($0))" }
                ?? "\(shown) has a kid's profile, with no age limit: they see every movie until one is set with "
                + "`mustc member \(quoted(name)) --age-limit CERT`",
            terminator: "")
        print("\(Self.signedOut(ended)).")
    }

    private func setPin(_ config: Config, hash: String?) throws {
        let store = try global.openStore(config)
        guard let (name, ended) = try store.setPin(member: member, hash: hash) else {
            throw Failure.usage("there is no member \(quoted(member)); see `mustc members`")
        }
        let shown = TerminalText.visible(name)
        print(
            (hash == nil ? "\(shown)'s profile has no PIN" : "\(shown)'s profile asks for its PIN on the page")
                + "\(Self.signedOut(ended)).")
    }

    private static func signedOut(_ sessions: Int) -> String {
        sessions == 0 ? "" : "; \(sessions) browser\(sessions == 1 ? " was" : "s were") signed out of it"
    }

    /// Twice, without echo at a terminal, or two lines from a pipe; a usage failure (64) names the problem.
    static func readPin() throws -> String {
        do {
            let interactive = Console.isTerminal(STDIN_FILENO)
            let read = { (prompt: String) throws -> String in
                if interactive { return try SilentInput.line(prompt: prompt, what: "PIN") }
                guard let line = Console.readLine(strippingNewline: true) else {
                    throw Failure.usage(
                        "--pin reads the PIN twice: pipe two lines, or run at a terminal; nothing was changed")
                }
                return line.hasSuffix("\r") ? String(line.dropLast()) : line
            }
            let first = try ProfilePin.validate(try read("New PIN (4 to 8 digits): "))
            guard try read("Again, to be sure: ") == first else { throw ProfilePin.Problem.different }
            return first
        } catch let problem as ProfilePin.Problem {
            throw Failure.usage("\(problem); nothing was changed")
        }
    }
}
