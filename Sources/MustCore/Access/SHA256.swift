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
        return digest.map { String(format: "%02x", $0) }.joined()
    }
}
