import ArgumentParser
import Foundation
import MustCore

/// `text` or `json`, for `mustc webhook`.
enum WebhookFormat: String, CaseIterable, ExpressibleByArgument {
    case text, json
}

struct WebhookCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "webhook",
        abstract: "Print the secret webhook URLs for the family's Jellyfin, Plex and Emby servers.",
        discussion: """
            `mustc serve` marks a film watched (or rated) for the member of the media server's user name, or for the \
            member mapped with `mustc member NAME --media-user USER`. The URLs start with serve.publicURL, else the \
            listen address. Only a hash of each URL's secret is kept, so the URLs are printed once, when made: \
            --reset makes new ones, and the old ones stop working at once.
            """
    )

    @OptionGroup var global: GlobalOptions

    @Option(help: "Output format: text or json.")
    var format: WebhookFormat = .text

    @Flag(help: "Make new URLs; the old ones stop working at once.")
    var reset = false

    func run() async throws {
        try await reporting {
            let config = try global.loadConfig()
            let store = try global.openStore(config)
            let made = try store.webhookTokensMade()
            guard reset || made.isEmpty else {
                let when = made.values.min().map(ISO8601.string) ?? "before"
                Output.note(
                    "the webhook URLs were made at \(when); only their hashes are kept, so they cannot be shown again. "
                        + "`mustc webhook --reset` makes new ones (the old ones then stop working)")
                if format == .json {
                    Output.exact("{\"jellyfin\": null, \"plex\": null, \"emby\": null}")
                }
                return
            }
            let tokens = Dictionary(uniqueKeysWithValues: MediaServer.allCases.map { ($0, WebhookToken.random()) })
            try store.replaceWebhookTokens(tokens.mapValues(\.hash), now: global.time.now())
            let base = config.serve.webhookBase
            let urls = MediaServer.allCases.map { ($0, "\(base)/hooks/\($0.rawValue)/\(tokens[$0]!.value)") }
            switch format {
            case .json:
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
                let object = Dictionary(uniqueKeysWithValues: urls.map { ($0.0.rawValue, $0.1) })
                Output.exact(String(decoding: try encoder.encode(object), as: UTF8.self))
            case .text:
                for (server, url) in urls { Output.exact("\(server.rawValue): \(url)") }
                if config.serve.publicURL == nil {
                    Output.note(
                        "these URLs use the listen address (\(config.serve.listen)); set serve.publicURL when the "
                            + "media server reaches the page by another address")
                }
            }
        }
    }
}
