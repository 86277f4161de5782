// The taste benchmark: does each member's taste (`MemberTaste` and `TasteEffect`, the code `pick` runs) predict
// their own ratings better than the public rating alone, and better than a plain shrunk per-genre offset? Reads
// rating histories in the shape of IMDb's ratings export (`Const`, `Your Rating`, `IMDb Rating`, `Num Votes`,
// `Genres`, `Title Type`), one file per person; splits each person's rated movies into five folds (by a hash of
// `Const`, so the same folds on every run), predicts each fold from the other four, and reports per export the
// mean absolute error against the person's own rating and the rank correlation (Spearman's) of
//   public  the ranking's base alone (the public rating with at most `NightPrior.rankingVotes` votes of prior),
//   offset  the base plus a plain shrunk per-genre offset (no lean: `leanShrink: .infinity`),
//   taste   the base plus the member's lean and genre shifts, as `pick` predicts,
// and, to measure the base, the same for the old base (the library's median vote count as prior).
//
//     taste-bench FILE.csv...                     real exports (never commit one: they are a person's data)
//     taste-bench --synthetic DIR [--people N] [--seed S]   writes a synthetic set to DIR first, then reads it
//
// Measurements, not tests. The synthetic set is described in `Synthetic` below and in docs/movie-night.md.
import Foundation
import MustCore

struct Row {
    var id: String
    var own: Double
    var average: Double
    var votes: Int
    var genres: [String]
}

/// One person's rated movies, read as `mustc import` reads an IMDb export: its encoding detected (IMDb writes
/// Windows-1252), quoted fields with commas and line breaks, and only the rows whose `Title Type` is a movie's (a
/// rated series or episode is not a movie the taste could be asked about). Prints what it left out.
func read(_ path: String) throws -> [Row] {
    let reader = try CSVRecordReader(path: path)
    guard case .fields(let header, _)? = try reader.next() else { throw BenchError("\(path): no header row") }
    reader.expectedFields = header.count
    let names = header.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
    func column(_ name: String) throws -> Int {
        guard let index = names.firstIndex(of: name.lowercased()) else { throw BenchError("\(path): no \(name)") }
        return index
    }
    let (id, own, average, votes, genres) = (
        try column("Const"), try column("Your Rating"), try column("IMDb Rating"), try column("Num Votes"),
        try column("Genres")
    )
    let type = names.firstIndex(of: "title type")
    var rows: [Row] = []
    var (shows, unreadable) = (0, 0)
    while let record = try reader.next() {
        guard case .fields(let row, _) = record, row.count == header.count else {
            unreadable += 1
            continue
        }
        if let type, !ImportLayout.isMovie(titleType: row[type].trimmingCharacters(in: .whitespaces)) {
            shows += 1
            continue
        }
        guard let mine = Double(row[own]), let public_ = Double(row[average]) else {
            unreadable += 1
            continue
        }
        rows.append(
            Row(
                id: row[id], own: mine, average: public_, votes: Int(row[votes]) ?? 0,
                genres: row[genres].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }))
    }
    // Said only when the file is not plain: 200 synthetic people need no 200 lines.
    guard shows + unreadable > 0 || reader.encoding != .utf8 else { return rows }
    print(
        "\(path): \(rows.count) movies (read as \(reader.encoding.rawValue)); left out \(shows) series, episodes "
            + "and other titles that are not movies, \(unreadable) rows without a rating")
    return rows
}

struct BenchError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// A synthetic family of rating histories, honest about what it is: public ratings and genres drawn to look like
/// IMDb's, and each person's rating = public rating + their overall bias + their liking of the movie's genres +
/// noise, rounded to 1–10. The taste model is of this shape, so the set measures whether it recovers a genre
/// effect of this size through this much noise, with as few ratings as people have; not that real people rate so.
enum Synthetic {
    static let genres = [
        ("Drama", 30), ("Comedy", 20), ("Thriller", 12), ("Action", 12), ("Romance", 10), ("Horror", 8),
        ("Crime", 8), ("Adventure", 8), ("Animation", 5), ("Family", 5), ("Science Fiction", 6), ("Fantasy", 5),
        ("Mystery", 5), ("Documentary", 3), ("War", 2), ("History", 2), ("Music", 2), ("Western", 1),
    ]

    struct Random {
        var state: UInt64
        mutating func next() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) / Double(1 << 53)
        }
        mutating func normal(_ mean: Double, _ sd: Double) -> Double {
            let (u, v) = (max(next(), 1e-12), next())
            return mean + sd * (-2 * log(u)).squareRoot() * cos(2 * .pi * v)
        }
        mutating func genre() -> String {
            var pick = next() * Double(genres.map(\.1).reduce(0, +))
            for (name, weight) in genres {
                pick -= Double(weight)
                if pick < 0 { return name }
            }
            return genres[0].0
        }
    }

    static func write(to directory: String, people: Int, seed: UInt64) throws -> [String] {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        var random = Random(state: seed)
        let movies = (0..<4000).map { index -> (String, Double, Int, [String]) in
            let average = min(9.3, max(2, random.normal(6.5, 0.95)))
            let votes = Int(exp(random.normal(9, 1.6)))
            let count = 1 + Int(random.next() * 3)
            var names: [String] = []
            while names.count < count {
                let name = random.genre()
                if !names.contains(name) { names.append(name) }
            }
            return (String(format: "tt%07d", 100_000 + index), (average * 10).rounded() / 10, votes, names)
        }
        var paths: [String] = []
        for person in 0..<people {
            let bias = random.normal(0, 0.7)
            var liking: [String: Double] = [:]
            for _ in 0..<4 { liking[random.genre()] = random.normal(0, 1.3) }
            let rated = min(movies.count, Int(exp(random.normal(4.6, 0.8))) + 15)
            var chosen = Set<Int>()
            while chosen.count < rated { chosen.insert(Int(random.next() * Double(movies.count))) }
            var csv =
                "Const,Your Rating,Date Rated,Title,URL,Title Type,IMDb Rating,Runtime (mins),Year,Genres,Num Votes,"
                + "Release Date,Directors\n"
            for index in chosen.sorted() {
                let (id, average, votes, names) = movies[index]
                let taste = names.map { liking[$0] ?? 0 }.reduce(0, +) / Double(names.count)
                let own = min(10, max(1, (average + bias + taste + random.normal(0, 1.2)).rounded()))
                csv +=
                    "\(id),\(Int(own)),2026-01-01,Movie \(index),https://www.imdb.com/title/\(id)/,Movie,"
                    + "\(average),100,2000,\"\(names.joined(separator: ", "))\",\(votes),2000-01-01,\n"
            }
            let path = directory + "/person-\(person).csv"
            try csv.write(toFile: path, atomically: true, encoding: .utf8)
            paths.append(path)
        }
        return paths
    }
}

/// Spearman's rank correlation, ties given their mean rank; nil for fewer than 3 pairs or no spread.
func spearman(_ x: [Double], _ y: [Double]) -> Double? {
    guard x.count >= 3 else { return nil }
    func ranks(_ v: [Double]) -> [Double] {
        let order = v.indices.sorted { v[$0] < v[$1] }
        var out = [Double](repeating: 0, count: v.count)
        var i = 0
        while i < order.count {
            var j = i
            while j + 1 < order.count, v[order[j + 1]] == v[order[i]] { j += 1 }
            for k in i...j { out[order[k]] = Double(i + j) / 2 + 1 }
            i = j + 1
        }
        return out
    }
    let (a, b) = (ranks(x), ranks(y))
    let (ma, mb) = (a.reduce(0, +) / Double(a.count), b.reduce(0, +) / Double(b.count))
    let cov = zip(a, b).map { ($0 - ma) * ($1 - mb) }.reduce(0, +)
    let (va, vb) = (a.map { ($0 - ma) * ($0 - ma) }.reduce(0, +), b.map { ($0 - mb) * ($0 - mb) }.reduce(0, +))
    guard va > 0, vb > 0 else { return nil }
    return cov / (va * vb).squareRoot()
}

/// A person's MAE and rank correlation for each way of predicting.
struct Figures {
    var mae: [Double]
    var rho: [Double?]
}

/// The ways of predicting, in the order the figures hold them.
let ways = ["public", "offset", "taste"]

/// Five-fold cross-validation of one person's ratings on `base`: each fold predicted from the other four.
func crossValidated(_ rows: [Row], base: (Row) -> Double, folds: Int = 5) -> Figures {
    var predicted = [[Double]](repeating: [Double](repeating: 0, count: rows.count), count: ways.count)
    let fold = rows.map { abs($0.id.hashValueStable) % folds }
    for held in 0..<folds {
        let samples = zip(rows, fold).filter { $0.1 != held }.map {
            TasteSample(own: $0.0.own, average: $0.0.average, genres: $0.0.genres)
        }
        let plain = MemberTaste(member: "p", samples: samples, leanShrink: .infinity)
        let taste = MemberTaste(member: "p", samples: samples)
        for index in rows.indices where fold[index] == held {
            let (row, start) = (rows[index], base(rows[index]))
            let effect = TasteEffect.of(row.genres, tastes: [taste])
            predicted[0][index] = start
            predicted[1][index] = start + plain.shift(for: row.genres).value
            predicted[2][index] = start + effect.lean + effect.shift
        }
    }
    let own = rows.map(\.own)
    return Figures(
        mae: predicted.map { zip($0, own).map { abs($0 - $1) }.reduce(0, +) / Double(max(own.count, 1)) },
        rho: predicted.map { spearman($0, own) })
}

/// The bases compared: the ranking's, and the old one with the library's median vote count as prior.
func bases(_ people: [[Row]]) -> [(name: String, base: (Row) -> Double)] {
    let all = people.flatMap { $0 }
    let mean = all.map(\.average).reduce(0, +) / Double(max(all.count, 1))
    let votes = all.map(\.votes).sorted()
    let median = NightPrior(mean: mean, votes: Double(votes.isEmpty ? 0 : votes[votes.count / 2]), movies: all.count)
    return [
        (
            "base with at most \(Int(NightPrior.rankingVotes)) votes of prior",
            { MovieNight.weighted(average: $0.average, votes: $0.votes, prior: median.ranking) }
        ),
        (
            "old base, the median's \(Int(median.votes)) votes of prior",
            { MovieNight.weighted(average: $0.average, votes: $0.votes, prior: median) }
        ),
    ]
}

/// One line of figures: each way's rank correlation and MAE.
func line(_ label: String, films: Int, _ rho: [Double?], _ mae: [Double]) -> String {
    let cells = zip(rho, mae).map { r, m in
        (r.map { String(format: "%6.3f", $0) } ?? "     -") + String(format: " %5.3f", m)
    }
    return label.padding(toLength: 28, withPad: " ", startingAt: 0) + String(format: "%6d  ", films)
        + cells.joined(separator: "   ")
}

extension String {
    /// FNV-1a: Swift's `hashValue` changes from run to run.
    var hashValueStable: Int {
        var hash: UInt64 = 14_695_981_039_346_656_037
        for byte in utf8 { hash = (hash ^ UInt64(byte)) &* 1_099_511_628_211 }
        return Int(truncatingIfNeeded: hash >> 1)
    }
}

let arguments = Array(CommandLine.arguments.dropFirst())
/// The value after `name`, if given: a flag at the end of the line has none (and must not crash the run).
func option(_ name: String) -> String? {
    guard let at = arguments.firstIndex(of: name), at + 1 < arguments.count else { return nil }
    return arguments[at + 1]
}
var files: [String] = []
if let directory = option("--synthetic") {
    let people = option("--people").flatMap { Int($0) } ?? 200
    let seed = option("--seed").flatMap { UInt64($0) } ?? 33
    do {
        files = try Synthetic.write(to: directory, people: max(people, 1), seed: seed)
    } catch {
        print("taste-bench: cannot write the synthetic set to \(directory): \(error)")
        exit(73)
    }
    print("synthetic: \(people) people, seed \(seed), written to \(directory)")
} else {
    files = arguments
}
guard !files.isEmpty, !files.contains(where: { $0.hasPrefix("--") }) else {
    print("usage: taste-bench FILE.csv... | taste-bench --synthetic DIR [--people N] [--seed S]")
    exit(64)
}
let people: [[Row]]
do {
    people = try files.map(read)
} catch {
    print("taste-bench: \(error)")
    exit(66)
}
print("people: \(people.count), rated movies: \(people.map(\.count).reduce(0, +)), 5 folds")
for (name, base) in bases(people) {
    print("\n\(name)")
    print("export                       films   public rho/MAE   offset rho/MAE   taste rho/MAE")
    let figures = people.map { crossValidated($0, base: base) }
    // 200 synthetic people need no 200 lines: each export is shown when there are few.
    if files.count <= 20 {
        for (file, (rows, figure)) in zip(files, zip(people, figures)) {
            print(line(URL(fileURLWithPath: file).lastPathComponent, films: rows.count, figure.rho, figure.mae))
        }
    }
    let mean = { (v: [Double]) in v.reduce(0, +) / Double(max(v.count, 1)) }
    let rho = ways.indices.map { way in mean(figures.compactMap { $0.rho[way] }) }
    let mae = ways.indices.map { way in mean(figures.map { $0.mae[way] }) }
    print(line("mean of \(people.count)", films: people.map(\.count).reduce(0, +), rho, mae))
    let atLeast = figures.filter { ($0.rho[2] ?? -2) >= ($0.rho[0] ?? -2) }.count
    print("taste ranks at least as well as public on \(atLeast) of \(figures.count) exports")
}
