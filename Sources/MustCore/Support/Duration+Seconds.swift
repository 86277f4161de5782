import Foundation

extension Duration {
    /// The span as a TimeInterval, for logs and reports that count in seconds.
    var seconds: TimeInterval { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
