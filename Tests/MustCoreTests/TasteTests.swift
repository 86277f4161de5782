import Foundation
import MustCore
import Testing

/// Each member's taste: pure, from their own ratings beside TMDB's, shrunk and bounded, and the pick
/// it moves.
@Suite struct TasteTests {
    /// Claire rates ten Animation films 2.1 above TMDB and five Horror films 3 below.
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

    @Test func eachGenreIsShrunkByItsCountAndBounded() {
        // 10 × 2.1 / (10 + 5) = 1.4; 5 × -3 / (5 + 5) = -1.5.
        let animation = Self.claire.genres[TitleKey.make("animation")]
        #expect(animation?.films == 10 && abs((animation?.shift ?? 0) - 1.4) < 1e-9)
        #expect(abs((Self.claire.genres[TitleKey.make("Horror")]?.shift ?? 0) + 1.5) < 1e-9)
        // One film 3 points apart says little: 3 / 6.
        let once = MemberTaste(member: "Leo", samples: [TasteSample(own: 10, average: 7, genres: ["Drama"])])
        #expect(abs(once.shift(for: ["Drama"]).value - 0.5) < 1e-9)
        // Thirty films 5 points apart would be 4.3: bounded to 2.
        let strong = MemberTaste(
            member: "Max", samples: Array(repeating: TasteSample(own: 10, average: 5, genres: ["Comedy"]), count: 30))
        #expect(strong.shift(for: ["Comedy"]).value == 2)
        // A genre never rated carries nothing, and does not dilute the ones that were.
        #expect(abs(Self.claire.shift(for: ["Animation", "Family"]).value - 1.4) < 1e-9)
        #expect(Self.claire.shift(for: ["Western"]).value == 0 && Self.claire.shift(for: ["Western"]).strongest == nil)
    }

    @Test func tasteMovesAHorrorPickBelowAnAnimationOne() {
        let plain = MovieNight.rank(Self.library([]), count: 5)
        #expect(plain.map(\.candidate.title) == ["Night Screams", "Paper Moon Fox"])
        #expect(plain.allSatisfy { $0.taste.isEmpty && $0.predicted == $0.weighted })

        let picks = MovieNight.rank(Self.library([Self.claire]), count: 5)
        #expect(picks.map(\.candidate.title) == ["Paper Moon Fox", "Night Screams"])
        #expect(picks[0].taste == ["Claire rates animation higher than usual (10 films, +1.4)"])
        // Her Horror shift lowers Night Screams: no reason argues against the pick it explains.
        #expect(picks[1].taste == [])
        #expect(
            picks[0].why.hasSuffix("; Claire rates animation higher than usual (10 films, +1.4)"), "\(picks[0].why)")
        let weighted = picks[0].weighted ?? 0
        #expect(abs((picks[0].predicted ?? 0) - (weighted + 1.4)) < 1e-9)
    }

    @Test func theRankingFoldsGenresAsBeforeAndWritesTheNotesOfThePicksShown() {
        // Genres spelled another way: folded once a ranking, still Claire's Animation.
        var library = Self.library([Self.claire])
        library.candidates[1].genres = ["ANIMATION", "family"]
        let top = MovieNight.rank(library, count: 1)
        #expect(top.map(\.candidate.title) == ["Paper Moon Fox"])
        #expect(top[0].taste == ["Claire rates animation higher than usual (10 films, +1.4)"])
        // The ranking's shift without the notes is the shift with them.
        let keys = Set(["Animation", "Family"].map(TitleKey.make))
        let bare = TasteEffect.of(keys: keys, tastes: [Self.claire], notes: false)
        let full = TasteEffect.of(["Animation", "Family"], tastes: [Self.claire])
        #expect(bare.shift == full.shift && abs(bare.shift - 1.4) < 1e-9 && bare.notes.isEmpty && full.notes.count == 1)
    }

    @Test func aMemberWithNoRatingsChangesNothingAndAWatcherWithoutTasteCountsAsAgreeing() {
        let leo = MemberTaste(member: "Leo", samples: [])
        #expect(leo.isEmpty)
        let alone = MovieNight.rank(Self.library([leo]), count: 5)
        #expect(alone.map(\.candidate.title) == ["Night Screams", "Paper Moon Fox"])
        #expect(alone.allSatisfy { $0.taste.isEmpty && $0.predicted == $0.weighted })
        // Together the mean of their predictions: Claire's shift halved, still enough to move the pick here.
        let together = MovieNight.rank(Self.library([Self.claire, leo]), count: 5)
        #expect(abs((together[0].predicted ?? 0) - (together[0].weighted ?? 0) - 0.7) < 1e-9)
        #expect(together.map(\.candidate.title) == ["Paper Moon Fox", "Night Screams"])
        // The reason shows the combined lift, not Claire's whole shift.
        #expect(together[0].taste == ["Claire rates animation higher than usual (10 films, +0.7)"])
    }

    @Test func aReasonRestsOnFiveFilmsAndALiftOfAtLeastThreeTenths() {
        // One Drama film 3 points above: a shift of 0.5, from one film, says nothing on the card.
        let once = MemberTaste(member: "Leo", samples: [TasteSample(own: 10, average: 7, genres: ["Drama"])])
        #expect(TasteEffect.of(["Drama"], tastes: [once]).notes.isEmpty)
        #expect(abs(TasteEffect.of(["Drama"], tastes: [once]).shift - 0.5) < 1e-9, "it still moves the score")
        // Twenty Comedy films 0.3 above: shrunk to 0.24, under the bar.
        let mild = MemberTaste(
            member: "Ann", samples: Array(repeating: TasteSample(own: 7.3, average: 7, genres: ["Comedy"]), count: 20))
        #expect(TasteEffect.of(["Comedy"], tastes: [mild]).notes.isEmpty)
        // Split between two of the movie's genres she rated, Animation's 1.4 is 0.7 of its lift.
        let both = TasteEffect.of(["Horror", "Animation", "Science Fiction"], tastes: [Self.claire])
        #expect(both.notes == ["Claire rates animation higher than usual (10 films, +0.7)"])
        #expect(
            TasteEffect.spoken("Science Fiction") == "science fiction" && TasteEffect.spoken("TV Movie") == "TV movie")
    }

    @Test func twoWatchersWhoLikeAGenreShareOneReasonWithTheirCombinedLift() {
        let ann = MemberTaste(
            member: "Ann", samples: Array(repeating: TasteSample(own: 9, average: 7, genres: ["Animation"]), count: 6))
        // Claire 1.4 and Ann 6 × 2 / 11 = 1.09, each halved: 1.25 in all.
        let effect = TasteEffect.of(["Animation"], tastes: [Self.claire, ann])
        #expect(abs(effect.shift - (1.4 + 12.0 / 11) / 2) < 1e-9)
        #expect(effect.notes == ["Claire and Ann rate animation higher than usual (10 and 6 films, +1.2)"])
        // Someone who likes it less takes from the lift shown: Horror's -1.5 against Ann's 5 films of 2 above.
        let fan = MemberTaste(
            member: "Ann", samples: Array(repeating: TasteSample(own: 9, average: 7, genres: ["Horror"]), count: 5))
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
