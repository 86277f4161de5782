import Dispatch
import Foundation

/// Turns SIGINT and SIGTERM into task cancellation, so a fetch stops cleanly: in-flight writes finish or roll
/// back, and the process exits normally.
final class Signals {
    private let sources: [any DispatchSourceSignal]

    init(onSignal: @escaping @Sendable (Int32) -> Void) {
        sources = [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { onSignal(number) }
            source.resume()
            return source
        }
    }

    deinit { sources.forEach { $0.cancel() } }
}
