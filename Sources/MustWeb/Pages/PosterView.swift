// The contract for the page templates: everything a template needs to show a movie's poster,
// or the placeholder when there is none. Templates use it as
//
//   {{#poster}}{{#src}}<img class="poster" src="{{src}}"{{#srcset}} srcset="{{srcset}}"{{/srcset}}
//     width="{{width}}" height="{{height}}" alt="{{alt}}" loading="lazy" decoding="async">{{/src}}
//   {{#placeholder}}<span class="poster placeholder" role="img" aria-label="{{alt}}" data-title="{{title}}"></span>
//   {{/placeholder}}{{/poster}}
//
// - `src` and `srcset` always point at this server (`/posters/{size}/{file}`), never at TMDB's image host: the
//   pages' CSP is `img-src 'self'`.
// - `width` and `height` are the size drawn, set on the element so nothing jumps while posters load lazily.
// - The placeholder is drawn by the stylesheet (`.poster.placeholder`, the same box), with the title in it as
//   generated content (`attr(data-title)`), so the row's text holds the title once.
// - A page model makes one with the poster path its row carries, after `PosterShelf.kept` (Pages does this on the
//   reader's threads): a path whose file is not on disk yet shows the placeholder, never a broken image.
import MustCore

struct PosterView: Sendable {
    /// Where the poster appears: in a list (w185, and w342 for a high-density screen), or on the movie's page.
    enum Place: Sendable {
        case list, page
    }

    /// `/posters/w185/abc.jpg`; nil when the movie has no poster on disk.
    var src: String?
    /// `/posters/w342/abc.jpg 2x` for lists; nil on the movie page, which shows w342 itself.
    var srcset: String?
    var width: Int
    var height: Int
    /// "Poster of Dune (2021)": the image's alternative text, and the placeholder's accessible name.
    var alt: String
    /// The movie as shown ("Dune (2021)"), drawn in the placeholder.
    var title: String

    /// True when there is no poster to show: the template draws the placeholder box instead.
    var placeholder: Bool { src == nil }

    /// - Parameter posterPath: the row's `posterPath` once `PosterShelf.kept` has confirmed it is on disk; a path
    ///   `PosterPath` refuses is treated as none.
    init(posterPath: String?, title: String, place: Place = .list) {
        let size: PosterSize = place == .list ? .w185 : .w342
        self.title = title
        alt = "Poster of \(title)"
        width = place == .list ? Self.listWidth : size.width
        height = place == .list ? Self.listHeight : size.height
        guard let posterPath, PosterPath.isValid(posterPath) else { return }
        src = Self.address(posterPath, size: size)
        if place == .list { srcset = Self.address(posterPath, size: .w342) + " 2x" }
    }

    /// A list draws its poster at 120 × 180 CSS pixels, beside the title on a 360 px phone: w185 covers a 1x
    /// screen and w342 a 2x or 3x phone (240 or 360 device pixels wide).
    static let listWidth = 120
    static let listHeight = 180

    /// `/posters/{size}/{file}`: the route `GET /posters/:size/:file` answers.
    static func address(_ posterPath: String, size: PosterSize) -> String {
        "/posters/\(size.rawValue)/\(PosterPath.fileName(posterPath))"
    }
}
