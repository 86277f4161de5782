import Foundation
import HTTPTypes
import HummingbirdTesting
import MustCore
import NIOCore
import TMDBStub
import Testing

@testable import MustWeb

/// `GET /posters/…` in-process over a real posters directory beside a real database: the right type and a year's
/// caching for a kept poster; 404 for any other size or name, a file that is not an image, and a link out.
@Suite struct WebPosterTests {
    @Test func theServerAnswersOnlyKeptPostersInsideTheDirectory() async throws {
        let family = try WebFamily()
        for (id, title) in [(194, "Amélie"), (129, "Spirited Away")] {
            try family.keep(
                "Ann",
                RemoteMovie(id: id, title: title, voteAverage: 7.9, voteCount: 10, posterPath: "/poster\(id).png"))
        }
        let shelf = PosterShelf(databasePath: family.store.path)
        for size in PosterSize.allCases {
            try FileManager.default.createDirectory(atPath: shelf.folder(size), withIntermediateDirectories: true)
        }
        // Amélie's poster is kept at both sizes; Spirited Away's not yet. Not posters: an HTML file under a
        // poster's name, and a link to the database.
        for size in [PosterSize.w185, .w342] {
            try StubPoster.png(id: 194, width: size.width).write(
                to: URL(fileURLWithPath: shelf.folder(size) + "/poster194.png"))
        }
        try Data("<html>".utf8).write(to: URL(fileURLWithPath: shelf.folder(.w185) + "/fake.jpg"))
        try FileManager.default.createSymbolicLink(
            atPath: shelf.folder(.w185) + "/link.png", withDestinationPath: family.store.path)

        try await family.test { client in
            let poster = try await client.get("/posters/w185/poster194.png")
            #expect(poster.status == .ok && poster.headers[.contentType] == "image/png")
            #expect(poster.headers[.cacheControl] == "public, max-age=31536000, immutable")
            #expect(poster.headers[.contentSecurityPolicy]?.contains("img-src 'self'") == true)
            #expect(poster.headers[.eTag] == nil, "the database's validator is not a poster's")
            #expect(Data(buffer: poster.body) == StubPoster.png(id: 194, width: 185))
            for path in [
                "/posters/w500/poster194.png", "/posters/original/poster194.png", "/posters/w185/poster999.png",
                "/posters/w185/poster129.png", "/posters/w185/fake.jpg", "/posters/w185/link.png",
                "/posters/w185/..%2F..%2Fmustc.sqlite", "/posters/w185/%2e%2e", "/posters/w185/x.svg",
                "/posters/../mustc.sqlite", "/posters/w185/", "/posters/w185/.partial-poster194.png-x",
            ] {
                let answer = try await client.get(path)
                #expect(answer.status == .notFound, "\(path): \(answer.status)")
                #expect(!answer.text.hasPrefix("SQLite"))
            }
            // The pages name only the kept poster, from this server; the other movie gets its placeholder.
            let page = try await client.get("/members/Ann")
            #expect(!page.text.contains("image.tmdb.org") && !page.text.contains("/t/p/"))
            #expect(page.text.contains(#"src="/posters/w185/poster194.png""#), "\(page.text)")
            #expect(!page.text.contains("poster129"))
        }
    }
}

extension Data {
    fileprivate init(buffer: ByteBuffer) {
        self.init(buffer.readableBytesView)
    }
}
