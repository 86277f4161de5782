import Foundation

/// One of a member's own ratings, beside what the public thought of the movie: the material of their taste.
public struct TasteSample: Sendable, Equatable {
    /// The member's rating, 1–10.
    public var own: Double
    /// TMDB's vote average (0–10), or in a benchmark another public rating on the same scale.
    public var average: Double
    public var genres: [String]

    public init(own: Double, average: Double, genres: [String]) {
        (self.own, self.average, self.genres) = (own, average, genres)
    }
}

/// How far a member's ratings of one genre depart from the public's, beyond their lean.
public struct GenreTaste: Sendable, Equatable {
    /// The genre as first seen.
    public var genre: String
    /// Points above (or, negative, below) the public rating and the member's lean: shrunk and bounded.
    public var shift: Double
    /// How many of the member's rated movies have the genre.
    public var films: Int
}

/// A member's taste: their overall lean (the mean departure of their own rating from the public one, shrunk
/// toward none as `sum / (n + leanShrink)`), and for each genre the mean departure from that lean, shrunk toward
/// none as `sum / (n + shrink)` (a genre with few films says little: one film 3 points apart moves it by 0.5 with
/// the default 5), each bounded to ±`bound` points. The lean is how harsh or kind they rate: the same for every
/// movie, it never reorders a night but keeps "rates Drama 1.3 below" from passing for a taste. Pure: the same
/// ratings give the same taste, and a member with no ratings has none, which moves nothing.
public struct MemberTaste: Sendable, Equatable {
    public var member: String
    /// Points above (or, negative, below) the public rating the member gives any movie.
    public var lean: Double
    /// By the genre's folded name (`TitleKey`), so "Science Fiction" and "science fiction" meet; each shift is
    /// beyond the lean.
    public var genres: [String: GenreTaste]

    /// Pseudo-films of no departure added to each genre beyond the lean. 5, as chosen for the plain offsets before
    /// the lean existed (of 1, 2, 5, 10 and 20 on `contrib/benchmarks/taste`'s synthetic set); with the lean, the
    /// five-fold figures in docs/performance.md ("Taste") are for this value, not yet tuned on real exports.
    public static let shrink = 5.0
    /// Pseudo-films of no lean: a member with a handful of ratings is taken to rate as the public does. The lean
    /// rests on all their films, so it needs less shrinking than a genre; 5 as well (docs/performance.md).
    public static let leanShrink = 5.0
    public static let bound = 2.0

    /// `leanShrink: .infinity` learns no lean: the genre shifts are then the plain offsets from the public rating,
    /// the benchmark's comparison.
    public init(
        member: String, samples: [TasteSample], shrink: Double = MemberTaste.shrink,
        leanShrink: Double = MemberTaste.leanShrink
    ) {
        self.member = member
        let departures = samples.map { $0.own - $0.average }
        let lean = departures.reduce(0, +) / (Double(samples.count) + leanShrink)
        self.lean = samples.isEmpty ? 0 : min(max(lean, -Self.bound), Self.bound)
        var sums: [String: (genre: String, sum: Double, films: Int)] = [:]
        // Each genre's name folded once, not once or twice a rating (300 ratings made about 900 folds).
        var folded = TitleKeyMemo()
        for (sample, departure) in zip(samples, departures) {
            for genre in Set(sample.genres.map { folded.key($0) }) {
                let shown = sample.genres.first { folded.key($0) == genre } ?? genre
                var entry = sums[genre] ?? (shown, 0, 0)
                entry.sum += departure - self.lean
                entry.films += 1
                sums[genre] = entry
            }
        }
        genres = sums.mapValues { entry in
            let shrunk = entry.sum / (Double(entry.films) + shrink)
            return GenreTaste(
                genre: entry.genre, shift: min(max(shrunk, -Self.bound), Self.bound), films: entry.films)
        }
    }

    public var isEmpty: Bool { genres.isEmpty }

    /// The member's departure for a movie of these genres: the mean of the genres they have rated (genres they
    /// never rated carry nothing and are left out), and the genre that departs most, for the reason. 0 and nil
    /// when they have rated none of them.
    public func shift(for movieGenres: [String]) -> (value: Double, strongest: GenreTaste?) {
        shift(forKeys: Set(movieGenres.map(TitleKey.make)))
    }

    /// `shift(for:)` for the genres' names already folded (`TitleKey.make`).
    public func shift(forKeys keys: Set<String>) -> (value: Double, strongest: GenreTaste?) {
        let known = keys.compactMap { genres[$0] }
        guard !known.isEmpty else { return (0, nil) }
        let mean = known.map(\.shift).reduce(0, +) / Double(known.count)
        let strongest = known.max {
            (abs($0.shift), $1.genre) < (abs($1.shift), $0.genre)
        }
        return (min(max(mean, -Self.bound), Self.bound), strongest)
    }
}

/// What the watchers' tastes do to one movie: the mean of their genre shifts (a watcher with no taste for its
/// genres counts as 0: they are expected to rate it at their lean), the mean of their leans, and the reasons that
/// earn their words. The predicted rating is the base plus both; only `shift` differs from movie to movie.
public struct TasteEffect: Sendable, Equatable {
    public var shift: Double
    /// The same for every movie the same watchers see: it moves the predicted rating, never the order.
    public var lean: Double = 0
    /// "Claire rates animation higher than usual (12 films, +0.4)": one for each genre that lifts the movie.
    public var notes: [String]

    /// A reason rests on at least this many of a watcher's films: a shift from one or two ratings is mostly the
    /// noise of those ratings (a single film 2 points apart read as "rates Horror 0.2 above" on every card).
    public static let noteFilms = 5
    /// And moves the movie's predicted rating by at least this much: smaller moves reorder little and say less
    /// than the TMDB figure beside them.
    public static let noteMove = 0.3

    public static func of(_ genres: [String], tastes: [MemberTaste]) -> TasteEffect {
        guard !tastes.isEmpty else { return TasteEffect(shift: 0, notes: []) }
        return of(keys: Set(genres.map(TitleKey.make)), tastes: tastes)
    }

    /// `of(_:tastes:)` for the genres' names already folded (`TitleKey.make`). Without `notes`, the shift alone:
    /// ranking needs it for every candidate and the notes only for the picks shown, and writing a note (its
    /// `String(format:)`) for each watcher of each of 900 candidates cost more than the rest of the ranking.
    public static func of(keys: Set<String>, tastes: [MemberTaste], notes wanted: Bool = true) -> TasteEffect {
        guard !tastes.isEmpty else { return TasteEffect(shift: 0, notes: []) }
        let total = tastes.map { $0.shift(forKeys: keys).value }.reduce(0, +)
        let shift = total / Double(tastes.count)
        return TasteEffect(
            shift: shift, lean: tastes.map(\.lean).reduce(0, +) / Double(tastes.count),
            notes: wanted ? notes(keys: keys, tastes: tastes) : [])
    }

    /// Each genre's part of the combined shift, as the score counts it: a watcher's genre shift divided among the
    /// genres of the movie they have rated and among the watchers. A genre gets a note when its part, from the
    /// watchers with enough films of it, lifts the movie by `noteMove` or more and the genre's whole part (any
    /// watcher who likes it less included) lifts it too: a reason says why the movie ranks higher, never against.
    static func notes(keys: Set<String>, tastes: [MemberTaste]) -> [String] {
        var parts: [String: (genre: String, net: Double, named: [(member: String, films: Int, part: Double)])] = [:]
        for taste in tastes {
            let known = keys.compactMap { key in taste.genres[key].map { (key, $0) } }
            for (key, genre) in known {
                let part = genre.shift / Double(known.count) / Double(tastes.count)
                var entry = parts[key] ?? (genre.genre, 0, [])
                entry.net += part
                if genre.films >= noteFilms, part > 0 { entry.named.append((taste.member, genre.films, part)) }
                parts[key] = entry
            }
        }
        let lifts = parts.values.compactMap { entry -> (size: Double, text: String)? in
            let size = min(entry.named.map(\.part).reduce(0, +), entry.net)
            // Compared as shown, to a tenth: a note never reads "+0.3" for a lift of 0.29.
            guard !entry.named.isEmpty, (size * 10).rounded() >= noteMove * 10 else { return nil }
            let who = MovieNight.names(entry.named.map(\.member))
            let films = MovieNight.names(entry.named.map { "\($0.films)" })
            let verb = entry.named.count == 1 ? "rates" : "rate"
            return (
                size,
                "\(who) \(verb) \(spoken(entry.genre)) higher than usual (\(films) films, "
                    + "+\(String(format: "%.1f", size)))"
            )
        }
        return lifts.sorted { ($0.size, $1.text) > ($1.size, $0.text) }.map(\.text)
    }

    /// "Science Fiction" as said in a sentence, "science fiction"; a word in capitals ("TV") stays.
    public static func spoken(_ genre: String) -> String {
        genre.split(separator: " ").map { word in
            word.dropFirst().contains { $0.isUppercase } ? String(word) : word.lowercased()
        }.joined(separator: " ")
    }
}
