import Foundation

/// Bytes made for output, handed to `emit` in chunks of about `chunkSize` as they are made, so a large report
/// never sits in memory whole; without `emit` they are kept for `text`.
struct ChunkedOutput {
    private(set) var bytes: [UInt8] = []
    private let chunkSize: Int
    private let emit: ((UnsafeRawBufferPointer) -> Void)?
    /// CSV text fields are made visible as a table's cells are (`TerminalText.cell`): CSV printed to a terminal.
    var forTerminal = false

    init(capacity: Int) {
        bytes.reserveCapacity(capacity)
        chunkSize = .max
        emit = nil
    }

    init(chunkSize: Int = 64 << 10, emit: @escaping (UnsafeRawBufferPointer) -> Void) {
        bytes.reserveCapacity(chunkSize + 4096)
        self.chunkSize = chunkSize
        self.emit = emit
    }

    var text: String { String(decoding: bytes, as: UTF8.self) }

    mutating func append(_ byte: UInt8) { bytes.append(byte) }

    mutating func append(_ text: String) { bytes.append(contentsOf: text.utf8) }

    mutating func append(contentsOf other: some Sequence<UInt8>) { bytes.append(contentsOf: other) }

    mutating func timestamp(_ date: Date) { ISO8601.write(date, into: &bytes) }

    /// A CSV text field (RFC 4180): quoted, with quotes doubled, when it holds a comma, a quote or a line break;
    /// guarded against spreadsheet formulas (`SpreadsheetText`).
    mutating func csvField(_ field: String) {
        let field = SpreadsheetText.guarded(forTerminal ? TerminalText.cell(field) : field)
        guard ReportRenderer.needsCSVQuotes(field) else { return append(field) }
        append(UInt8(ascii: "\""))
        for byte in field.utf8 {
            if byte == UInt8(ascii: "\"") { append(byte) }
            append(byte)
        }
        append(UInt8(ascii: "\""))
    }

    /// `,popularity,voteAverage,voteCount,updatedAt` of one movie, empty where unknown: the ratings CSV and the
    /// export share these columns.
    mutating func csvFigures(of movie: MovieRating) {
        append(UInt8(ascii: ","))
        if let popularity = movie.popularity { append("\(popularity)") }
        append(UInt8(ascii: ","))
        if let voteAverage = movie.voteAverage { append("\(voteAverage)") }
        append(UInt8(ascii: ","))
        if let voteCount = movie.voteCount { append(String(voteCount)) }
        append(UInt8(ascii: ","))
        if let updatedAt = movie.updatedAt { timestamp(updatedAt) }
    }

    /// `,watched,watchedOn,ownRating` of a member's link: true or false, the day or empty, 1–10 or empty.
    mutating func csvMark(_ mark: WatchMark) {
        append(mark.watched ? ",true," : ",false,")
        if let on = mark.on { append(on.text) }
        append(UInt8(ascii: ","))
        if let rating = mark.rating { append(String(rating)) }
    }

    /// Emits what was made so far once a chunk is full; `force` at the end.
    mutating func flush(force: Bool = false) {
        guard let emit, force || bytes.count >= chunkSize else { return }
        bytes.withUnsafeBytes(emit)
        bytes.removeAll(keepingCapacity: true)
    }
}

extension String {
    /// Whether any UTF-8 byte satisfies `test`, scanned without decoding characters.
    func containsByte(where test: (UInt8) -> Bool) -> Bool {
        utf8.withContiguousStorageIfAvailable { $0.contains(where: test) } ?? utf8.contains(where: test)
    }
}
