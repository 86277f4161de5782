import Foundation

/// One provider's offer in the stub's answers, as TMDB writes it inside `watch/providers`.
public struct StubOffer: Sendable, Equatable {
    public var id: Int
    public var name: String

    public init(id: Int, name: String) { (self.id, self.name) = (id, name) }

    public static let netflix = StubOffer(id: 8, name: "Netflix")
    public static let disneyPlus = StubOffer(id: 337, name: "Disney Plus")
    public static let plex = StubOffer(id: 538, name: "Plex")
    public static let rokuChannel = StubOffer(id: 207, name: "The Roku Channel")
    public static let appleTV = StubOffer(id: 2, name: "Apple TV")
    public static let amazonVideo = StubOffer(id: 10, name: "Amazon Video")
}

/// What the stub appends for a movie (`append_to_response=release_dates,watch/providers`) and puts in its
/// details' `runtime` and `genres`: the US as the tests set it, and filler countries at real sizes (a popular
/// movie has about 50 countries of release dates and 80 of providers, some 80 KB with its details).
public struct StubExtras: Sendable, Equatable {
    public var runtime: Int?
    public var genres: [String]
    /// The US theatrical certification exactly as sent (trailing spaces and all); nil: the US has none.
    public var certification: String?
    /// The US offers by kind ("flatrate", "free", "ads", "rent", "buy"); a kind with none is left out.
    public var offers: [String: [StubOffer]]
    /// Countries of filler beside the US.
    public var releaseCountries: Int
    public var providerCountries: Int

    public init(
        runtime: Int? = 106, genres: [String] = ["Comedy"], certification: String? = "PG",
        offers: [String: [StubOffer]] = [:], releaseCountries: Int = 3, providerCountries: Int = 4
    ) {
        (self.runtime, self.genres, self.certification, self.offers) = (runtime, genres, certification, offers)
        (self.releaseCountries, self.providerCountries) = (releaseCountries, providerCountries)
    }

    /// A movie's extras until a test sets them: varied by id, real-sized for a popular movie.
    public static func standard(for movie: StubMovie) -> StubExtras {
        let id = movie.id
        let ratings = ["G", "PG", "PG-13 ", "R", ""]
        var offers: [String: [StubOffer]] = ["rent": [.appleTV, .amazonVideo], "buy": [.appleTV, .amazonVideo]]
        switch id % 3 {
        case 0: offers["flatrate"] = [.netflix]
        case 1: offers["flatrate"] = [.disneyPlus]
        default: break
        }
        if id % 5 == 0 { offers["free"] = [.plex] }
        if id % 7 == 0 { offers["ads"] = [.rokuChannel] }
        let popular = movie.popularity >= 20
        return StubExtras(
            runtime: 80 + id % 70,
            genres: Array(Set([genreNames[id % genreNames.count], genreNames[(id / 7) % genreNames.count]])).sorted(),
            certification: ratings[id % ratings.count], offers: offers, releaseCountries: popular ? 50 : 3,
            providerCountries: popular ? 80 : 4)
    }

    static let genreNames = ["Comedy", "Drama", "Animation", "Family", "Science Fiction", "Horror", "Romance"]
    static let genreIds = [
        "Comedy": 35, "Drama": 18, "Animation": 16, "Family": 10751, "Science Fiction": 878, "Horror": 27,
        "Romance": 10749,
    ]

    /// TMDB's country codes, enough for the filler; the US is always its own entry.
    static let countries: [String] = {
        let letters = Array("ABCDEFGHIJKLMNOPRSTUVWZ")
        var codes = ["GB", "DE", "FR", "JP", "KR", "BR", "CA", "AU", "IT", "ES", "NL", "SE", "MX", "IN"]
        for first in letters {
            for second in letters where codes.count < 120 {
                let code = String([first, second])
                if code != "US", !codes.contains(code) { codes.append(code) }
            }
        }
        return codes
    }()

    var genresField: [[String: Any]] {
        genres.map { ["id": Self.genreIds[$0] ?? 99, "name": $0] }
    }

    /// `release_dates`: the US (a premiere without a certification, then the theatrical release), then filler
    /// countries whose entries lack `note` or `descriptors` now and then and carry free-text certifications.
    var releaseDates: [String: Any] {
        var results: [[String: Any]] = []
        var us: [[String: Any]] = [
            [
                "certification": "", "descriptors": [Any](), "iso_639_1": "", "note": "Premiere",
                "release_date": "2021-09-03T00:00:00.000Z", "type": 1,
            ]
        ]
        if let certification {
            us.append([
                "certification": certification, "iso_639_1": "", "release_date": "2021-10-22T00:00:00.000Z",
                "type": 3,
            ])
        }
        us.append([
            "certification": "", "descriptors": [Any](), "iso_639_1": "", "note": "", "type": 4,
            "release_date": "2021-11-22T00:00:00.000Z",
        ])
        let filler = ["12", "PG12 ", "MA 15+", "15세 이상 관람가", "", "16", "k-12", "21+"]
        for (index, code) in Self.countries.prefix(releaseCountries).enumerated() {
            var entry: [String: Any] = [
                "certification": filler[index % filler.count], "iso_639_1": "",
                "release_date": "2021-10-\(10 + index % 18)T00:00:00.000Z", "type": 3,
            ]
            if index % 3 != 0 { entry["descriptors"] = [Any]() }
            if index % 4 != 0 { entry["note"] = index % 2 == 0 ? "Festival" : "" }
            let digital: [String: Any] = [
                "certification": "", "descriptors": [Any](), "iso_639_1": "", "note": "",
                "release_date": "2022-01-1\(index % 10)T00:00:00.000Z", "type": 4,
            ]
            results.append(["iso_3166_1": code, "release_dates": [digital, entry]])
        }
        results.insert(["iso_3166_1": "US", "release_dates": us], at: min(5, results.count))
        return ["results": results]
    }

    /// `watch/providers`: the US as set (when it has offers), then filler countries with several kinds each.
    func watchProviders(movieId: Int) -> [String: Any] {
        func entries(_ offers: [StubOffer]) -> [[String: Any]] {
            offers.enumerated().map { index, offer in
                [
                    "logo_path": "/logo\(offer.id).jpg", "provider_id": offer.id, "provider_name": offer.name,
                    "display_priority": index + 1,
                ]
            }
        }
        var results: [String: Any] = [:]
        let link = "https://www.themoviedb.org/movie/\(movieId)/watch?locale="
        if !offers.values.allSatisfy(\.isEmpty) {
            var us: [String: Any] = ["link": link + "US"]
            for (kind, list) in offers where !list.isEmpty { us[kind] = entries(list) }
            results["US"] = us
        }
        // About 9 offers a country, as real answers have (80 countries, some 68 KB of a popular movie's 80 KB).
        let local = (0..<4).map { StubOffer(id: 1000 + $0, name: "Local Service \($0 + 1)") }
        for (index, code) in Self.countries.prefix(providerCountries).enumerated() {
            var country: [String: Any] = ["link": link + code]
            country["flatrate"] = entries([.netflix] + local.prefix(index % 3))
            country["rent"] = entries([.appleTV, .amazonVideo, local[3]])
            country["buy"] = entries([.appleTV, .amazonVideo])
            if index % 3 == 0 { country["ads"] = entries([.rokuChannel]) }
            if index % 4 == 0 { country["free"] = entries([.plex]) }
            results[code] = country
        }
        return ["results": results]
    }

    /// `GET /certification/movie/list`: unsorted, a repeated order, NR at 0, an empty meaning, a non-country key.
    static var certificationList: [String: Any] {
        [
            "certifications": [
                "US": [
                    [
                        "certification": "R", "meaning": "Under 17 requires accompanying parent or adult guardian.",
                        "order": 4,
                    ],
                    ["certification": "G", "meaning": "All ages admitted.", "order": 1],
                    ["certification": "NC-17", "meaning": "No one 17 and under admitted.", "order": 5],
                    ["certification": "NR", "meaning": "", "order": 0],
                    [
                        "certification": "PG-13",
                        "meaning": "Some material may be inappropriate for children under 13.", "order": 3,
                    ],
                    ["certification": "PG", "meaning": "Some material may not be suitable for children.", "order": 2],
                ],
                "GB": [
                    ["certification": "U", "meaning": "Universal.", "order": 1],
                    ["certification": "PG", "meaning": "Parental guidance.", "order": 2],
                    ["certification": "12A", "meaning": "", "order": 3],
                    ["certification": "12", "meaning": "", "order": 3],
                    ["certification": "15", "meaning": "", "order": 5],
                    ["certification": "18", "meaning": "", "order": 6],
                    ["certification": "R18", "meaning": "", "order": 7],
                ],
                "CA-QC": [
                    ["certification": "G", "meaning": "", "order": 1],
                    ["certification": "13+", "meaning": "", "order": 2],
                ],
            ]
        ]
    }
}
