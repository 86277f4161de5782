import Foundation
import Testing

@testable import MustCore

/// The CSV record reader (line numbers, recovery from a stray quote) and the list layouts, on small files.
struct ImportReaderTests {
    func records(_ text: String, expected: Int? = nil) throws -> [CSVRecord] {
        try records(Data(text.utf8), expected: expected)
    }

    func records(_ data: Data, expected: Int? = nil) throws -> [CSVRecord] {
        let path = FileManager.default.temporaryDirectory.appending(path: "reader-\(UUID().uuidString).csv").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try data.write(to: URL(fileURLWithPath: path))
        let reader = try CSVRecordReader(path: path)
        reader.expectedFields = expected
        var result: [CSVRecord] = []
        while let record = try reader.next() { result.append(record) }
        #expect(reader.position == data.count, "the records reach the end of the file")
        return result
    }

    @Test func bomCRLFAndQuotedCommasQuotesAndLineBreaks() throws {
        let text = "\u{FEFF}a,b\r\n\"x, y\",\"say \"\"hi\"\"\"\r\n\r\n\"one\r\ntwo\",3\r\nlast,4"
        #expect(
            try records(text, expected: 2) == [
                .fields(["a", "b"], line: 1), .fields(["x, y", "say \"hi\""], line: 2),
                .fields(["one\ntwo", "3"], line: 4), .fields(["last", "4"], line: 6),
            ])
    }

    @Test func aStrayQuoteCostsOneRowWhetherOrNotAnotherQuoteFollows() throws {
        let runaway = "h1,h2\n\"open,1\nnext,2\n\"ok\",3\n"
        #expect(
            try records(runaway, expected: 2) == [
                .fields(["h1", "h2"], line: 1), .malformed(line: 2, reason: "an unbalanced quote: \"\"open,1\""),
                .fields(["next", "2"], line: 3), .fields(["ok", "3"], line: 4),
            ])
        let atTheEnd = "h1,h2\nfine,1\n\"open,2\nafter,3\n"
        #expect(
            try records(atTheEnd, expected: 2) == [
                .fields(["h1", "h2"], line: 1), .fields(["fine", "1"], line: 2),
                .malformed(line: 3, reason: "an unbalanced quote: \"\"open,2\""), .fields(["after", "3"], line: 4),
            ])
    }

    @Test func aQuoteInsideAnUnquotedFieldOpensNothing() throws {
        let text = "a,b,c\n1,The 12\" Single,2001\n2,Another 7\" Single,2002\n3,\"Fine, quoted\",2003\n"
        #expect(
            try records(text, expected: 3) == [
                .fields(["a", "b", "c"], line: 1), .fields(["1", "The 12\" Single", "2001"], line: 2),
                .fields(["2", "Another 7\" Single", "2002"], line: 3), .fields(["3", "Fine, quoted", "2003"], line: 4),
            ])
    }

    @Test func detectsEachFormatFromItsHeaderAndNamesMissingColumns() throws {
        let letterboxd = try ImportLayout.detect(
            ["Date", "Name", "Year", "Letterboxd URI"], format: nil, fileName: "watchlist.csv")
        #expect(letterboxd.format == .letterboxd)
        let imdb = try ImportLayout.detect(["Position", "Const", "Created", "Title", "Title Type"], format: nil)
        #expect(imdb.format == .imdb)
        let csv = try ImportLayout.detect(["member", "title", "year", "tmdbId", "imdbId"], format: nil)
        #expect(csv.format == .csv)
        #expect(throws: ImportHeaderProblem.unknown(["a"])) { try ImportLayout.detect(["a"], format: nil) }
        #expect(throws: ImportHeaderProblem.missing(.imdb, ["Const", "Title"])) {
            try ImportLayout.detect(["Date", "Name", "Year"], format: .imdb)
        }
    }

    /// Every format is listed with what tells it; detection takes the first that claims a header, in that order.
    @Test func formatsListWhatTellsThemApartInTheOrderDetectionTriesThem() {
        #expect(ImportFormat.allCases == [.netflix, .imdb, .letterboxd, .csv, .trakt])
        #expect(ImportFormat.allCases.filter { $0.container == .jsonArray } == [.trakt])
        let headers: [([String], ImportFormat?)] = [
            (["Title", "Date"], .netflix), (["Title", "Date", ""], .netflix),
            (["Profile Name", "Start Time", "Duration", "Title"], .netflix),
            (["Title", "Date", "year"], .csv), (["Const", "Title", "Name", "Year"], .imdb),
            ([" name ", "YEAR"], .letterboxd), (["title"], .csv), (["a"], nil), ([], nil),
        ]
        for (header, format) in headers { #expect(ImportFormat.detect(header: header) == format, "\(header)") }
        #expect(ImportFormat.zipEntryNames.count == 7)
        #expect(ImportFormat.zipEntry("Watchlist.csv")! == (.letterboxd, 0))
        #expect(ImportFormat.zipEntry("ratings.csv")! == (.letterboxd, 3))
        #expect(ImportFormat.zipEntry("lists-watchlist.json")! == (.trakt, 4))
        #expect(ImportFormat.zipEntry("ratings-movies.json")! == (.trakt, 6))
        #expect(ImportFormat.zipEntry("profile.csv") == nil)
        // A Netflix history names no columns `ImportLayout` reads: alone, it is the mustc CSV its `Title` makes it.
        #expect((try? ImportLayout.detect(["Title", "Date"], format: nil))?.format == .csv)
    }

    @Test func rowsBecomeEntriesSkipsOrProblems() throws {
        let today = WatchDay.of(testStart)
        let imdb = try ImportLayout.detect(["Const", "Title", "Title Type", "Year"], format: nil)
        let dune = ImportRow.movie(ImportEntry(title: "Dune", year: 1984, imdbId: "tt0087182"))
        let types = [
            "movie", "Movie", "tvMovie", "TV Movie", "Feature Film", "Video", "video", "Documentary", "short", "",
        ]
        for type in types {
            #expect(imdb.row(["tt0087182", "Dune", type, "1984"], member: "Ann", today: today) == dune, "\(type)")
        }
        let series = imdb.row(["tt0903747", "Breaking Bad", "TV Series", "2008"], member: "Ann", today: today)
        #expect(series == .skipped("a TV Series, not a movie"))
        for type in ["TV Episode", "tvEpisode", "Mini-Series", "tvMiniSeries", "Video Game", "videoGame", "tvSpecial"] {
            #expect(
                imdb.row(["tt1", "X", type, ""], member: "Ann", today: today) == .skipped("a \(type), not a movie"))
        }
        let badConst = imdb.row(["123", "X", "movie", ""], member: "Ann", today: today)
        #expect(badConst == .invalid("\"123\" is not an IMDb id (tt and digits)"))

        let csv = try ImportLayout.detect(["member", "title", "year", "tmdbId"], format: nil)
        let up = ImportRow.movie(ImportEntry(title: "Up", year: 2009, tmdbId: 14160))
        #expect(csv.row(["ANN", "Up", "2009", "14160"], member: "ann", today: today) == up)
        #expect(csv.row(["", "Up", "2009", "14160"], member: "Bob", today: today) == up, "no member: the command's")
        #expect(
            csv.row(["Bob", "Up", "2009", "14160"], member: "Ann", today: today) == .skipped("Bob's row, not Ann's"))
        let early = csv.row(["", "Up", "1800", ""], member: "Ann", today: today)
        #expect(early == .invalid("the year \"1800\" is not a year between 1870 and 2100"))
        #expect(csv.row(["", "Up", "", "x1"], member: "Ann", today: today) == .invalid("\"x1\" is not a TMDB id"))
        guard case .invalid = csv.row(["", " ", "", ""], member: "Ann", today: today) else {
            Issue.record("an empty title is invalid")
            return
        }
    }

    /// Hands out its bytes `step` at a time, as a pipe may.
    final class Trickle: ByteSource {
        var bytes: [UInt8]
        let step: Int
        init(_ bytes: [UInt8], step: Int) {
            self.bytes = bytes
            self.step = step
        }
        func read(upTo count: Int) throws -> [UInt8] {
            let taken = Array(bytes.prefix(min(step, count)))
            bytes.removeFirst(taken.count)
            return taken
        }
    }

    func trickled(_ bytes: [UInt8], step: Int, encoding: ListEncoding? = nil) throws -> ([CSVRecord], ListEncoding) {
        let reader = CSVRecordReader(source: Trickle(bytes, step: step), size: nil, encoding: encoding)
        var result: [CSVRecord] = []
        while let record = try reader.next() { result.append(record) }
        return (result, reader.encoding)
    }

    @Test func recordsAreTheSameWhateverTheReadsSizes() throws {
        let text = "\u{FEFF}Name,Year\r\n\"Am\u{E9}lie, \"\"le\"\"\",2001\r\n\"two\r\nlines\",3\rcr only,4\nlast,5"
        let expected: [CSVRecord] = [
            .fields(["Name", "Year"], line: 1), .fields(["Am\u{E9}lie, \"le\"", "2001"], line: 2),
            .fields(["two\nlines", "3"], line: 3), .fields(["cr only", "4"], line: 5), .fields(["last", "5"], line: 6),
        ]
        let utf16: [UInt8] = [0xFE, 0xFF] + text.dropFirst().utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        for step in [1, 2, 3, 7, 1 << 16] {
            #expect(try trickled(Array(text.utf8), step: step) == (expected, .utf8), "UTF-8, \(step)")
            #expect(try trickled(utf16, step: step) == (expected, .utf16), "UTF-16 BE, \(step)")
        }
        let latin1 = Array("Name,Year\nAm".utf8) + [0xE9] + Array("lie \u{80}\u{9F},2001\n".utf8).filter { $0 != 0xC2 }
        #expect(
            try trickled(latin1, step: 5) == (
                [.fields(["Name", "Year"], line: 1), .fields(["Amélie €Ÿ", "2001"], line: 2)], .windows1252
            ))
    }

    @Test func aLoneSurrogateInUTF16IsAnInvalidRowNotAReplacementCharacter() throws {
        let units: [UInt16] = Array("a,b\nx".utf16) + [0xD800] + Array("y,1\nok,2\n".utf16)
        let bytes: [UInt8] = [0xFF, 0xFE] + units.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        let (records, encoding) = try trickled(bytes, step: 3)
        #expect(encoding == .utf16 && records.count == 3 && records[2] == .fields(["ok", "2"], line: 3))
        guard case .malformed(2, let reason) = records[1] else {
            Issue.record("\(records)")
            return
        }
        #expect(reason.hasPrefix("it is not valid UTF-16"))
    }

    @Test func aRecordPastTheBoundIsInvalidAndTheNextOneReads() throws {
        let long = "\u{1B}" + String(repeating: "x", count: 80_000)
        let text = "a,b\n\(long),1\n\"open\n\(long)\",2\nnext,3\n"
        let (records, _) = try trickled(Array(text.utf8), step: 1000)
        #expect(records.count == 5)
        guard case .malformed(2, let reason) = records[1], case .malformed(3, let open) = records[2] else {
            Issue.record("\(records.prefix(3))")
            return
        }
        #expect(reason.hasPrefix("it is longer than 64 KB: \"\\u001Bxxx") && reason.count < 120, "\(reason)")
        #expect(open.hasPrefix("an unbalanced quote"))
        #expect(records[4] == .fields(["next", "3"], line: 5))
        // Read whole in one go, a line past the bound is just as invalid.
        let whole = "a,b\n" + String(repeating: "y", count: 70_000) + ",1\nok,2\n"
        let (wholeRecords, _) = try trickled(Array(whole.utf8), step: 1 << 20)
        #expect(wholeRecords.count == 3 && wholeRecords[2] == .fields(["ok", "2"], line: 3))
        guard case .malformed(2, _) = wholeRecords[1] else {
            Issue.record("\(wholeRecords[1])")
            return
        }
    }

    @Test func encodingsAreToldFromTheFirstBytes() {
        func detect(_ bytes: [UInt8], _ forced: ListEncoding? = nil) -> ListEncoding.Detected {
            ListEncoding.detect(bytes, forced: forced)
        }
        #expect(detect(Array("Name,Year\n".utf8)) == .bytes(bom: 0))
        #expect(detect([0xEF, 0xBB, 0xBF] + Array("Name".utf8)) == .bytes(bom: 3))
        #expect(detect([0xFF, 0xFE, 0x4E, 0x00]) == .utf16(bigEndian: false, bom: 2))
        #expect(detect([0xFE, 0xFF, 0x00, 0x4E]) == .utf16(bigEndian: true, bom: 2))
        #expect(detect(Array("N\0a\0m\0e\0".utf8)) == .utf16(bigEndian: false, bom: 0))
        #expect(detect(Array("\0N\0a\0m\0e".utf8)) == .utf16(bigEndian: true, bom: 0))
        #expect(detect(Array("Name".utf8), .utf16) == .utf16(bigEndian: false, bom: 0))
        #expect(detect(Array("a\0b".utf8)) == .binary, "a zero byte, but too little to be UTF-16")
        #expect(detect([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10, 0x4A, 0x46, 0x49, 0x46, 0x00, 0x01]) == .binary)
        #expect(detect(Array(repeating: 0x1B, count: 20) + Array("Name".utf8)) == .binary)
    }
}
