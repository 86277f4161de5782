extension Templates {
    static let night = """
        {{<layout}}{{$main}}
        <h1>Movie night</h1>
        {{^empty(members)}}
        <form method="get" action="/night" class="night">
        <fieldset>
        <legend>Who is watching?</legend>
        {{#members}}
        <label for="{{id}}"><input type="checkbox" id="{{id}}" name="member" value="{{name}}"{{#checked}} checked{{/checked}}> {{name}}</label>
        {{/members}}
        </fieldset>
        <label for="include-watched"><input type="checkbox" id="include-watched" name="watched" value="include"{{#includeWatched}} checked{{/includeWatched}}> Include movies someone has watched</label>
        <p><button type="submit">Pick</button></p>
        </form>
        {{/empty(members)}}
        {{^members}}<p>No members yet. Add one with <code>mustc add &lt;member&gt; &lt;movie&gt;</code>.</p>{{/members}}
        {{#heading}}<h2>{{heading}}</h2>{{/heading}}
        {{^empty(picks)}}
        <ol class="picks">
        {{#picks}}
        <li>{{#href}}<a href="{{href}}">{{shown}}</a>{{/href}}{{^href}}{{shown}}{{/href}}<br><span class="why">{{why}}</span></li>
        {{/picks}}
        </ol>
        {{/empty(picks)}}
        {{#note}}<p>{{note}}</p>{{/note}}
        {{/main}}{{/layout}}
        """

    static let home = """
        {{<layout}}{{$main}}
        <h1>The family</h1>
        <p class="fetch">{{fetch}}</p>
        <p class="fetch">{{checks}}</p>
        <section aria-labelledby="members">
        <h2 id="members">Members</h2>
        {{^empty(members)}}
        <table>
        <thead><tr><th scope="col">Member</th><th scope="col">Movies</th></tr></thead>
        <tbody>
        {{#members}}
        <tr><th scope="row"><a href="{{href}}">{{name}}</a></th><td>{{movies}}</td></tr>
        {{/members}}
        </tbody>
        </table>
        {{/empty(members)}}
        {{^members}}<p>No members yet. Add one with <code>mustc add &lt;member&gt; &lt;movie&gt;</code>.</p>{{/members}}
        </section>
        <section aria-labelledby="changed">
        <h2 id="changed">Changed in the last 7 days</h2>
        {{^empty(changes)}}{{>changeRows}}{{/empty(changes)}}
        {{#allChanges}}<p><a href="/changes?since=7d">{{allChanges}}</a></p>{{/allChanges}}
        {{^changes}}<p>Nothing changed in the last 7 days.</p>{{/changes}}
        </section>
        {{/main}}{{/layout}}
        """

    static let member = """
        {{<layout}}{{$main}}
        <h1>{{name}}</h1>
        <p>{{count}}; trends over {{window}}.</p>
        <nav class="sort" aria-label="Sort by">Sort by: {{#sorts}}{{#current}}<strong aria-current="true">{{label}}</strong> {{/current}}{{^current}}<a href="{{href}}">{{label}}</a> {{/current}}{{/sorts}}</nav>
        {{^empty(movies)}}
        <table class="cards">
        <thead><tr><th scope="col">Movie</th><th scope="col">Year</th><th scope="col">Rating</th><th scope="col">Votes</th><th scope="col">Popularity</th><th scope="col">Rating over {{window}}</th></tr></thead>
        <tbody>
        {{#movies}}
        <tr><th scope="row">{{#poster}}{{>poster}}{{/poster}}{{#href}}<a href="{{href}}">{{shown}}</a>{{/href}}{{^href}}{{shown}}{{/href}}</th><td data-label="Year">{{year}}</td><td data-label="Rating">{{rating}}{{#trend}} <span class="{{direction}}">{{trend}}</span>{{/trend}}</td><td data-label="Votes">{{votes}}</td><td data-label="Popularity">{{popularity}}</td><td data-label="Rating over {{window}}">{{#spark}}<svg class="spark" viewBox="0 0 {{width}} {{height}}" width="{{width}}" height="{{height}}" role="img" aria-label="{{sparkLabel}}"><title>{{sparkLabel}}</title><polyline points="{{points}}"/></svg>{{/spark}}{{^spark}}–{{/spark}}</td></tr>
        {{/movies}}
        </tbody>
        </table>
        {{/empty(movies)}}
        {{^movies}}<p>No movies on this list yet.</p>{{/movies}}
        {{/main}}{{/layout}}
        """

    static let movie = """
        {{<layout}}{{$main}}
        <h1>{{shown}}</h1>
        {{#poster}}{{>poster}}{{/poster}}
        <dl class="figures">
        <dt>Rating</dt><dd>{{rating}}</dd>
        <dt>Votes</dt><dd>{{votes}}</dd>
        <dt>Popularity</dt><dd>{{popularity}}</dd>
        <dt>Figures from</dt><dd>{{updated}}</dd>
        <dt>Last checked</dt><dd>{{lastChecked}}</dd>
        <dt>Next check</dt><dd>{{nextCheck}}</dd>
        <dt>Kept by</dt><dd>{{#keepers}}<a href="{{href}}">{{name}}</a> {{/keepers}}{{^keepers}}nobody{{/keepers}}</dd>
        </dl>
        <p class="links">{{#tmdb}}<a href="{{tmdb}}" rel="noreferrer noopener">TMDB page</a> {{/tmdb}}{{#imdb}}<a href="{{imdb}}" rel="noreferrer noopener">IMDb page</a>{{/imdb}}{{^tmdb}}Not linked to TMDB yet: see <a href="/status">status</a>.{{/tmdb}}</p>
        <section aria-labelledby="history-heading">
        <h2 id="history-heading">History</h2>
        {{#charts}}
        <figure class="chart">
        <figcaption id="chart-{{id}}">{{caption}}, {{first}} to {{last}}</figcaption>
        {{#line}}
        <div class="plot">
        <span class="axis">{{high}}</span>
        <svg viewBox="0 0 {{width}} {{height}}" preserveAspectRatio="none" role="img" aria-labelledby="chart-{{id}} chart-{{id}}-figures"><polyline points="{{points}}"/></svg>
        <span class="axis">{{low}}</span>
        </div>
        <p class="figures-text" id="chart-{{id}}-figures">{{caption}}: {{#figures}}{{.}} {{/figures}}</p>
        {{/line}}
        </figure>
        {{/charts}}
        {{^charts}}<p>No figures yet: the next fetch looks this movie up.</p>{{/charts}}
        {{^empty(history)}}
        <details>
        <summary>Every recorded figure ({{count(history)}})</summary>
        <table>
        <thead><tr><th scope="col">When</th><th scope="col">Rating</th><th scope="col">Votes</th><th scope="col">Popularity</th></tr></thead>
        <tbody>
        {{#history}}<tr><th scope="row">{{at}}</th><td>{{rating}}</td><td>{{votes}}</td><td>{{popularity}}</td></tr>
        {{/history}}
        </tbody>
        </table>
        </details>
        {{/empty(history)}}
        </section>
        {{/main}}{{/layout}}
        """

    static let changes = """
        {{<layout}}{{$main}}
        <h1>Changes</h1>
        <form method="get" action="/changes"><label for="since">Since</label> <input id="since" name="since" value="{{sinceValue}}" size="12"> <button type="submit">Show</button></form>
        <p>Movies whose ratings changed since {{since}}, newest first.</p>
        {{^empty(changes)}}{{>changeRows}}{{/empty(changes)}}
        {{^changes}}<p>No changes since {{since}}.</p>{{/changes}}
        {{/main}}{{/layout}}
        """

    static let status = """
        {{<layout}}{{$main}}
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
        <ul>{{#failing}}<li>{{title}}: {{reason}}</li>{{/failing}}</ul>
        {{/empty(failing)}}
        {{#unresolved}}<h2>Movies without a TMDB id yet</h2><p>{{unresolved}}</p>{{/unresolved}}
        {{^empty(choices)}}
        <h2>Movies that need a choice</h2>
        <p>No TMDB title matched these exactly. Pick one with <code>mustc resolve</code>.</p>
        {{#choices}}
        <section class="choice"><h3>{{shown}}</h3>{{#keptBy}}<p>Kept by {{keptBy}}.</p>{{/keptBy}}
        <ul>{{#candidates}}<li><a href="{{href}}" rel="noreferrer noopener">{{shown}}</a></li>{{/candidates}}</ul>
        </section>
        {{/choices}}
        {{/empty(choices)}}
        {{^empty(hook)}}<h2>The newData hook</h2>{{#hook}}<p>{{.}}</p>{{/hook}}{{/empty(hook)}}
        {{/main}}{{/layout}}
        """
}
