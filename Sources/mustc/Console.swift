import Foundation
import Logging
import Synchronization

/// Where a command writes and what it reads of its process: the process's own standard output, error and input and
/// its environment. A test that runs a command inside its own process (`Mustc.outcome(of:)`) binds `captured`
/// instead, task-locally, so commands running side by side each keep their own bytes and environment.
enum Console {
    /// Nil in the binary: everything goes to the process's own descriptors, exactly as before.
    @TaskLocal static var captured: CapturedConsole?

    enum Stream { case output, error }

    /// Bytes as they are, unbuffered.
    static func write(_ data: Data, to stream: Stream) {
        if let captured { return captured.append(data, to: stream) }
        (stream == .output ? FileHandle.standardOutput : FileHandle.standardError).write(data)
    }

    /// Text on standard output through Swift's buffered `print`.
    static func print(_ text: String, terminator: String) {
        if let captured { return captured.append(Data((text + terminator).utf8), to: .output) }
        Swift.print(text, terminator: terminator)
    }

    /// A line of standard input; a captured command has an empty one, as the binary has under the tests.
    static func readLine(strippingNewline: Bool = true) -> String? {
        captured == nil ? Swift.readLine(strippingNewline: strippingNewline) : nil
    }

    /// All of standard input; empty for a captured command.
    static func readToEnd() -> Data {
        captured == nil ? FileHandle.standardInput.readDataToEndOfFile() : Data()
    }

    /// Whether the descriptor is a terminal; a captured command's never is.
    static func isTerminal(_ descriptor: Int32) -> Bool {
        captured == nil && isatty(descriptor) == 1
    }

    static var environment: [String: String] { captured?.environment ?? ProcessInfo.processInfo.environment }

    /// The log's stream handler: standard error, or the captured error bytes.
    static func logHandler(label: String) -> any LogHandler {
        guard let captured else { return StreamLogHandler.standardError(label: label) }
        return CapturedLogHandler(label: label, console: captured)
    }
}

/// One command's output and environment, when it runs inside a test's process.
final class CapturedConsole: Sendable {
    let environment: [String: String]
    private let bytes = Mutex<(output: Data, error: Data)>((Data(), Data()))

    init(environment: [String: String]) { self.environment = environment }

    func append(_ data: Data, to stream: Console.Stream) {
        bytes.withLock { bytes in
            if stream == .output { bytes.output.append(data) } else { bytes.error.append(data) }
        }
    }

    var output: Data { bytes.withLock { $0.output } }
    var error: Data { bytes.withLock { $0.error } }
}

/// A log line as the stream handler writes it, without the time, into a captured command's error bytes.
struct CapturedLogHandler: LogHandler {
    let label: String
    let console: CapturedConsole
    var logLevel: Logger.Level = .info
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let merged = metadata.merging(event.metadata ?? [:]) { $1 }
        let fields = merged.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        let shown = fields.isEmpty ? "" : " \(fields)"
        console.append(Data("\(event.level) \(label) :\(shown) [\(event.source)] \(event.message)\n".utf8), to: .error)
    }
}
