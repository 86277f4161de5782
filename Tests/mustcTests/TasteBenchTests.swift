import Foundation
import Testing

/// `taste-bench` on an export as IMDb writes it: Windows-1252, with rated series and episodes beside the movies.
/// The benchmark must read it as `mustc import` does, not stop on its first accented title.
struct TasteBenchTests {
    @Test func anIMDbExportInWindows1252WithEpisodesIsReadAsImportReadsIt() async throws {
        var bench = MustcBinary()
        bench.executable = MustcBinary.url.deletingLastPathComponent().appending(path: "taste-bench")
        var text =
            "Const,Your Rating,Date Rated,Title,Original Title,URL,Title Type,IMDb Rating,Runtime (mins),Year,"
            + "Genres,Num Votes,Release Date,Directors\r\n"
        let genres = ["Drama", "Comedy", "Romance, Comedy", "Thriller, Drama"]
        for index in 0..<40 {
            let title = index % 3 == 0 ? "Amélie \(index)" : "Movie, \(index)"
            text +=
                "tt\(1_000_000 + index),\(index % 10 + 1),2024-01-01,\"\(title)\",,,\(index % 2 == 0 ? "Movie" : "movie"),"
                + "\(Double(index % 5) + 5.5),100,2001,\"\(genres[index % 4])\",\(1000 + index),2001-01-01,\r\n"
        }
        for (index, type) in ["TV Series", "TV Episode", "tvEpisode", "TV Mini Series"].enumerated() {
            text += "tt\(2_000_000 + index),9,2024-01-01,Café Show \(index),,,\(type),8.0,45,2019,Drama,500,,\r\n"
        }
        let path = bench.home.file("ratings.csv")
        let bytes = try #require(text.data(using: .windowsCP1252))
        #expect(String(data: bytes, encoding: .utf8) == nil, "the file is not UTF-8")
        try bytes.write(to: URL(fileURLWithPath: path))
        let outcome = try await bench.run([path])
        #expect(outcome.status == 0, "\(outcome.all)")
        #expect(outcome.stdout.contains("people: 1, rated movies: 40"), "\(outcome.all)")
        #expect(outcome.stdout.contains("40 movies (read as windows-1252); left out 4 series, episodes"))
        // Each export gets its line of the three ways' figures, on both bases.
        #expect(outcome.stdout.contains("public rho/MAE   offset rho/MAE   taste rho/MAE"), "\(outcome.stdout)")
        #expect(outcome.stdout.components(separatedBy: "\nratings.csv ").count == 3, "\(outcome.stdout)")
    }
}
