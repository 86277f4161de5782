import Foundation
import MustCore

/// The movie page's "Where to watch in {region}" and its runtime, certification and genres, with the
/// JustWatch credit TMDB asks for and a link to TMDB's own watch page for the movie.
struct TonightSection: Sendable {
    struct Kind: Sendable {
        var heading: String
        var names: String
    }

    var facts: String?
    var region: String
    var kinds: [Kind]
    /// Said when there is nothing to list: never read yet, or no offer in the region.
    var none: String?
    var watchLink: String?

    init(_ tonight: MovieTonight, region: String, remoteId: Int?) {
        self.region = region
        let parts =
            [tonight.runtime.map(NightFilters.minutes), tonight.certification]
            .compactMap { $0 }
            + [tonight.genres.isEmpty ? nil : tonight.genres.joined(separator: ", ")].compactMap { $0 }
        facts = parts.isEmpty ? nil : Shown.text(parts.joined(separator: " · "))
        let offers = tonight.providers ?? []
        kinds = ProviderKind.allCases.compactMap { kind in
            let names = offers.filter { $0.kind == kind }.map(\.name)
            return names.isEmpty ? nil : Kind(heading: kind.heading, names: Shown.text(names.joined(separator: ", ")))
        }
        none =
            tonight.providers == nil
            ? "Not read yet: the next check of this movie asks TMDB."
            : (offers.isEmpty ? "No offer in \(region) for now." : nil)
        watchLink = remoteId.map { "https://www.themoviedb.org/movie/\($0)/watch?locale=\(region)" }
    }

    static let template = """
        <section aria-labelledby="watch-heading">
        {{#facts}}<p class="facts"><bdi>{{facts}}</bdi></p>{{/facts}}
        <h2 id="watch-heading">Where to watch in {{region}}</h2>
        {{^empty(kinds)}}<dl class="watch">{{#kinds}}<dt>{{heading}}</dt><dd><bdi>{{names}}</bdi></dd>{{/kinds}}</dl>{{/empty(kinds)}}
        {{#none}}<p>{{none}}</p>{{/none}}
        <p class="credit">Streaming data from JustWatch, through TMDB.{{#watchLink}} <a href="{{watchLink}}" rel="external">Every offer on TMDB</a>{{/watchLink}}</p>
        </section>
        """
}
