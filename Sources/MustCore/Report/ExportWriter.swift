import Foundation

/// Writes `mustc export` as rows arrive, in chunks: CSV that `mustc import` reads back, or JSON in the shape of
/// `ratings --format json` with each movie's IMDb id added.
public struct ExportWriter {
    public enum Format: String, CaseIterable, Sendable { case csv, json }

    public static let csvHeader =
        "member,title,year,tmdbId,imdbId,popularity,voteAverage,voteCount,updatedAt,watched,watchedOn,ownRating,"
        + "letterboxdUri,mustcId\r\n"

    private let format: Format
    private var json: JSONText
    private var member: String?
    private var members = 0
    private var movies = 0

    /// - Parameter forTerminal: CSV fields made visible as a table's cells are (CSV printed to a terminal).
    public init(_ format: Format, forTerminal: Bool = false, emit: @escaping (UnsafeRawBufferPointer) -> Void) {
        self.format = format
        json = JSONText(ChunkedOutput(emit: emit))
        json.out.forTerminal = forTerminal
        switch format {
        case .csv:
            json.out.append(Self.csvHeader)
        case .json:
            json.open("{")
            json.field("members", first: true)
            json.open("[")
        }
    }

    public mutating func add(_ row: ExportRow) {
        switch format {
        case .csv:
            if let movie = row.movie { csv(row.member, movie) }
        case .json:
            if row.member != member { startMember(row.member) }
            if let movie = row.movie { jsonMovie(movie) }
        }
        json.out.flush()
    }

    public mutating func finish() {
        if format == .json {
            endMember()
            json.close("]", empty: members == 0)
            json.close("}", empty: false)
            json.out.append(UInt8(ascii: "\n"))
        }
        json.out.flush(force: true)
    }

    private mutating func csv(_ member: String, _ movie: ExportMovie) {
        var out = json.out
        defer { json.out = out }
        let rating = movie.rating
        out.csvField(member)
        out.append(UInt8(ascii: ","))
        out.csvField(rating.title)
        out.append(UInt8(ascii: ","))
        if let year = rating.year { out.append(String(year)) }
        out.append(UInt8(ascii: ","))
        if let remoteId = rating.remoteId { out.append(String(remoteId)) }
        out.append(UInt8(ascii: ","))
        if let imdbId = movie.imdbId { out.append(imdbId) }
        out.csvFigures(of: rating)
        out.csvMark(rating.mark)
        out.append(UInt8(ascii: ","))
        if let uri = movie.letterboxdUri { out.csvField(uri) }
        out.append(UInt8(ascii: ","))
        out.append(String(movie.mustcId))
        out.append("\r\n")
    }

    private mutating func startMember(_ name: String) {
        endMember()
        json.element(first: members == 0)
        json.open("{")
        json.field("movies", first: true)
        json.open("[")
        member = name
        members += 1
        movies = 0
    }

    private mutating func endMember() {
        guard let member else { return }
        json.close("]", empty: movies == 0)
        json.field("name")
        json.string(member)
        json.close("}", empty: false)
        self.member = nil
    }

    /// Keys in sorted order, as `ratings --format json` writes them.
    private mutating func jsonMovie(_ movie: ExportMovie) {
        let rating = movie.rating
        json.element(first: movies == 0)
        movies += 1
        json.open("{")
        json.field("imdbId", first: true)
        json.string(movie.imdbId)
        json.field("letterboxdUri")
        json.string(movie.letterboxdUri)
        json.field("mustcId")
        json.number(Int(movie.mustcId))
        json.field("ownRating")
        json.number(rating.mark.rating)
        json.field("popularity")
        json.number(rating.popularity)
        json.field("remoteId")
        json.number(rating.remoteId)
        json.field("title")
        json.string(rating.title)
        json.field("updatedAt")
        json.timestamp(rating.updatedAt)
        json.field("voteAverage")
        json.number(rating.voteAverage)
        json.field("voteCount")
        json.number(rating.voteCount)
        json.field("watched")
        json.bool(rating.mark.watched)
        json.field("watchedOn")
        json.string(rating.mark.on?.text)
        json.field("year")
        json.number(rating.year)
        json.close("}", empty: false)
    }
}
