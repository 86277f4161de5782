import Foundation
import Hummingbird
import MustCore

/// `GET /posters/{size}/{file}`: a poster the fetch kept beside the database. Only `w185` and `w342`, only a file
/// name `PosterPath` accepts (letters, digits, "_" and "-", then .jpg, .jpeg, .png or .webp), so no request names
/// anything outside the directory; only a regular file whose bytes are a JPEG, PNG or WebP, served as what its
/// bytes say. Read through `BlockingWork`, never on the event loop. TMDB names a changed poster anew, so an answer
/// may be kept for a year.
struct PosterFiles: Sendable {
    let shelf: PosterShelf

    static let cacheControl = "public, max-age=31536000, immutable"

    func response(size: String, file: String) async throws -> Response {
        guard let size = PosterSize(rawValue: size), PosterPath.isValidFileName(file) else {
            throw PageError.notFound("Posters are at /posters/w185/ and /posters/w342/ and a poster's file name.")
        }
        let path = shelf.folder(size) + "/" + file
        let read = await BlockingWork.run { Self.read(path) }
        guard let bytes = read, let kind = PosterImage(signature: bytes) else {
            throw PageError.notFound("This poster is not kept here (yet): the next fetch downloads it.")
        }
        var buffer = ByteBuffer()
        buffer.writeBytes(bytes)
        return Response(
            status: .ok, headers: [.contentType: kind.contentType, .cacheControl: Self.cacheControl],
            body: .init(byteBuffer: buffer))
    }

    /// The file's bytes: nil unless it is a regular file (a symlink is not followed) of at most 5 MB.
    static func read(_ path: String) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_size > 0,
            info.st_size <= PosterImage.maxBytes
        else { return nil }
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size))
        var filled = 0
        while filled < bytes.count {
            let count = bytes.withUnsafeMutableBytes { raw in
                Foundation.read(fd, raw.baseAddress! + filled, raw.count - filled)
            }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return nil }
            filled += count
        }
        return bytes
    }
}
