import Foundation
import MustCore
import TMDBStub
import Testing

/// The posters directory for real: atomic files, signatures, and the bound's order of removal.
@Suite struct PosterShelfTests {
    let scratch = TemporaryDirectory("posters")
    var shelf: PosterShelf { PosterShelf(databasePath: scratch.file("mustc.sqlite")) }

    static let png = [UInt8](StubPoster.png(id: 7, width: 185))

    @Test func signaturesAndWholeFiles() {
        #expect(PosterImage(signature: Self.png) == .png && PosterImage.png.isComplete(Self.png))
        #expect(!PosterImage.png.isComplete(Array(Self.png.dropLast(20))))
        let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 1, 2, 3, 0xFF, 0xD9]
        #expect(PosterImage(signature: jpeg) == .jpeg && PosterImage.jpeg.isComplete(jpeg))
        #expect(!PosterImage.jpeg.isComplete(Array(jpeg.dropLast(2))))
        let webp = Array("RIFF".utf8) + [8, 0, 0, 0] + Array("WEBPVP8 ".utf8)
        #expect(PosterImage(signature: webp) == .webp && PosterImage.webp.isComplete(webp))
        for other in ["<!DOCTYPE html>", "<svg xmlns=", "GIF89a......", ""] {
            #expect(PosterImage(signature: Array(other.utf8)) == nil, "\(other)")
        }
    }

    @Test func aStoredPosterIsWholeAndNothingElseIsLeft() throws {
        try shelf.store(Self.png, as: "/abc.png", size: .w185)
        #expect(shelf.has("/abc.png", size: .w185) && !shelf.has("/abc.png", size: .w342))
        let file = try #require(shelf.file("/abc.png", size: .w185))
        #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == Data(Self.png))
        #expect(try FileManager.default.contentsOfDirectory(atPath: shelf.folder(.w185)) == ["abc.png"])
        let mode = try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int
        #expect(mode == 0o644, "a serve running as another user reads it")
        #expect(throws: PosterWriteError.self) { try shelf.store(Self.png, as: "/../x.png", size: .w185) }
    }

    /// What a kill -9 mid-download leaves: a `.partial-` file, never served (not a poster name) and removed by
    /// the next prune.
    @Test func aKilledDownloadsLeftoverGoesAtTheNextPrune() throws {
        try shelf.store(Self.png, as: "/abc.png", size: .w342)
        let leftover = shelf.folder(.w342) + "/.partial-def.png-1x2y"
        _ = FileManager.default.createFile(atPath: leftover, contents: Data(Self.png.prefix(100)))
        #expect(!PosterPath.isValidFileName(".partial-def.png-1x2y"))
        let pruned = shelf.prune(maxBytes: 1 << 30, inUse: ["/abc.png"])
        #expect(pruned.removed == 0 && pruned.bytes == Int64(Self.png.count))
        #expect(!FileManager.default.fileExists(atPath: leftover))
    }

    /// Over the bound, unused posters go first, then the least recently shown; both sizes go together.
    @Test func theBoundRemovesUnusedThenLeastRecentlyShown() throws {
        let names = ["/unused.png", "/old.png", "/recent.png", "/middle.png"]
        for name in names {
            for size in PosterSize.allCases { try shelf.store(Self.png, as: name, size: size) }
        }
        // "Shown" is the files' access time, as the kernel sets it when serve reads them.
        for (name, shown) in [
            ("/unused.png", 4000.0), ("/old.png", 1000), ("/recent.png", 3000), ("/middle.png", 2000),
        ] {
            for size in PosterSize.allCases {
                let file = try #require(shelf.file(name, size: size))
                var times = [timespec(tv_sec: Int(shown), tv_nsec: 0), timespec(tv_sec: Int(shown), tv_nsec: 0)]
                #expect(utimensat(AT_FDCWD, file, &times, 0) == 0)
            }
        }
        let each = Int64(Self.png.count * 2)
        let pruned = shelf.prune(maxBytes: each * 2, inUse: ["/old.png", "/recent.png", "/middle.png"])
        #expect(pruned.removed == 2 && pruned.bytes == each * 2)
        let kept = names.filter { shelf.has($0, size: .w185) || shelf.has($0, size: .w342) }
        #expect(kept == ["/recent.png", "/middle.png"])
        #expect(shelf.prune(maxBytes: 0, inUse: []).bytes == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: shelf.folder(.w185)).isEmpty)
    }
}
