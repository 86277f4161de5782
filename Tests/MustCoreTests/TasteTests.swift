import Foundation
import MustCore
import Testing

/// Each member's taste: pure, from their own ratings beside TMDB's, shrunk and bounded, and the pick
/// it moves.
@Suite struct TasteTests {
    /// Claire rates ten Animation films 2.1 above TMDB and five Horror films 3 below: a lean of 6 / 20 = 0.3 above,
    /// and beyond it Animation 10 × 1.8 / 15 = 1.2 above and Horror 5 × -3.3 / 10 = -1.65 below.
    static let claire = MemberTaste(
        member: "Claire",
        samples: Array(repeating: TasteSample(own: 9, average: 6.9, genres: ["Animation"]), count: 10)
            + Array(repeating: TasteSample(own: 4, average: 7, genres: ["Horror"]), count: 5))

    static let horror = NightCandidate(
        movieId: 1, title: "Night Screams", year: 2020, voteAverage: 8.0, voteCount: 50_000, keptBy: ["Claire"])
    static let animation = NightCandidate(
        movieId: 2, title: "Paper Moon Fox", year: 2021, voteAverage: 7.5, voteCount: 50_000, keptBy: ["Claire"])

    static func library(_ tastes: [MemberTaste]) -> NightLibrary {
        var horror = Self.horror
        horror.genres = ["Horror", "Thriller"]
        var animation = Self.animation
        animation.genres = ["Animation", "Family"]
        var library = NightLibrary(
            members: tastes.map(\.member), candidates: [horror, animation],
            prior: NightPrior(mean: 7, votes: 1000, movies: 2))
        library.tastes = tastes
        return library
    }

    static func base(_ candidate: NightCandidate, _ library: NightLibrary) -> Double {
        MovieNight.weighted(
            average: candidate.voteAverage ?? 0, votes: candidate.voteCount ?? 0,
            prior: library.prior?.ranking ?? NightPrior(mean: 0, votes: 0, movies: 0))
    }

    @Test func theLeanAndEachGenreBeyondItAreShrunkByTheirCountsAndBounded() {
        #expect(abs(Self.claire.lean - 0.3) < 1e-9)
        let animation = Self.claire.genres[TitleKey.make("animation")]
        #expect(animation?.films == 10 && abs((animation?.shift ?? 0) - 1.2) < 1e-9)
        #expect(abs((Self.claire.genres[TitleKey.make("Horror")]?.shift ?? 0) + 1.65) < 1e-9)
        // One film 3 points apart says little: a lean of 3 / 6, and Drama (3 - 0.5) / 6 beyond it.
        let once = MemberTaste(member: "Leo", samples: [TasteSample(own: 10, average: 7, genres: ["Drama"])])
        #expect(abs(once.lean - 0.5) < 1e-9 && abs(once.shift(for: ["Drama"]).value - 2.5 / 6) < 1e-9)
        // Without a lean (the benchmark's plain offset) Drama takes it all: 3 / 6.
        let plain = MemberTaste(
            member: "Leo", samples: [TasteSample(own: 10, average: 7, genres: ["Drama"])], leanShrink: .infinity)
        #expect(plain.lean == 0 && abs(plain.shift(for: ["Drama"]).value - 0.5) < 1e-9)
        // Thirty films 5 points apart: a lean of 150 / 35 = 4.3 and Comedy 30 × 3 / 35 = 2.6, both bounded to 2.
        let strong = MemberTaste(
            member: "Max", samples: Array(repeating: TasteSample(own: 10, average: 5, genres: ["Comedy"]), count: 30))
        #expect(strong.lean == 2 && strong.shift(for: ["Comedy"]).value == 2)
        // A genre never rated carries nothing, and does not dilute the ones that were.
        #expect(abs(Self.claire.shift(for: ["Animation", "Family"]).value - 1.2) < 1e-9)
        #expect(Self.claire.shift(for: ["Western"]).value == 0 && Self.claire.shift(for: ["Western"]).strongest == nil)
    }

    @Test func tasteMovesAHorrorPickBelowAnAnimationOne() {
        let plain = MovieNight.rank(Self.library([]), count: 5)
        #expect(plain.map(\.candidate.title) == ["Night Screams", "Paper Moon Fox"])
        #expect(plain.allSatisfy { $0.taste.isEmpty && $0.predicted == Self.base($0.candidate, Self.library([])) })
        // The base keeps the public rating: 50 votes of prior at most, not the library's 1,000.
        #expect(abs((plain[0].predicted ?? 0) - (50_000 * 8 + 50 * 7) / 50_050.0) < 1e-9)
        #expect((plain[0].predicted ?? 0) > (plain[0].weighted ?? 0))

        let picks = MovieNight.rank(Self.library([Self.claire]), count: 5)
        #expect(picks.map(\.candidate.title) == ["Paper Moon Fox", "Night Screams"])
        #expect(picks[0].taste == ["Claire rates animation higher than usual (10 films, +1.2)"])
        // Her Horror shift lowers Night Screams: no reason argues against the pick it explains.
        #expect(picks[1].taste == [])
        #expect(picks[0].why.hasSuffix("; Claire rates animation higher than usual (10 films, +1.2)"))
        // Her lean and her Animation shift, on the base.
        let base = Self.base(picks[0].candidate, Self.library([]))
        #expect(abs((picks[0].predicted ?? 0) - (base + 0.3 + 1.2)) < 1e-9)
    }

    @Test func theRankingFoldsGenresAsBeforeAndWritesTheNotesOfThePicksShown() {
        // Genres spelled another way: folded once a ranking, still Claire's Animation.
        var library = Self.library([Self.claire])
        library.candidates[1].genres = ["ANIMATION", "family"]
        let top = MovieNight.rank(library, count: 1)
        #expect(top.map(\.candidate.title) == ["Paper Moon Fox"])
        #expect(top[0].taste == ["Claire rates animation higher than usual (10 films, +1.2)"])
        // The ranking's shift without the notes is the shift with them.
        let keys = Set(["Animation", "Family"].map(TitleKey.make))
        let bare = TasteEffect.of(keys: keys, tastes: [Self.claire], notes: false)
        let full = TasteEffect.of(["Animation", "Family"], tastes: [Self.claire])
        #expect(bare.shift == full.shift && abs(bare.shift - 1.2) < 1e-9 && bare.notes.isEmpty && full.notes.count == 1)
        #expect(bare.lean == full.lean && abs(bare.lean - 0.3) < 1e-9)
    }

    @Test func aMemberWithNoRatingsChangesNothingAndAWatcherWithoutTasteCountsAsAgreeing() {
        let leo = MemberTaste(member: "Leo", samples: [])
        #expect(leo.isEmpty && leo.lean == 0)
        let alone = MovieNight.rank(Self.library([leo]), count: 5)
        #expect(alone.map(\.candidate.title) == ["Night Screams", "Paper Moon Fox"])
        #expect(alone.allSatisfy { $0.taste.isEmpty && $0.predicted == Self.base($0.candidate, Self.library([])) })
        // Together the mean of their predictions: Claire's lean and shift halved, still enough to move the pick.
        let together = MovieNight.rank(Self.library([Self.claire, leo]), count: 5)
        let base = Self.base(together[0].candidate, Self.library([]))
        #expect(abs((together[0].predicted ?? 0) - base - (0.3 + 1.2) / 2) < 1e-9)
        #expect(together.map(\.candidate.title) == ["Paper Moon Fox", "Night Screams"])
        // The reason shows the combined lift, not Claire's whole shift.
        #expect(together[0].taste == ["Claire rates animation higher than usual (10 films, +0.6)"])
    }

    @Test func aReasonRestsOnFiveFilmsAndALiftOfAtLeastThreeTenths() {
        // One Drama film 3 points above: a shift of 2.5 / 6, from one film, says nothing on the card.
        let once = MemberTaste(member: "Leo", samples: [TasteSample(own: 10, average: 7, genres: ["Drama"])])
        #expect(TasteEffect.of(["Drama"], tastes: [once]).notes.isEmpty)
        #expect(abs(TasteEffect.of(["Drama"], tastes: [once]).shift - 2.5 / 6) < 1e-9, "it still moves the score")
        // Ten Comedy films 1 above, ten Drama at the public rating and one Romance 1 below: a lean of 9 / 26 =
        // 0.35, Comedy 10 × 0.65 / 15 = 0.44 beyond it, Romance -1.35 / 6 = -0.22; a Comedy-Romance, 0.11 in all.
        let mild = MemberTaste(
            member: "Ann",
            samples: Array(repeating: TasteSample(own: 8, average: 7, genres: ["Comedy"]), count: 10)
                + Array(repeating: TasteSample(own: 7, average: 7, genres: ["Drama"]), count: 10)
                + [TasteSample(own: 6, average: 7, genres: ["Romance"])])
        #expect(TasteEffect.of(["Comedy"], tastes: [mild]).notes.count == 1, "alone, 0.4 earns a reason")
        #expect(TasteEffect.of(["Comedy", "Romance"], tastes: [mild]).notes.isEmpty)
        // Split between two of the movie's genres she rated, Animation's 1.2 is 0.6 of its lift.
        let both = TasteEffect.of(["Horror", "Animation", "Science Fiction"], tastes: [Self.claire])
        #expect(both.notes == ["Claire rates animation higher than usual (10 films, +0.6)"])
        #expect(
            TasteEffect.spoken("Science Fiction") == "science fiction" && TasteEffect.spoken("TV Movie") == "TV movie")
    }

    @Test func twoWatchersWhoLikeAGenreShareOneReasonWithTheirCombinedLift() {
        // Ann: six Animation films 2 above, six Drama at the public rating.
        let ann = MemberTaste(
            member: "Ann",
            samples: Array(repeating: TasteSample(own: 9, average: 7, genres: ["Animation"]), count: 6)
                + Array(repeating: TasteSample(own: 7, average: 7, genres: ["Drama"]), count: 6))
        let annAnimation = ann.shift(for: ["Animation"]).value
        #expect(abs(ann.lean - 12.0 / 17) < 1e-9 && abs(annAnimation - 6 * (2 - 12.0 / 17) / 11) < 1e-9)
        // Claire's 1.2 and Ann's 0.71, each halved: 0.95 in all.
        let effect = TasteEffect.of(["Animation"], tastes: [Self.claire, ann])
        #expect(abs(effect.shift - (1.2 + annAnimation) / 2) < 1e-9)
        #expect(effect.notes == ["Claire and Ann rate animation higher than usual (10 and 6 films, +1.0)"])
        // Someone who likes it less takes from the lift shown: Ann's Horror, ten films 3 above beside ten Drama at
        // the public rating (1.2 beyond her lean of 1.2, halved 0.6), against Claire's -1.65 halved.
        let fan = MemberTaste(
            member: "Ann",
            samples: Array(repeating: TasteSample(own: 10, average: 7, genres: ["Horror"]), count: 10)
                + Array(repeating: TasteSample(own: 7, average: 7, genres: ["Drama"]), count: 10))
        #expect(abs(fan.shift(for: ["Horror"]).value - 1.2) < 1e-9)
        #expect(TasteEffect.of(["Horror"], tastes: [fan]).notes.count == 1)
        #expect(TasteEffect.of(["Horror"], tastes: [Self.claire, fan]).notes.isEmpty)
    }

    @Test func whereItStreamsForTheFamily() {
        let netflix = ProviderOffer(kind: .flatrate, id: 8, name: "Netflix")
        let hulu = ProviderOffer(kind: .flatrate, id: 15, name: "Hulu")
        let tubi = ProviderOffer(kind: .ads, id: 73, name: "Tubi")
        let apple = ProviderOffer(kind: .rent, id: 2, name: "Apple TV")
        let google = ProviderOffer(kind: .rent, id: 3, name: "Google Play Movies")
        let ours = ServiceMatcher(["netflix", "337"])
        #expect(NightWhere.of([apple, netflix, tubi], services: ours, region: "US").text == "On Netflix")
        #expect(NightWhere.of([apple, hulu, tubi], services: ours, region: "US").text == "Free on Tubi")
        #expect(NightWhere.of([apple, hulu], services: ours, region: "US").text == "On Hulu, not one of ours")
        #expect(
            NightWhere.of([apple, google], services: ours, region: "US").text
                == "Rent on Apple TV or Google Play Movies")
        #expect(NightWhere.of([], services: ours, region: "GB").text == "Not streaming in GB")
        #expect(NightWhere.of(nil, services: ours, region: "US").kind == .unknown)
        #expect(NightWhere.of([apple, netflix], services: ours, region: "US").short == "Netflix")
        #expect(NightWhere.of([apple], services: ours, region: "US").short == "rent: Apple TV")
    }
}
