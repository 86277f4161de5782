import ArgumentParser
import Foundation
import MustCore

struct NotifyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "notify",
        abstract: "Send what waits to the notify destinations, a test message, or tonight's pick now.",
        discussion: """
            The destinations are notify.ntfy, notify.gotify and notify.webhook in the config. Without an option, \
            sends the messages that wait (a fetch sends them too). --test sends one short message to each \
            destination and says what each answered; --tonight sends tonight's pick for the whole family now. \
            Exit codes: 0 when every destination accepted, 75 when one did not (its message waits, except a \
            test's), 78 when no destination is configured.
            """
    )

    @OptionGroup var global: GlobalOptions

    @Flag(help: "Send one short message to each destination and say what each answered.")
    var test = false

    @Flag(help: "Send tonight's pick for the whole family now.")
    var tonight = false

    func validate() throws {
        if test && tonight { throw ValidationError("--test and --tonight are two commands: give one of them") }
    }

    func run() async throws {
        try await reporting {
            let config = try global.loadConfig()
            guard !config.notify.destinations.isEmpty else {
                throw Failure.config(
                    "no notify destination is configured: add notify.ntfy, notify.gotify or notify.webhook to the "
                        + "config file (see docs/notifications.md)")
            }
            let store = try global.openStore(config)
            guard
                let notifier = Notifier.configured(
                    try config.resolvingServices(store), store: store, time: global.time, logger: global.logger)
            else { return }
            let answers: [(String, SendOutcome?)]
            if test {
                var tested: [(String, SendOutcome?)] = []
                for destination in config.notify.destinations {
                    tested.append((destination.name, await notifier.test(destination)))
                }
                answers = tested
            } else {
                var sent: [String: SendOutcome] = [:]
                if tonight {
                    guard let message = try notifier.tonightMessage(now: TimeSource.system.now()) else {
                        throw Failure.usage("the family has no member yet: add one with `mustc add`")
                    }
                    sent = try await notifier.send(message)
                } else {
                    sent = await notifier.deliver()
                }
                answers = config.notify.destinations.map { ($0.name, sent[$0.name]) }
            }
            for (name, outcome) in answers {
                print("\(name): \(TerminalText.cell(outcome.map(String.init(describing:)) ?? "nothing waiting"))")
            }
            if answers.contains(where: { $0.1.map { !$0.accepted } ?? false }) { throw ExitCode(75) }
        }
    }
}
