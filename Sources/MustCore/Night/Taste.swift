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

/// How far a member's ratings of one genre depart from the public's.
public struct GenreTaste: Sendable, Equatable {
    /// The genre as first seen.
    public var genre: String
    /// Points above (or, negative, below) the public rating: shrunk and bounded.
    public var shift: Double
    /// How many of the member's rated movies have the genre.
    public var films: Int
}

/// A member's taste: for each genre, the mean departure of their own rating from the public one,
/// shrunk toward no departure as `sum / (n + shrink)` (a genre with few films says little: one film 3 points
/// apart moves it by 0.5 with the default 5) and bounded to ±`bound` points. Pure: the same ratings give the same
/// taste, and a member with no ratings has none, which moves nothing.
public struct MemberTaste: Sendable, Equatable {
    public var member: String
    /// By the genre's folded name (`TitleKey`), so "Science Fiction" and "science fiction" meet.
    public var genres: [String: GenreTaste]

    /// Pseudo-films of no departure added to each genre. Chosen with `contrib/benchmarks/taste` (see
    /// docs/movie-night.md): of 1, 2, 5, 10 and 20, on its synthetic held-out ratings, 5 is the one that beats the
    /// weighted rating alone on both figures (less shrinking lowers the error further but ranks worse; more ranks
    /// a little better but errs more).
    public static let shrink = 5.0
    public static let bound = 2.0

    public init(member: String, samples: [TasteSample], shrink: Double = MemberTaste.shrink) {
        self.member = member
        var sums: [String: (genre: String, sum: Double, films: Int)] = [:]
        // Each genre's name folded once, not once or twice a rating (300 ratings made about 900 folds).
        var folded = TitleKeyMemo()
        for sample in samples {
            let departure = sample.own - sample.average
            for genre in Set(sample.genres.map { folded.key($0) }) {
                let shown = sample.genres.first { folded.key($0) == genre } ?? genre
                var entry = sums[genre] ?? (shown, 0, 0)
                entry.sum += departure
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

/// What the watchers' tastes do to one movie: the mean of their shifts (a watcher with no taste for its genres
/// counts as 0: they are expected to agree with the public), and the reasons of those who moved it.
public struct TasteEffect: Sendable, Equatable {
    public var shift: Double
    /// "Claire rates Animation 1.2 above TMDB (9 films)", one for each watcher whose shift rounds to 0.1 or more.
    public var notes: [String]

    public static func of(_ genres: [String], tastes: [MemberTaste]) -> TasteEffect {
        guard !tastes.isEmpty else { return TasteEffect(shift: 0, notes: []) }
        return of(keys: Set(genres.map(TitleKey.make)), tastes: tastes)
    }

    /// `of(_:tastes:)` for the genres' names already folded (`TitleKey.make`). Without `notes`, the shift alone:
    /// ranking needs it for every candidate and the notes only for the picks shown, and writing a note (its
    /// `String(format:)`) for each watcher of each of 900 candidates cost more than the rest of the ranking
    ///.
    public static func of(keys: Set<String>, tastes: [MemberTaste], notes wanted: Bool = true) -> TasteEffect {
        guard !tastes.isEmpty else { return TasteEffect(shift: 0, notes: []) }
        var total = 0.0
        var notes: [String] = []
        for taste in tastes {
            let (value, strongest) = taste.shift(forKeys: keys)
            total += value
            guard wanted, let strongest, (abs(strongest.shift) * 10).rounded() >= 1 else { continue }
            let size = String(format: "%.1f", abs(strongest.shift))
            notes.append(
                "\(taste.member) rates \(strongest.genre) \(size) \(strongest.shift > 0 ? "above" : "below") TMDB "
                    + "(\(strongest.films) film\(strongest.films == 1 ? "" : "s"))")
        }
        return TasteEffect(shift: total / Double(tastes.count), notes: notes)
    }
}
