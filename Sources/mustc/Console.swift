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

    /// A line of standard input; a captured command's is the input its test gave (none unless it gave some).
    static func readLine(strippingNewline: Bool = true) -> String? {
        guard let captured else { return Swift.readLine(strippingNewline: strippingNewline) }
        return captured.readLine(strippingNewline: strippingNewline)
    }

    /// All of standard input; for a captured command, what is left of its test's input.
    static func readToEnd() -> Data {
        captured?.readToEnd() ?? FileHandle.standardInput.readDataToEndOfFile()
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

/// One command's output, input and environment, when it runs inside a test's process.
final class CapturedConsole: Sendable {
    let environment: [String: String]
    private let bytes = Mutex<(output: Data, error: Data)>((Data(), Data()))
    /// Standard input not yet read.
    private let input: Mutex<Data>

    init(environment: [String: String], input: Data = Data()) {
        self.environment = environment
        self.input = Mutex(input)
    }

    /// The next line, as Swift's `readLine` reads it from a pipe: nil at the end, "\n" or "\r\n" stripped on request.
    func readLine(strippingNewline: Bool) -> String? {
        input.withLock { input -> String? in
            guard !input.isEmpty else { return nil }
            let end = input.firstIndex(of: UInt8(ascii: "\n")).map { input.index(after: $0) } ?? input.endIndex
            var line = Data(input[input.startIndex..<end])
            input = Data(input[end...])
            if strippingNewline, line.last == UInt8(ascii: "\n") {
                line.removeLast()
                if line.last == UInt8(ascii: "\r") { line.removeLast() }
            }
            return String(decoding: line, as: UTF8.self)
        }
    }

    func readToEnd() -> Data {
        input.withLock { input in
            defer { input = Data() }
            return input
        }
    }

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
