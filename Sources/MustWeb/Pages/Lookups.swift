import Mustache

// The rows a page repeats answer Mustache's lookups by name directly: Mustache otherwise finds each value through
// Mirror, which made a 200-movie member page take 70-115 ms to render against 2 ms for the same report as JSON
// (release build, loaded 2-core machine). A name not listed climbs to the enclosing context, as with Mirror.

extension MemberPage.Row: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "shown": shown
        case "href": href
        case "year": year
        case "rating": rating
        case "trend": trend
        case "direction": direction
        case "votes": votes
        case "popularity": popularity
        case "spark": spark
        case "sparkLabel": sparkLabel
        case "poster": poster
        default: nil
        }
    }
}

extension ChartLine: MustacheParent {
    public func child(named name: String) -> Any? {
        switch name {
        case "width": width
        case "height": height
        case "points": points
        case "low": low
        case "high": high
        case "figures": figures
        default: nil
        }
    }
}

extension ChangeRow: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "shown": shown
        case "href": href
        case "changes": changes
        case "rating": rating
        case "votes": votes
        case "popularity": popularity
        case "lastChange": lastChange
        case "members": members
        case "poster": poster
        default: nil
        }
    }
}

extension PosterView: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "src": src
        case "srcset": srcset
        case "width": width
        case "height": height
        case "alt": alt
        case "title": title
        case "placeholder": placeholder
        default: nil
        }
    }
}

extension MoviePage.HistoryRow: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "at": at
        case "rating": rating
        case "votes": votes
        case "popularity": popularity
        default: nil
        }
    }
}

extension MemberPage: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "title": title
        case "name": self.name
        case "count": count
        case "window": window
        case "sorts": sorts
        case "movies": movies
        default: nil
        }
    }
}

extension MoviePage.Chart: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "id": id
        case "caption": caption
        case "line": line
        case "first": first
        case "last": last
        default: nil
        }
    }
}

extension HomePage.Member: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "name": self.name
        case "href": href
        case "movies": movies
        default: nil
        }
    }
}
