import MustCore

/// The page templates, embedded in the binary. Mustache `{{name}}` HTML-escapes everything it writes (quotes too,
/// so attributes are safe); no template uses the unescaped `{{{ }}}` form. A page inherits `layout` and fills its
/// `title` and `main` blocks; `nav` is the header every page shows.
enum Templates {
    /// Name → Mustache source; the names are the partials' names too.
    static let all: [String: String] = [
        "layout": layout, "nav": nav, "changeRows": changeRows,
        "home": home, "member": member, "movie": movie, "changes": changes, "status": status, "error": error,
        "night": night, "poster": poster,
    ]

    static let layout = """
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="color-scheme" content="light dark">
        <title>{{$title}}{{title}}{{/title}} · mustc</title>
        <link rel="stylesheet" href="/static/site.css">
        <link rel="icon" href="/static/icon.svg" type="image/svg+xml">
        </head>
        <body>
        {{>nav}}
        <main>
        {{$main}}{{/main}}
        </main>
        <footer><p>\(MustcVersion.tmdbNotice)</p></footer>
        </body>
        </html>

        """

    static let nav = """
        <header><nav aria-label="Pages"><a href="/">Family</a> <a href="/night">Movie night</a> <a href="/changes">Changes</a> <a href="/status">Status</a></nav></header>

        """

    static let error = """
        {{<layout}}{{$main}}
        <h1>{{heading}}</h1>
        <p>{{message}}</p>
        <p><a href="/">Back to the family</a></p>
        {{/main}}{{/layout}}
        """

    /// A movie's poster inside `{{#poster}}`: the image from this server, lazily loaded with its size set so nothing
    /// jumps, or the drawn placeholder with the title (PosterView.swift is the contract).
    static let poster = """
        {{#src}}<img class="poster" src="{{src}}"{{#srcset}} srcset="{{srcset}}"{{/srcset}} width="{{width}}" height="{{height}}" alt="{{alt}}" loading="lazy" decoding="async">{{/src}}{{#placeholder}}<span class="poster placeholder" role="img" aria-label="{{alt}}" data-title="{{title}}"></span>{{/placeholder}}
        """

    /// A table of changed movies, shared by the home page and `/changes`.
    static let changeRows = """
        <table class="cards">
        <thead><tr><th scope="col">Movie</th><th scope="col">Changes</th><th scope="col">Rating</th><th scope="col">Votes</th><th scope="col">Popularity</th><th scope="col">Last change</th></tr></thead>
        <tbody>
        {{#changes}}
        <tr><th scope="row">{{#href}}<a href="{{href}}">{{shown}}</a>{{/href}}{{^href}}{{shown}}{{/href}}</th><td data-label="Changes">{{changes}}</td><td data-label="Rating">{{rating}}</td><td data-label="Votes">{{votes}}</td><td data-label="Popularity">{{popularity}}</td><td data-label="Last change">{{lastChange}}</td></tr>
        {{/changes}}
        </tbody>
        </table>

        """
}
