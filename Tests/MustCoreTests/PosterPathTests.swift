import Foundation
import MustCore
import Testing

/// `poster_path` as TMDB's answers carry it, and as a hostile or broken answer might.
@Suite struct PosterPathTests {
    @Test(arguments: [
        "/kqjL17yufvn9OVLyXYpvtyrFfak.jpg", "/a.jpeg", "/A-b_9.png", "/x.webp",
    ])
    func acceptsTMDBsShape(_ path: String) {
        #expect(PosterPath.isValid(path))
        #expect(PosterPath.fileName(path) == String(path.dropFirst()))
    }

    @Test(arguments: [
        "/../../etc/passwd", "http://elsewhere/x.jpg", "/x.svg", "x.jpg", "/", "/.jpg", "/a/b.jpg", "/a.b.jpg",
        "/a.JPG", "/a.jpg?x=1", "/a.jpg\n", "/a b.jpg", "/é.jpg", "//x.jpg", "/a.jpg/", "/%2e%2e.jpg", "",
        "/" + String(repeating: "a", count: 200) + ".jpg",
    ])
    func refusesEverythingElse(_ path: String) {
        #expect(!PosterPath.isValid(path))
    }

    private func decoded(_ poster: String) throws -> RemoteMovie {
        try JSONDecoder().decode(
            RemoteMovie.self,
            from: Data(#"{"id": 7, "title": "X", "vote_average": 7.5, "poster_path": \#(poster)}"#.utf8))
    }

    @Test func aGoodPathIsKept() throws {
        let movie = try decoded(#""/abc.jpg""#)
        #expect(movie.posterPath == "/abc.jpg" && !movie.posterPathMalformed)
    }

    @Test func noPosterIsNoProblem() throws {
        for poster in ["null", #""""#] {
            let movie = try decoded(poster)
            #expect(movie.posterPath == nil && !movie.posterPathMalformed)
        }
        let absent = try JSONDecoder().decode(RemoteMovie.self, from: Data(#"{"id": 7}"#.utf8))
        #expect(absent.posterPath == nil && !absent.posterPathMalformed)
    }

    /// A refused path never sinks the answer: the figures beside it are kept, and the path is flagged.
    @Test(arguments: [
        #""/../../etc/passwd""#, #""http://elsewhere/x.jpg""#, #""/x.svg""#, "42", "[]", "{}", "true",
    ])
    func aRefusedPathIsFlaggedAndTheFiguresKept(_ poster: String) throws {
        let movie = try decoded(poster)
        #expect(movie.posterPath == nil && movie.posterPathMalformed)
        #expect(movie.voteAverage == 7.5)
    }

    @Test func theShelfNamesFilesOnlyForValidPaths() {
        let shelf = PosterShelf(databasePath: "/data/mustc.sqlite")
        #expect(shelf.directory == "/data/mustc.sqlite.posters")
        #expect(shelf.file("/abc.jpg", size: .w185) == "/data/mustc.sqlite.posters/w185/abc.jpg")
        #expect(shelf.file("/../x.jpg", size: .w342) == nil)
        #expect(!shelf.has("/abc.jpg", size: .w185))
    }
}
