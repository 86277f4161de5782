import Foundation
import MustCore
import Testing

/// Shapes of real answers and exports that still broke, over plain values.
@Suite struct ReplayedShapesTests {
    /// TMDB's 2024 list for Spain as it gives it: unsorted, and "12" and "16" both at order 5.
    static let spain = [
        RegionCertification(certification: "16", order: 5), RegionCertification(certification: "A", order: 1),
        RegionCertification(certification: "18", order: 6), RegionCertification(certification: "7", order: 3),
        RegionCertification(certification: "12", order: 5), RegionCertification(certification: "7i", order: 2),
    ]

    static func movie(_ id: Int64, _ certification: String) -> NightCandidate {
        var candidate = NightCandidate(
            movieId: id, title: "Rated \(certification)", voteAverage: 7, voteCount: 100, keptBy: ["Ann"])
        candidate.certification = certification
        return candidate
    }

    @Test func aTieInTheOrderIsSettledByTheAgeTheCertificationNames() {
        var library = NightLibrary(
            members: ["Ann", "Cleo"],
            candidates: [Self.movie(1, "7"), Self.movie(2, "12"), Self.movie(3, "16"), Self.movie(4, "18")],
            prior: NightPrior(mean: 7, votes: 100, movies: 4))
        library.certifications = Self.spain
        library.ageLimits = ["Cleo": "12"]
        let offered = Set(MovieNight.rank(library, count: 10, filters: NightFilters()).map(\.candidate.title))
        #expect(offered == ["Rated 7", "Rated 12"], "a member limited to 12 is never offered a film rated 16")
        library.ageLimits = ["Cleo": "16"]
        let older = Set(MovieNight.rank(library, count: 10, filters: NightFilters()).map(\.candidate.title))
        #expect(older == ["Rated 7", "Rated 12", "Rated 16"])
        // Tonight's 16 and Cleo's 12 tie in TMDB's order: the applied limit is the younger age.
        #expect(NightFilters(ageLimit: "16").appliedLimit(library) == "16")
        library.ageLimits = ["Cleo": "12"]
        #expect(NightFilters(ageLimit: "16").appliedLimit(library) == "12")
    }

    @Test func formatCharactersAreMadeVisibleAsBidiControlsAre() {
        let title = "Zero\u{200B}Width\u{2066}Isolate\u{2069}\u{FEFF}\u{200E}Mark\u{2060}Joiner\u{AD}"
        #expect(
            TerminalText.visible(title)
                == #"Zero\u200BWidth\u2066Isolate\u2069\uFEFF\u200EMark\u2060Joiner\u00AD"#)
        #expect(TerminalText.cell(title).unicodeScalars.allSatisfy { $0.isASCII })
        // Joiners that write Persian and emoji right are left alone.
        for kept in ["می\u{200C}خواهم", "👨\u{200D}👩\u{200D}👧"] { #expect(TerminalText.visible(kept) == kept) }
    }
}
