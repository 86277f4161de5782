import MustCore

/// The page templates, embedded in the binary. Mustache `{{name}}` HTML-escapes everything it writes (quotes too,
/// so attributes are safe); no template uses the unescaped `{{{ }}}` form. A page inherits `layout` and fills its
/// `title` and `main` blocks, and the `nav…` block of its own link (`aria-current`). Untrusted text (titles,
/// names) reaches the templates with its control characters already visible (`Shown.text`) and sits in `<bdi>`.
enum Templates {
    /// Name → Mustache source; the names are the partials' names too.
    static let all: [String: String] = [
        "layout": layout, "changeRows": changeRows, "poster": poster, "spark": spark,
        "home": home, "member": member, "movie": movie, "changes": changes, "status": status, "error": error,
        "night": night, "card": card, "tonight": TonightSection.template, "nights": NightsSection.template,
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
        <a class="skip" href="#main">Skip to the content</a>
        <header><nav aria-label="Pages"><a href="/"{{$navFamily}}{{/navFamily}}>Family</a> <a href="/night"{{$navNight}}{{/navNight}}>Movie night</a> <a href="/changes"{{$navChanges}}{{/navChanges}}>Changes</a> <a href="/status"{{$navStatus}}{{/navStatus}}>Status</a></nav></header>
        <main id="main" tabindex="-1">
        {{$main}}{{/main}}
        </main>
        <footer><p>\(MustcVersion.tmdbNotice)</p></footer>
        </body>
        </html>

        """

    static let error = """
        {{<layout}}{{$title}}{{heading}}{{/title}}{{$main}}
        <h1>{{heading}}</h1>
        <p><bdi>{{message}}</bdi></p>
        <p><a href="/">Back to the family</a></p>
        {{/main}}{{/layout}}
        """

    /// A movie's poster inside `{{#poster}}`: the image from this server, lazily loaded with its size set so nothing
    /// jumps, or the drawn placeholder with the title (PosterView.swift is the contract).
    static let poster = """
        {{#src}}<img class="poster" src="{{src}}"{{#srcset}} srcset="{{srcset}}"{{/srcset}} width="{{width}}" height="{{height}}" alt="{{alt}}" loading="lazy" decoding="async">{{/src}}{{#placeholder}}<span class="poster placeholder" role="img" aria-label="{{alt}}" data-title="{{title}}" dir="auto"></span>{{/placeholder}}
        """

    /// A week's rating as a small line, y range at least 0.5 points, its figures in its label.
    static let spark = """
        {{#spark}}<svg class="spark" viewBox="0 0 {{width}} {{height}}" width="{{width}}" height="{{height}}" role="img" aria-label="{{sparkLabel}}"><polyline points="{{points}}"/></svg>{{/spark}}
        """

    /// A table of changed movies (`/changes`).
    static let changeRows = """
        <table class="cards">
        <thead><tr><th scope="col">Movie</th><th scope="col">Rating</th><th scope="col">Votes</th><th scope="col">Last change</th><th scope="col">Kept by</th></tr></thead>
        <tbody>
        {{#changes}}
        <tr><th scope="row">{{#href}}<a href="{{href}}"><bdi>{{shown}}</bdi></a>{{/href}}{{^href}}<bdi>{{shown}}</bdi>{{/href}}</th><td data-label="Rating">{{rating}}</td><td data-label="Votes">{{votes}}</td><td data-label="Last change">{{lastChange}}</td><td data-label="Kept by"><bdi>{{members}}</bdi></td></tr>
        {{/changes}}
        </tbody>
        </table>

        """
}
