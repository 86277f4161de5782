import Foundation
import MultipartKit
import MustCore
import NIOCore

/// The JSON inside a webhook's body, by its content type: Plex's `multipart/form-data` (the `payload` part; a
/// `thumb` JPEG part may come with it and is skipped), Emby's form (`data=`) or plain JSON, Jellyfin's JSON.
enum MediaServerBody {
    static func payload(contentType: String?, body: ByteBuffer) throws(MediaEventError) -> Data {
        let type = (contentType ?? "").split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased()
        switch type {
        case "multipart/form-data":
            return try multipartPayload(contentType: contentType ?? "", body: body)
        case "application/x-www-form-urlencoded":
            return try formPayload(body)
        default:
            return Data(buffer: body)
        }
    }

    /// The `payload` part (Plex), or the `data` part (Emby can post a form too), through MultipartKit's parser.
    private static func multipartPayload(contentType: String, body: ByteBuffer) throws(MediaEventError) -> Data {
        guard let boundary = parameter("boundary", in: contentType) else {
            throw MediaEventError("the multipart body has no boundary in its Content-Type")
        }
        let parser = MultipartParser(boundary: boundary)
        var name: String?
        var current = ByteBuffer()
        var found: [String: ByteBuffer] = [:]
        parser.onHeader = { field, value in
            if field.lowercased() == "content-disposition" { name = parameter("name", in: value) }
        }
        parser.onBody = { chunk in
            // Only the parts read are kept: a thumbnail's bytes are dropped as they come.
            if name == "payload" || name == "data" { current.writeBuffer(&chunk) }
        }
        parser.onPartComplete = {
            if let part = name, part == "payload" || part == "data" { found[part] = current }
            (name, current) = (nil, ByteBuffer())
        }
        do {
            try parser.execute(body)
        } catch {
            throw MediaEventError("the multipart body is malformed")
        }
        guard let part = found["payload"] ?? found["data"] else {
            throw MediaEventError("the multipart body has no payload part")
        }
        return Data(buffer: part)
    }

    /// Emby's form: the JSON in the field `data`. Split by hand: Foundation's `URLComponents` may stop the process
    /// on a malformed percent-escape, and a body is anyone's.
    private static func formPayload(_ body: ByteBuffer) throws(MediaEventError) -> Data {
        for pair in String(buffer: body).split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2, parts[0] == "data" else { continue }
            guard let value = parts[1].replacingOccurrences(of: "+", with: " ").removingPercentEncoding else {
                throw MediaEventError("the form's data field is malformed")
            }
            return Data(value.utf8)
        }
        throw MediaEventError("the form has no data field")
    }

    /// `boundary=abc` or `name="payload"` in a header's parameters.
    static func parameter(_ key: String, in header: String) -> String? {
        for part in header.split(separator: ";").dropFirst() {
            let pair = part.split(separator: "=", maxSplits: 1)
            guard pair.count == 2, pair[0].trimmingCharacters(in: .whitespaces).lowercased() == key else { continue }
            var value = pair[1].trimmingCharacters(in: .whitespaces)
            if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 {
                value = String(value.dropFirst().dropLast())
            }
            return value.isEmpty ? nil : value
        }
        return nil
    }
}
