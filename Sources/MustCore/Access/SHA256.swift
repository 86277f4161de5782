import CLibCrypto
import Foundation

/// SHA-256 from the system's libcrypto, for values that are already random (session tokens): stored and
/// compared only as their digest, so a copy of the database opens no session.
enum SHA256Digest {
    static func hex(_ text: String) -> String {
        let bytes = Array(text.utf8)
        var digest = [UInt8](repeating: 0, count: Int(SHA256_DIGEST_LENGTH))
        bytes.withUnsafeBufferPointer { input in
            _ = CLibCrypto.SHA256(input.baseAddress, input.count, &digest)
        }
        // Not `String(format: "%02x")` a byte: that was 7.5 % of serve's CPU answering webhooks (perf on
        // contrib/benchmarks/hooks, release build, 2026-11-27), each event's token being hashed to be checked.
        var text = [UInt8]()
        text.reserveCapacity(digest.count * 2)
        for byte in digest {
            text.append(hexDigits[Int(byte >> 4)])
            text.append(hexDigits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)
}
