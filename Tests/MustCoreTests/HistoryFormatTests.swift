import Foundation
import Testing

@testable import MustCore

/// The pure parts of the Trakt and Netflix imports: Netflix's dates in the account's locale, which titles are
/// episodes, and Trakt's JSON arrays read an entry at a time.
struct HistoryFormatTests {
    @Test func netflixDatesSettleTheirOrderFromTheDatesThatShowIt() throws {
        let us = try #require(NetflixDate.parse("10/19/22"))
        #expect(us.shows == .mdy && us.day(.mdy)?.text == "2022-10-19" && us.day(.dmy) == nil)
        #expect(NetflixDate.parse("27/07/2020")?.shows == .dmy)
        #expect(NetflixDate.parse("28-06-23")?.day(.dmy)?.text == "2023-06-28")
        let german = try #require(NetflixDate.parse("3.5.25"))
        #expect(german.shows == nil && german.ambiguous)
        #expect(german.day(.dmy)?.text == "2025-05-03" && german.day(.mdy)?.text == "2025-03-05")
        #expect(german.day(nil) == nil, "an ambiguous date is no day until the order is known")
        #expect(NetflixDate.parse("4.4.25")?.day(nil)?.text == "2025-04-04", "the same either way")
        #expect(NetflixDate.parse("2023-06-28")?.day(nil)?.text == "2023-06-28")
        #expect(NetflixDate.parse("2023/02/30")?.day(nil) == nil, "no such day")
        for text in ["", "yesterday", "1/2", "1/2/3/4", "123/1/2020", "1/1/202", "١/٢/٢٠٢٠"] {
            #expect(NetflixDate.parse(text) == nil, "\(text)")
        }

        var evidence = DateOrderEvidence()
        evidence.add(german, text: "3.5.25", movie: true)
        #expect(throws: DateOrderProblem.unknown(example: "3.5.25")) { try evidence.settled(given: nil) }
        #expect(try evidence.settled(given: .mdy) == .mdy)
        evidence.add(try #require(NetflixDate.parse("13.5.25")), text: "13.5.25", movie: false)
        #expect(try evidence.settled(given: nil) == .dmy, "an episode's date tells the order too")
        evidence.add(try #require(NetflixDate.parse("5.13.25")), text: "5.13.25", movie: false)
        #expect(throws: DateOrderProblem.both(dayFirst: "13.5.25", monthFirst: "5.13.25")) {
            try evidence.settled(given: nil)
        }
        var episodesOnly = DateOrderEvidence()
        episodesOnly.add(german, text: "3.5.25", movie: false)
        #expect(try episodesOnly.settled(given: nil) == nil, "no movie needs the order")
    }

    @Test func episodesAreToldFromFilmsWithColons() {
        let episodes = [
            "Breaking Bad: Season 1: Pilot", "La Casa de Papel: Temporada 2: Episodio 3",
            "Dark: Staffel 1: Geheimnisse", "The Crown: Seizoen 3: Olding",
            "The Queen's Gambit: Limited Series: Openings",
            "Stranger Things: Season 4: Chapter One: The Hellfire Club (Episode 1)", "Lupin: Part 2: Chapter 6",
            "Our Planet: Episode 1", "3%: 2ª Temporada: Capítulo 01", "Bebê Rena: Minissérie: Episódio 1",
            "The Last Dance: Episode I", "Den som dræber: Those Who Kill: Aflevering 1",
            "Lupin: Partie 2: Chapitre 6", "Familie: Afsnit 4", "Suburra: Stagione 1: Episodio 2",
        ]
        for title in episodes { #expect(NetflixTitle.show(title) != nil, "\(title)") }
        #expect(NetflixTitle.show("Breaking Bad: Season 1: Pilot") == "Breaking Bad")
        let films = [
            "Dune", "Dune: Part Two", "Kill Bill: Vol. 1", "Star Wars: Episode IV – A New Hope",
            "Mission: Impossible – Dead Reckoning Part One", "Spider-Man: Across the Spider-Verse",
            "Black Mirror: Bandersnatch", "Star Wars: Episode I: The Phantom Menace",
            "Glass Onion: A Knives Out Mystery", "Harry Potter and the Goblet of Fire",
            "Dune: Part Two (Trailer)", "Rebel Moon – Part One: A Child of Fire",
        ]
        for title in films { #expect(NetflixTitle.show(title) == nil, "\(title)") }
        // A numbered part, chapter or volume last is a film's as often as a show's: only TMDB tells.
        for title in ["Dune: Part Two", "John Wick: Chapter 4", "Kill Bill: Vol. 1", "Lupin: Part 2"] {
            #expect(NetflixTitle.numberedPart(title), "\(title)")
        }
        #expect(!NetflixTitle.numberedPart("Léon: The Professional"))
    }

    final class Bytes: ByteSource {
        var rest: [UInt8]
        /// How much one read hands over: a small step splits entries and strings across reads.
        let step: Int

        init(_ text: String, step: Int) {
            rest = Array(text.utf8)
            self.step = step
        }

        func read(upTo count: Int) throws -> [UInt8] {
            let chunk = Array(rest.prefix(min(count, step)))
            rest.removeFirst(chunk.count)
            return chunk
        }
    }

    @Test func jsonArraysAreReadAnEntryAtATimeWhateverTheReads() throws {
        let text = "\u{FEFF} [ {\"a\": \"x, ] }\\\" y\", \"b\": [1, {\"c\": 2}]} ,\n 42, \"s\" , {\"d\": {}} ]  "
        for step in [1, 3, 7, 1 << 16] {
            let reader = JSONArrayReader(source: Bytes(text, step: step))
            try reader.start()
            var values: [String] = []
            while let element = try reader.next() {
                guard case .value(let bytes, let number) = element else {
                    Issue.record("entry \(element) malformed")
                    continue
                }
                #expect(number == values.count + 1)
                values.append(String(decoding: bytes, as: UTF8.self))
            }
            #expect(
                values == [#"{"a": "x, ] }\" y", "b": [1, {"c": 2}]}"#, "42", #""s""#, #"{"d": {}}"#], "step \(step)")
        }
        let long = "[" + "{\"t\": \"" + String(repeating: "x", count: 70_000) + "\"}, 1]"
        let reader = JSONArrayReader(source: Bytes(long, step: 4096))
        try reader.start()
        guard case .malformed(1, let reason)? = try reader.next() else {
            Issue.record("a 70 KB entry is refused")
            return
        }
        #expect(reason.contains("64 KB"))
        guard case .value(let one, 2)? = try reader.next() else {
            Issue.record("the entry after it is read")
            return
        }
        #expect(one == Array("1".utf8))
        #expect(throws: ImportInputProblem.self) { try JSONArrayReader(source: Bytes("{\"a\": 1}", step: 9)).start() }
    }
}
