/// Where one file's rows come from, in the file's order: a CSV list read through its layout, Trakt's JSON, or a
/// Netflix history settled as a whole. `at` is where a row is in its file, for messages ("12", "entry 4"); a watched
/// day after `today` is not taken.
protocol ImportRowSource: AnyObject {
    func next(member: String, today: WatchDay) throws -> (at: String, row: ImportRow)?
    /// Bytes of the input read so far, for the progress bar.
    var position: Int { get }
    var encoding: ListEncoding { get }
}

/// A CSV list (Letterboxd, IMDb, mustc): each record is read as a row of its layout.
final class CSVRows: ImportRowSource {
    let reader: CSVRecordReader
    let layout: ImportLayout

    init(reader: CSVRecordReader, layout: ImportLayout) {
        self.reader = reader
        self.layout = layout
    }

    func next(member: String, today: WatchDay) throws -> (at: String, row: ImportRow)? {
        switch try reader.next() {
        case nil: return nil
        case .malformed(let line, let reason)?: return ("\(line)", .invalid(reason))
        case .fields(let fields, let line)?: return ("\(line)", layout.row(fields, member: member, today: today))
        }
    }

    var position: Int { reader.position }
    var encoding: ListEncoding { reader.encoding }
}

/// What a history's title is: a film, a show's episode, or, until TMDB says, unsure.
enum TitleVerdict: Equatable {
    case film, episode, unsure
}

/// A source some of whose titles only TMDB can tell (Netflix's `Show: Rest`, beside others of the same show): the
/// import asks whether TMDB knows each as a movie by its exact title before reading the rows.
protocol UndecidedTitles: AnyObject {
    var undecided: [(title: String, latestYear: Int?)] { get }
    /// `asked`: the titles TMDB answered about; of them, `movies` are films and the others episodes. A title not
    /// answered stays unsure.
    func decide(movies: Set<String>, asked: Set<String>)
}
