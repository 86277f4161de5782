extension Templates {
    static let night = """
        {{<layout}}{{$navNight}} aria-current="page"{{/navNight}}{{$main}}
        <h1>Movie night</h1>
        {{^empty(members)}}
        <form method="get" action="/night#picks" class="night">
        <fieldset>
        <legend>Who is watching?</legend>
        {{#members}}
        <label for="{{id}}"><input type="checkbox" id="{{id}}" name="member" value="{{name}}"{{#checked}} checked{{/checked}}> <bdi>{{label}}</bdi></label>
        {{/members}}
        </fieldset>
        <fieldset class="tonight">
        <legend>Tonight</legend>
        <label for="include-watched"><input type="checkbox" id="include-watched" name="watched" value="include"{{#includeWatched}} checked{{/includeWatched}}> Include movies someone has watched</label>
        <span class="field"><label for="minutes">At most (minutes)</label> <input id="minutes" name="minutes" type="number" min="1" max="10000" inputmode="numeric" value="{{minutes}}"></span>
        {{^empty(ages)}}<span class="field"><label for="age">Age limit</label> <select id="age" name="age" aria-describedby="age-hint">{{#ages}}<option value="{{value}}"{{#selected}} selected{{/selected}}>{{label}}</option>{{/ages}}</select></span> <span class="hint" id="age-hint">Stricter than the members' own limits</span>{{/empty(ages)}}
        <label for="unrated"><input type="checkbox" id="unrated" name="unrated" value="include"{{#includeUnrated}} checked{{/includeUnrated}}> Include movies with no certification</label>
        {{#hasServices}}<label for="streaming"><input type="checkbox" id="streaming" name="streaming" value="on"{{#streaming}} checked{{/streaming}}> Only on our services</label>{{/hasServices}}
        <span class="field"><label for="genre">Genre</label> <select id="genre" name="genre">{{#genres}}<option value="{{value}}"{{#selected}} selected{{/selected}}>{{label}}</option>{{/genres}}</select></span>
        </fieldset>
        <p><button type="submit">Pick</button></p>
        </form>
        {{/empty(members)}}
        {{^members}}<p>No members yet: add them on the <a href="/">family page</a>.</p>{{/members}}
        {{#heading}}<h2 id="picks"><bdi>{{heading}}</bdi></h2>{{/heading}}
        {{#limitNote}}<p class="limit"><bdi>{{limitNote}}</bdi></p>{{/limitNote}}
        {{^empty(picks)}}
        <ol class="picks">
        {{#picks}}
        <li class="pick">{{#poster}}{{>poster}}{{/poster}}<div class="pick-text">
        <h3 id="{{id}}">{{#href}}<a href="{{href}}"><bdi>{{title}}</bdi></a>{{/href}}{{^href}}<bdi>{{title}}</bdi>{{/href}}{{#year}} <span class="year">({{year}})</span>{{/year}}</h3>
        {{#facts}}<p class="facts"><bdi>{{facts}}</bdi></p>{{/facts}}
        {{#overview}}<p class="overview"><bdi>{{overview}}</bdi></p>{{/overview}}
        {{#whereText}}<p class="where"><bdi>{{whereText}}</bdi></p>{{/whereText}}
        <p class="why"><bdi>{{why}}</bdi></p>
        {{#watch}}<form method="post" action="/night/watching"><input type="hidden" name="csrf" value="{{csrf}}"><input type="hidden" name="movie" value="{{movie}}">{{#watchers}}<input type="hidden" name="{{name}}" value="{{value}}">{{/watchers}}<input type="hidden" name="back" value="{{back}}"><button type="submit" aria-describedby="{{id}}">We're watching this</button></form>{{/watch}}
        </div></li>
        {{/picks}}
        </ol>
        {{/empty(picks)}}
        {{#note}}<p>{{note}}</p>{{/note}}
        {{#leftOutLine}}<p class="left-out">{{leftOutLine}}</p><ul class="left-out">{{#leftOut}}<li><bdi>{{text}}</bdi>{{#href}} <a href="{{href}}">Show them<span class="vh">: {{text}}</span></a>{{/href}}</li>{{/leftOut}}</ul>{{/leftOutLine}}
        {{^empty(suggestions)}}
        <section aria-labelledby="something-new">
        <h2 id="something-new">Something new</h2>
        <ol class="suggestions">
        {{#suggestions}}
        <li class="pick">{{#poster}}{{>poster}}{{/poster}}<div class="pick-text">
        <h3 id="{{id}}"><a href="{{href}}" rel="external"><bdi>{{title}}</bdi></a>{{#year}} <span class="year">({{year}})</span>{{/year}}</h3>
        {{#facts}}<p class="facts"><bdi>{{facts}}</bdi></p>{{/facts}}
        {{#overview}}<p class="overview"><bdi>{{overview}}</bdi></p>{{/overview}}
        {{#whereText}}<p class="where"><bdi>{{whereText}}</bdi></p>{{/whereText}}
        <p class="why"><bdi>{{why}}</bdi></p>
        {{#edit}}<div class="new-actions"><form method="post" action="/night/new/watching"><input type="hidden" name="csrf" value="{{csrf}}"><input type="hidden" name="movie" value="{{movie}}">{{#watchers}}<input type="hidden" name="{{name}}" value="{{value}}">{{/watchers}}<input type="hidden" name="back" value="{{back}}"><button type="submit" aria-describedby="{{id}}">We're watching this</button></form>{{#adds}}<form method="post" action="{{action}}"><input type="hidden" name="csrf" value="{{csrf}}"><input type="hidden" name="movie" value="{{movie}}"><input type="hidden" name="back" value="{{back}}"><button type="submit" aria-describedby="{{id}}"><span>Add to <bdi>{{member}}</bdi>'s list</span></button></form>{{/adds}}<form method="post" action="/night/not-for-us"><input type="hidden" name="csrf" value="{{csrf}}"><input type="hidden" name="movie" value="{{movie}}"><input type="hidden" name="back" value="{{back}}"><button type="submit" class="button" aria-describedby="{{id}}">Not for us</button></form></div>{{/edit}}
        </div></li>
        {{/suggestions}}
        </ol>
        </section>
        {{/empty(suggestions)}}
        {{#suggestNote}}<p class="quiet">{{suggestNote}}</p>{{/suggestNote}}
        {{/main}}{{/layout}}
        """

    static let home = """
        {{<layout}}{{$navFamily}} aria-current="page"{{/navFamily}}{{$main}}
        <h1>The family</h1>
        <p class="fetch">{{checked}}</p>
        <section aria-labelledby="members">
        <h2 id="members">Members</h2>
        {{^empty(members)}}
        <ul class="members">
        {{#members}}
        <li class="member"><a href="{{href}}"><span class="strip">{{#strip}}{{>poster}}{{/strip}}</span><span class="who"><bdi>{{name}}</bdi></span><span class="count">{{count}}</span></a></li>
        {{/members}}
        </ul>
        {{/empty(members)}}
        {{^members}}<p>No members yet: once signed in, add the first one here.</p>{{/members}}
        </section>
        {{#nights}}{{>nights}}{{/nights}}
        <section aria-labelledby="moved">
        <h2 id="moved">What moved this week</h2>
        {{^empty(moved)}}<ul class="moved">{{#moved}}<li><bdi>{{.}}</bdi></li>{{/moved}}</ul>{{/empty(moved)}}
        {{^moved}}<p>No rating moved by 0.1 or more this week.</p>{{/moved}}
        {{#movedMore}}<p>{{movedMore}} <a href="/changes?since=7d">Every change</a></p>{{/movedMore}}
        </section>
        {{/main}}{{/layout}}
        """

    static let member = """
        {{<layout}}{{$main}}
        <h1><bdi>{{name}}</bdi></h1>
        {{#edit}}<form class="add" method="post" action="{{addAction}}"><input type="hidden" name="csrf" value="{{csrf}}"><label for="add-movie">Add a movie</label><span class="row"><input id="add-movie" name="movie" required maxlength="500" autocomplete="off" placeholder="Title (Year), tmdb:ID or a link"><button type="submit">Add</button></span></form>{{/edit}}
        <p class="count">{{count}}{{#showing}} {{showing}}{{/showing}}</p>
        <form class="search" method="get" action=""><label for="q">Find a title</label><span class="row"><input id="q" name="q" type="search" value="{{search}}" maxlength="200"><input type="hidden" name="sort" value="{{sortValue}}"><input type="hidden" name="show" value="{{showValue}}"><button type="submit">Find</button></span></form>
        <details class="view"><summary>{{viewLine}}</summary>
        <nav class="chips" aria-label="Sort by"><span class="chip-label">Sort</span>{{#sorts}}<a href="{{href}}"{{#current}} aria-current="true"{{/current}}>{{label}}</a>{{/sorts}}</nav>
        <nav class="chips" aria-label="Show"><span class="chip-label">Show</span>{{#filters}}<a href="{{href}}"{{#current}} aria-current="true"{{/current}}>{{label}}</a>{{/filters}}</nav>
        </details>
        {{^empty(cards)}}
        <ul class="cards" aria-label="Movies">
        {{#cards}}{{>card}}{{/cards}}
        </ul>
        {{/empty(cards)}}
        {{#emptyNote}}<p>{{emptyNote}}</p>{{/emptyNote}}
        {{#pageLine}}<nav class="pages" aria-label="Pages of movies">{{#previous}}<a rel="prev" href="{{previous}}">Previous</a>{{/previous}}<span>{{pageLine}}</span>{{#next}}<a rel="next" href="{{next}}">Next</a>{{/next}}</nav>{{/pageLine}}
        {{/main}}{{/layout}}
        """

    /// One movie of a member's page; signed in, with its controls (each at least 44 px square).
    static let card = """
        <li class="card">{{#poster}}{{>poster}}{{/poster}}<h2 id="{{id}}">{{#href}}<a href="{{href}}"><bdi>{{title}}</bdi></a>{{/href}}{{^href}}<bdi>{{title}}</bdi>{{/href}}</h2>
        <p class="meta">{{#year}}<span class="year">{{year}}</span> {{/year}}<span class="rating">{{rating}}</span>{{#move}} <span class="move {{word}}">{{#arrow}}<span aria-hidden="true">{{arrow}}</span><span class="vh">{{word}}</span> {{/arrow}}{{size}}</span>{{/move}}</p>
        {{#rated}}<p class="votes">{{votes}}{{>spark}}</p>{{/rated}}
        {{#watched}}<p class="mark">✓ {{watched}}{{#own}} · {{own}}{{/own}}</p>{{/watched}}{{^watched}}{{#own}}<p class="mark">{{own}}</p>{{/own}}{{/watched}}
        {{#edit}}<div class="controls">
        <form method="post" action="{{watchedAction}}"><input type="hidden" name="csrf" value="{{csrf}}"><input type="hidden" name="movie" value="{{reference}}"><input type="hidden" name="back" value="{{back}}"><input type="hidden" name="card" value="{{id}}">{{#isWatched}}<input type="hidden" name="undo" value="1"><button type="submit" aria-describedby="{{id}}">Not watched</button>{{/isWatched}}{{^isWatched}}<button type="submit" aria-describedby="{{id}}">Watched today</button>{{/isWatched}}</form>
        <form method="post" action="{{ratingAction}}" class="rate"><input type="hidden" name="csrf" value="{{csrf}}"><input type="hidden" name="movie" value="{{reference}}"><input type="hidden" name="back" value="{{back}}"><input type="hidden" name="card" value="{{id}}"><label class="vh" for="{{id}}r">Your rating of <bdi>{{title}}</bdi></label><select id="{{id}}r" name="rating"><option value=""{{^own}} selected{{/own}}>–</option>{{#options}}<option{{#selected}} selected{{/selected}}>{{value}}</option>{{/options}}</select><button type="submit" aria-describedby="{{id}}">Rate</button></form>
        <a class="button" href="{{removeHref}}" aria-describedby="{{id}}">Remove…</a>
        </div>{{/edit}}</li>

        """

    static let movie = """
        {{<layout}}{{$main}}
        <div class="movie-head">{{#poster}}{{>poster}}{{/poster}}<div>
        <h1><bdi>{{name}}</bdi>{{#year}} <span class="year">({{year}})</span>{{/year}}</h1>
        {{#overview}}<p class="overview"><bdi>{{overview}}</bdi></p>{{/overview}}
        <p class="big"><span class="rating">{{rating}}</span> {{votes}}</p>
        </div></div>
        <section aria-labelledby="keepers-heading">
        <h2 id="keepers-heading">Kept by</h2>
        {{^empty(keepers)}}<ul class="keepers">{{#keepers}}<li><a href="{{href}}"><bdi>{{name}}</bdi></a> <span class="mark">{{mark}}</span></li>{{/keepers}}</ul>{{/empty(keepers)}}
        {{^keepers}}<p>Nobody keeps it any more.</p>{{/keepers}}
        </section>
        {{#tonight}}{{>tonight}}{{/tonight}}
        <section aria-labelledby="history-heading">
        <h2 id="history-heading">How it moved</h2>
        {{#charts}}
        <figure class="chart">
        <figcaption id="chart-{{id}}">{{caption}}</figcaption>
        {{#line}}
        <div class="plot">
        <span class="axis high">{{high}}</span>
        <svg viewBox="0 0 {{width}} {{height}}" preserveAspectRatio="none" role="img" aria-label="{{summary}}"><polyline points="{{points}}"/></svg>
        <span class="axis low">{{low}}</span>
        <span class="ticks" aria-hidden="true">{{#ticks}}<span>{{.}}</span>{{/ticks}}</span>
        </div>
        <details><summary>{{caption}}: the figures</summary><p class="figures-text">{{#figures}}{{.}} {{/figures}}</p></details>
        {{/line}}
        </figure>
        {{/charts}}
        {{^charts}}<p>No figures yet: the next fetch looks this movie up.</p>{{/charts}}
        {{^empty(history)}}
        <details>
        <summary>Every recorded figure ({{count(history)}})</summary>
        <table>
        <thead><tr><th scope="col">When</th><th scope="col">Rating</th><th scope="col">Votes</th><th scope="col">TMDB popularity</th></tr></thead>
        <tbody>
        {{#history}}<tr><th scope="row">{{at}}</th><td>{{rating}}</td><td>{{votes}}</td><td>{{popularity}}</td></tr>
        {{/history}}
        </tbody>
        </table>
        </details>
        {{/empty(history)}}
        </section>
        <section aria-labelledby="about-heading">
        <h2 id="about-heading">About these figures</h2>
        <dl class="figures">
        <dt>TMDB popularity</dt><dd>{{popularity}}</dd>
        <dt>Figures from</dt><dd>{{updated}}</dd>
        <dt>Last checked</dt><dd>{{lastChecked}}</dd>
        <dt>Next check</dt><dd>{{nextCheck}}</dd>
        </dl>
        <p class="links">{{#tmdb}}<a href="{{tmdb}}" rel="noreferrer noopener">TMDB page</a> {{/tmdb}}{{#imdb}}<a href="{{imdb}}" rel="noreferrer noopener">IMDb page</a>{{/imdb}}{{^tmdb}}Not linked to TMDB yet: see <a href="/status">status</a>.{{/tmdb}}</p>
        </section>
        {{/main}}{{/layout}}
        """

    static let changes = """
        {{<layout}}{{$navChanges}} aria-current="page"{{/navChanges}}{{$main}}
        <h1>Changes</h1>
        <form class="search" method="get" action="/changes"><label for="since">Since</label><span class="row"><input id="since" name="since" value="{{sinceValue}}" size="12"><button type="submit">Show</button></span></form>
        <p>Movies whose ratings changed since {{since}}, newest first.</p>
        {{^empty(changes)}}{{>changeRows}}{{/empty(changes)}}
        {{^changes}}<p>No rating changes since {{since}}.</p>{{/changes}}
        {{^empty(availability)}}<h2>On our services</h2><ul class="moved">{{#availability}}<li>{{#href}}<a href="{{href}}"><bdi>{{shown}}</bdi></a>{{/href}}{{^href}}<bdi>{{shown}}</bdi>{{/href}} {{what}}, {{at}}</li>{{/availability}}</ul>{{/empty(availability)}}
        {{/main}}{{/layout}}
        """

    static let status = """
        {{<layout}}{{$navStatus}} aria-current="page"{{/navStatus}}{{$main}}
        <h1>Status</h1>
        {{#schedule}}<p>{{.}}</p>
        {{/schedule}}
        <p>{{checks}}</p>
        {{^empty(runs)}}
        <h2>Recent runs</h2>
        <table class="cards">
        <thead><tr><th scope="col">Started</th><th scope="col">Result</th><th scope="col">Movies</th><th scope="col">Changed</th><th scope="col">Failed</th><th scope="col">Requests</th></tr></thead>
        <tbody>
        {{#runs}}<tr><th scope="row">{{started}}</th><td data-label="Result">{{result}}</td><td data-label="Movies">{{movies}}</td><td data-label="Changed">{{changed}}</td><td data-label="Failed">{{failed}}</td><td data-label="Requests">{{requests}}</td></tr>
        {{/runs}}
        </tbody>
        </table>
        {{/empty(runs)}}
        {{^empty(failing)}}
        <h2>Movies failing</h2>
        <ul>{{#failing}}<li><bdi>{{title}}</bdi>: <bdi>{{reason}}</bdi></li>{{/failing}}</ul>
        {{/empty(failing)}}
        {{#unresolved}}<h2>Movies without a TMDB id yet</h2><p><bdi>{{unresolved}}</bdi></p>{{/unresolved}}
        {{^empty(choices)}}
        <h2 id="settle">Movies that need a choice</h2>
        <p>No TMDB title matched these exactly. {{#csrf}}Pick one below.{{/csrf}}{{^csrf}}Sign in to pick one here.{{/csrf}}</p>
        {{#choices}}
        <section class="choice"><h3><bdi>{{shown}}</bdi></h3>{{#keptBy}}<p>Kept by <bdi>{{keptBy}}</bdi>.</p>{{/keptBy}}{{#held}}<p><bdi>{{.}}</bdi></p>{{/held}}
        <ul>{{#candidates}}<li>{{#settle}}<form class="settle" method="post" action="/settle"><input type="hidden" name="csrf" value="{{csrf}}"><input type="hidden" name="member" value="{{member}}"><input type="hidden" name="movie" value="{{movie}}"><input type="hidden" name="target" value="{{target}}"><input type="hidden" name="back" value="{{back}}"><button type="submit"><bdi>{{label}}</bdi></button></form> {{/settle}}<a href="{{href}}" rel="noreferrer noopener">TMDB page of <bdi>{{shown}}</bdi></a></li>{{/candidates}}</ul>
        </section>
        {{/choices}}
        {{/empty(choices)}}
        {{^empty(hook)}}<h2>The newData hook</h2>{{#hook}}<p><bdi>{{.}}</bdi></p>{{/hook}}{{/empty(hook)}}
        {{^empty(media)}}<h2>Media servers</h2>{{#media}}<p><bdi>{{.}}</bdi></p>{{/media}}{{/empty(media)}}
        {{^empty(notify)}}<h2>Notifications</h2>{{#notify}}<p><bdi>{{.}}</bdi></p>{{/notify}}{{/empty(notify)}}
        {{/main}}{{/layout}}
        """
}
