/// The one stylesheet, served from `/static/site.css` so that the pages' policy needs no inline styles.
/// Phones first: at most 40 rem wide, and a wide table becomes one card per row below 40 rem.
enum Stylesheet {
    static let css = """
        :root { color-scheme: light dark; --bg: #fdfdfb; --fg: #1d1d1f; --muted: #5f6368; --line: #d6d6d0;
          --accent: #0b57d0; --up: #137333; --down: #b3261e; --chart: #0b57d0; }
        @media (prefers-color-scheme: dark) {
          :root { --bg: #121212; --fg: #e8e8e6; --muted: #a8a8a4; --line: #3a3a38; --accent: #8ab4f8;
            --up: #81c995; --down: #f28b82; --chart: #8ab4f8; }
        }
        * { box-sizing: border-box; }
        html { -webkit-text-size-adjust: 100%; }
        body { margin: 0 auto; max-width: 60rem; padding: 0 1rem 2rem; background: var(--bg); color: var(--fg);
          font: 16px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; overflow-wrap: anywhere; }
        a { color: var(--accent); }
        header nav { display: flex; gap: 1rem; flex-wrap: wrap; padding: .75rem 0; border-bottom: 1px solid var(--line); }
        h1 { font-size: 1.5rem; margin: 1rem 0 .5rem; }
        h2 { font-size: 1.15rem; margin: 1.5rem 0 .5rem; }
        table { border-collapse: collapse; width: 100%; }
        th, td { text-align: left; padding: .35rem .5rem; border-bottom: 1px solid var(--line); vertical-align: top; }
        thead th { color: var(--muted); font-weight: 600; font-size: .875rem; }
        tbody th { font-weight: 600; }
        .up { color: var(--up); }
        .down { color: var(--down); }
        .fetch, .figures-text, figcaption { color: var(--muted); }
        .figures-text { font-size: .875rem; }
        .sort { margin: .5rem 0 1rem; }
        svg polyline { fill: none; stroke: var(--chart); stroke-width: 2; vector-effect: non-scaling-stroke;
          stroke-linejoin: round; stroke-linecap: round; }
        svg.spark { display: block; }
        figure.chart { margin: 1rem 0; }
        .plot { display: grid; grid-template-columns: 1fr; }
        .plot svg { width: 100%; height: 8rem; border-left: 1px solid var(--line); border-bottom: 1px solid var(--line); }
        .axis { font-size: .75rem; color: var(--muted); }
        dl.figures { display: grid; grid-template-columns: max-content 1fr; gap: .25rem 1rem; }
        dl.figures dt { color: var(--muted); }
        dl.figures dd { margin: 0; }
        input, button { font: inherit; }
        form.night fieldset { border: 1px solid var(--line); display: flex; flex-wrap: wrap; gap: .5rem 1.25rem; }
        form.night label { display: inline-flex; align-items: center; gap: .35rem; min-height: 2.75rem; }
        form.night button { min-height: 2.75rem; padding: 0 1.25rem; }
        ol.picks li { margin: .5rem 0; }
        .why { color: var(--muted); font-size: .875rem; }
        .poster { display: block; width: 120px; max-width: 100%; height: auto; aspect-ratio: 2 / 3;
          border-radius: 4px; margin: 0 0 .35rem; background: var(--line); }
        h1 + .poster { width: 171px; }
        .poster.placeholder { display: flex; align-items: center; justify-content: center; padding: .5rem;
          text-align: center; font-size: .8rem; color: var(--muted); border: 1px dashed var(--muted);
          overflow: hidden; }
        .poster.placeholder::after { content: attr(data-title); }
        footer { margin-top: 2rem; padding-top: .75rem; border-top: 1px solid var(--line); color: var(--muted);
          font-size: .8rem; }
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
