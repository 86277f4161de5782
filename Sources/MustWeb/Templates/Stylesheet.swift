/// The one stylesheet, served from `/static/site.css` so that the pages' policy needs no inline styles.
/// Phones first: poster cards two to a row at 360 px and more on wider screens; every tap target at least 44 px
/// square (2.75 rem); a wide table becomes one card per row below 40 rem.
enum Stylesheet {
    static let css = """
        :root { color-scheme: light dark; --bg: #fdfdfb; --fg: #1d1d1f; --muted: #5f6368; --line: #d6d6d0;
          --card: #f3f3ef; --poster: #dfe3ea; --poster-fg: #2b3440; --accent: #0b57d0; --up: #137333;
          --down: #b3261e; --chart: #0b57d0; --button: #0b57d0; --button-fg: #fff; }
        @media (prefers-color-scheme: dark) {
          :root { --bg: #121212; --fg: #e8e8e6; --muted: #a8a8a4; --line: #3a3a38; --card: #1e1e1e;
            --poster: #2c3440; --poster-fg: #dfe6f0; --accent: #8ab4f8; --up: #81c995; --down: #f28b82;
            --chart: #8ab4f8; --button: #8ab4f8; --button-fg: #0b1b33; }
        }
        * { box-sizing: border-box; }
        html { -webkit-text-size-adjust: 100%; }
        body { margin: 0 auto; max-width: 80rem; padding: 0 1rem 2rem; background: var(--bg); color: var(--fg);
          font: 16px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; overflow-wrap: anywhere; }
        a { color: var(--accent); }
        a, button, select, input, summary { min-height: 2.75rem; }
        a { display: inline-flex; align-items: center; min-width: 2.75rem; }
        button, .button { display: inline-flex; align-items: center; justify-content: center; min-width: 2.75rem;
          padding: 0 .9rem; border: 1px solid var(--button); border-radius: .5rem; background: var(--button);
          color: var(--button-fg); font: inherit; font-weight: 600; text-decoration: none; cursor: pointer; }
        .button { background: transparent; color: var(--accent); }
        input, select { font: inherit; color: inherit; background: var(--bg); border: 1px solid var(--muted);
          border-radius: .5rem; padding: 0 .6rem; min-width: 2.75rem; }
        summary { display: flex; align-items: center; cursor: pointer; color: var(--accent); }
        .vh { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
        .skip { position: absolute; left: -100vw; top: .5rem; background: var(--bg); padding: 0 1rem; }
        .skip:focus { left: 1rem; z-index: 1; }
        main:focus { outline: none; }
        header nav { display: flex; gap: 0; flex-wrap: wrap; padding: .25rem 0; border-bottom: 1px solid var(--line); }
        header nav a { padding: 0 .45rem; text-decoration: none; }
        header nav a[aria-current] { font-weight: 700; text-decoration: underline; text-underline-offset: .3em; }
        h1 { font-size: 1.5rem; margin: 1rem 0 .5rem; }
        h2 { font-size: 1.15rem; margin: 1.5rem 0 .5rem; }
        table { border-collapse: collapse; width: 100%; }
        th, td { text-align: left; padding: .35rem .5rem; border-bottom: 1px solid var(--line); vertical-align: top; }
        th { overflow-wrap: normal; }
        thead th { color: var(--muted); font-weight: 600; font-size: .875rem; }
        tbody th { font-weight: 600; }
        .up { color: var(--up); }
        .down { color: var(--down); }
        .fetch, .figures-text, figcaption, .count, .votes, .chip-label { color: var(--muted); }
        .session { display: flex; flex-wrap: wrap; align-items: center; gap: .5rem; margin: .5rem 0; }
        .profiles { display: grid; grid-template-columns: repeat(auto-fill, minmax(8.5rem, 1fr)); gap: .75rem;
          list-style: none; padding: 0; }
        .profiles form { margin: 0; }
        .profile { display: flex; flex-direction: column; align-items: center; justify-content: center; gap: .35rem;
          width: 100%; min-height: 7.5rem; padding: .75rem; box-sizing: border-box; border: 1px solid var(--line);
          border-radius: .75rem; background: var(--card); color: var(--fg); font-weight: 600; text-decoration: none; }
        .profile .initial { display: flex; align-items: center; justify-content: center; width: 3rem; height: 3rem;
          border-radius: 50%; background: var(--button); color: var(--button-fg); font-size: 1.5rem; }
        .profile .kind { color: var(--muted); font-weight: 400; }
        .notice { border: 2px solid var(--accent); border-radius: .5rem; padding: .25rem 1rem; margin: .75rem 0; }
        .notice.error { border-color: var(--down); }
        .notice form { display: inline-block; margin: 0 .5rem .5rem 0; }
        .row { display: flex; gap: .5rem; }
        .row input { flex: 1; min-width: 0; }
        form.add, form.search { margin: .5rem 0; max-width: 36rem; }
        form.add label, form.search label { display: block; font-weight: 600; }
        .chips { display: flex; flex-wrap: wrap; align-items: center; gap: .25rem .5rem; margin: .25rem 0; }
        .chips a { padding: 0 .75rem; border: 1px solid var(--line); border-radius: 1.375rem; text-decoration: none; }
        .chips a[aria-current] { background: var(--button); color: var(--button-fg); border-color: var(--button); }
        .chip-label { min-width: 2.75rem; font-size: .875rem; }
        ul.cards { list-style: none; padding: 0; margin: 1rem 0; display: grid; gap: 1rem .75rem;
          grid-template-columns: repeat(auto-fill, minmax(9rem, 1fr)); }
        .card { display: flex; flex-direction: column; gap: .2rem; min-width: 0; }
        .card h2 { font-size: 1rem; margin: .25rem 0 0; line-height: 1.25; }
        .card h2 a { display: flex; }
        .card p { margin: 0; }
        .meta { display: flex; flex-wrap: wrap; gap: 0 .5rem; align-items: baseline; }
        .rating { font-weight: 700; font-size: 1.1rem; }
        .move { font-size: .875rem; font-weight: 600; color: var(--muted); }
        .move.up { color: var(--up); }
        .move.down { color: var(--down); }
        .mark { overflow-wrap: normal; }
        details.view { margin: .25rem 0; }
        .votes { font-size: .875rem; display: flex; flex-wrap: wrap; align-items: center; gap: .5rem; }
        .mark { font-size: .875rem; }
        .poster { display: block; width: 100%; height: auto; aspect-ratio: 2 / 3; border-radius: .5rem;
          background: var(--poster); overflow: hidden; }
        img.poster { object-fit: cover; }
        .poster.placeholder { display: flex; align-items: center; justify-content: center; padding: .5rem;
          text-align: center; font-size: .875rem; font-weight: 600; color: var(--poster-fg); }
        .strip .poster.placeholder { font-size: .625rem; padding: .2rem; }
        footer { margin-top: 2rem; padding-top: .75rem; border-top: 1px solid var(--line); color: var(--muted);
          font-size: .8rem; }
        .controls { display: flex; flex-direction: column; gap: .4rem; margin-top: .4rem; }
        .controls form { margin: 0; }
        .controls button, .controls .button { width: 100%; padding: 0 .4rem; font-size: .9rem; }
        .controls .rate { display: flex; gap: .4rem; }
        .controls .rate select { flex: 1; }
        .controls .rate button { width: auto; }
        .pages { display: flex; flex-wrap: wrap; align-items: center; justify-content: space-between; gap: .5rem; }
        ul.members { list-style: none; padding: 0; display: grid; gap: 1rem;
          grid-template-columns: repeat(auto-fill, minmax(15rem, 1fr)); }
        .member a { display: flex; flex-direction: column; align-items: stretch; gap: .25rem; padding: .5rem;
          border: 1px solid var(--line); border-radius: .75rem; background: var(--card); text-decoration: none; }
        .strip { display: grid; grid-template-columns: repeat(4, 1fr); gap: .35rem; }
        .who { font-weight: 700; font-size: 1.1rem; text-decoration: underline; }
        .member .count { color: var(--fg); }
        ul.moved li, ul.keepers li { margin: .25rem 0; }
        .movie-head { display: grid; grid-template-columns: 7rem 1fr; gap: 1rem; align-items: start; margin-top: 1rem; }
        .movie-head h1 { margin-top: 0; }
        .movie-head .year { font-weight: 400; }
        .big .rating { font-size: 1.75rem; }
        svg polyline { fill: none; stroke: var(--chart); stroke-width: 2; vector-effect: non-scaling-stroke;
          stroke-linejoin: round; stroke-linecap: round; }
        svg.spark { display: block; }
        figure.chart { margin: 1rem 0; }
        .plot { display: grid; grid-template-columns: 1fr; }
        .plot svg { width: 100%; height: 8rem; border-left: 1px solid var(--line); border-bottom: 1px solid var(--line); }
        .axis, .ticks { font-size: .75rem; color: var(--muted); }
        .ticks { display: flex; justify-content: space-between; }
        dl.figures { display: grid; grid-template-columns: max-content 1fr; gap: .25rem 1rem; }
        dl.figures dt { color: var(--muted); }
        dl.figures dd { margin: 0; }
        form.night fieldset { border: 1px solid var(--line); display: flex; flex-wrap: wrap; gap: .5rem 1.25rem; }
        form.night label { display: inline-flex; align-items: center; gap: .35rem; min-height: 2.75rem; }
        /* A label and its control wrap together: as separate flex items, "Genre" ended a line at 360 px and its
           list began the next. */
        form.night .field { display: inline-flex; align-items: center; gap: .35rem; }
        form.night .hint { color: var(--muted); align-self: center; }
        ul.left-out { padding-left: 1.25rem; }
        ul.left-out li { margin: .25rem 0; min-height: 1.5rem; }
        input[type=checkbox] { min-height: 0; width: 1.5rem; height: 1.5rem; }
        ol.picks, ol.suggestions { list-style: none; padding: 0; }
        ul.nights { list-style: none; padding: 0; }
        ul.nights li { margin: .5rem 0; }
        ul.nights p { margin: .25rem 0; }
        ul.nights h3 { display: inline; font-size: 1em; font-weight: normal; }
        form.undo-night { display: inline; margin-left: .35rem; }
        /* "Today: Up, with Claire and Leo · Undo": the dot only while the Undo follows the line itself (a rating's
           notice comes between them), and unspoken. */
        ul.nights h3:has(+ form.undo-night)::after { content: " ·" / ""; }
        form.rate-night { display: flex; flex-wrap: wrap; align-items: center; gap: .5rem; margin: .25rem 0; }
        ol.picks li.pick, ol.suggestions li.pick { margin: 1rem 0; display: flex; gap: .75rem; align-items: flex-start; }
        ol.picks li.pick .poster, ol.suggestions li.pick .poster { flex: none; width: 6rem; }
        .pick-text { min-width: 0; display: flex; flex-direction: column; gap: .25rem; }
        .pick-text h3 { margin: 0; font-size: 1.05rem; }
        .pick-text p { margin: 0; overflow-wrap: anywhere; }
        .pick-text .facts, .pick-text .where { font-size: .875rem; }
        .pick-text .overview { font-size: .9rem; }
        .why { color: var(--muted); font-size: .875rem; }
        .new-actions { display: flex; flex-wrap: wrap; gap: .5rem; margin-top: .25rem; }
        .new-actions form { max-width: 100%; }
        .new-actions button { max-width: 100%; overflow-wrap: anywhere; padding: .35rem .9rem; }
        p.quiet { color: var(--muted); }
        .choice form { display: inline-block; margin: 0 .5rem .5rem 0; }
        .poster.placeholder::after { content: attr(data-title); }
        .setting { display: flex; flex-wrap: wrap; align-items: center; gap: .5rem; margin: .5rem 0; }
        form.settings fieldset { border: 1px solid var(--line); display: flex; flex-direction: column; gap: .25rem; }
        form.settings label { display: flex; flex-wrap: wrap; align-items: center; gap: .35rem; min-height: 2.75rem; }
        @media (max-width: 40rem) {
          table.cards thead { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); }
          table.cards tr { display: grid; grid-template-columns: 1fr 1fr; gap: 0 .75rem; padding: .5rem 0;
            border-bottom: 1px solid var(--line); }
          table.cards th, table.cards td { display: block; border: 0; padding: .1rem 0; }
          table.cards tbody th { grid-column: 1 / -1; }
          table.cards td::before { content: attr(data-label) ": "; color: var(--muted); font-size: .875rem; }
        }

        """

    /// The tab's icon, so browsers do not ask for a /favicon.ico that is not there.
    static let icon = """
        <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect width="16" height="16" rx="3" fill="#0b57d0"/>\
        <polyline points="2,12 6,8 9,10 14,4" fill="none" stroke="#fff" stroke-width="2"/></svg>

        """
}
