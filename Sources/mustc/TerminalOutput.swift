import Foundation
import Logging
import MustCore

/// Every `print` in this module is text for a person: it goes through `TerminalText`, so a title that TMDB, an
/// imported file or a user wrote cannot send control characters to the terminal. This shadows Swift's `print` on
/// purpose, so a new command cannot forget it. Data formats (JSON, CSV), which must keep the exact text, are written
/// with `Output.exact` instead.
func print(_ items: Any..., separator: String = " ", terminator: String = "\n") {
    Console.print(TerminalText.visible(items.map { "\($0)" }.joined(separator: separator)), terminator: terminator)
}

extension Output {
    /// Whether standard output is a terminal: CSV printed there has its fields made visible as a table's cells
    /// are; CSV written to a file or a pipe keeps the exact text.
    static var isTerminal: Bool { Console.isTerminal(STDOUT_FILENO) }

    /// JSON and CSV: the exact text (JSON escapes control characters; CSV must round-trip).
    static func exact(_ text: String, terminator: String = "\n") {
        Console.print(text, terminator: terminator)
    }

    /// Standard output in the chosen format: JSON and CSV exactly, a table made terminal-safe.
    static func report(_ text: String, _ format: ReportFormat, terminator: String = "\n") {
        if format == .table { print(text, terminator: terminator) } else { exact(text, terminator: terminator) }
    }
}

/// The log's plain-text lines, made terminal-safe like everything else printed: a log message can quote a title.
struct TerminalSafeLogHandler: LogHandler {
    var wrapped: any LogHandler

    var logLevel: Logger.Level {
        get { wrapped.logLevel }
        set { wrapped.logLevel = newValue }
    }

    var metadata: Logger.Metadata {
        get { wrapped.metadata }
        set { wrapped.metadata = newValue }
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { wrapped[metadataKey: key] }
        set { wrapped[metadataKey: key] = newValue }
    }

    func log(event: LogEvent) {
        var event = event
        event.message = "\(TerminalText.visible(event.message.description))"
        event.metadata = event.metadata?.mapValues { .string(TerminalText.visible($0.description)) }
        wrapped.log(event: event)
    }
}

/// A title or name in double quotes for a sentence, unless it already comes quoted: a TMDB title such as
/// `"Civil War Minutes-Confederate"` printed as `""Civil War Minutes-Confederate""`. A line break or tab in it shows
/// as `\n` or `\t` (`TerminalText.cell`), so an echo of what was typed stays on its message's line.
func quoted(_ text: String) -> String {
    let text = TerminalText.cell(text)
    return text.count >= 2 && text.hasPrefix("\"") && text.hasSuffix("\"") ? text : "\"" + text + "\""
}
