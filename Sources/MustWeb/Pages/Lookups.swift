import Mustache

// The rows a page repeats answer Mustache's lookups by name directly: Mustache otherwise finds each value through
// Mirror, which made a 200-movie member page take 70-115 ms to render against 2 ms for the same report as JSON
// (release build, loaded 2-core machine). A name not listed climbs to the enclosing context, as with Mirror.

extension MovieCard: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "id": id
        case "title": title
        case "year": year
        case "href": href
        case "poster": poster
        case "rating": rating
        case "rated": rated
        case "move": move
        case "votes": votes
        case "watched": watched
        case "own": own
        case "spark": spark
        case "sparkLabel": sparkLabel
        case "reference": reference
        case "back": back
        case "isWatched": isWatched
        case "removeHref": removeHref
        case "options": options
        case "edit": edit
        default: nil
        }
    }
}

extension MovieCard.Option: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "value": value
        case "selected": selected
        default: nil
        }
    }
}

extension MemberEdit: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "csrf": csrf
        case "addAction": addAction
        case "watchedAction": watchedAction
        case "ratingAction": ratingAction
        default: nil
        }
    }
}

extension Shown.Move: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "arrow": arrow
        case "word": word
        case "size": size
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

extension MemberPage.Link: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "label": label
        case "href": href
        case "current": current
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
        case "showing": showing
        case "search": search
        case "sortValue": sortValue
        case "showValue": showValue
        case "viewLine": viewLine
        case "sorts": sorts
        case "filters": filters
        case "cards": cards
        case "previous": previous
        case "next": next
        case "pageLine": pageLine
        case "emptyNote": emptyNote
        case "edit": edit
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
        case "lastChange": lastChange
        case "members": members
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

extension MoviePage.Chart: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "id": id
        case "caption": caption
        case "line": line
        case "ticks": ticks
        case "summary": summary
        default: nil
        }
    }
}

extension HomePage.Member: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "name": self.name
        case "href": href
        case "count": count
        case "strip": strip
        default: nil
        }
    }
}

extension PageError: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "title", "heading": heading
        case "message": message
        default: nil
        }
    }
}
