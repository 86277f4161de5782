/// The sign-in page, the removal's confirmation, and the forms a signed-in page gains. Every value goes through
/// Mustache's escaping `{{ }}`; every form posts to this site with the session's CSRF token.
enum EditTemplates {
    static let all: [String: String] = [
        "signin": signin, "confirmRemove": confirmRemove, "notice": notice, "csrf": csrf, "signedInBar": signedInBar,
        "signedOutBar": signedOutBar, "homeForms": homeForms, "memberForms": memberForms, "movieForms": movieForms,
        "statusForms": statusForms, "settleButton": settleButton,
    ]

    static let csrf = #"<input type="hidden" name="csrf" value="{{csrf}}">"#

    static let signedInBar = """
        <form class="session" method="post" action="/signout">{{>csrf}}Signed in: you can edit the lists. <button type="submit">Sign out</button></form>

        """

    static let signedOutBar = """
        <p class="session"><a href="/signin">Sign in to edit</a></p>

        """

    static let notice = """
        {{#notice}}<section class="notice{{#isError}} error{{/isError}}" role="status" aria-live="polite">{{#lines}}<p>{{.}}</p>{{/lines}}
        {{#choices}}{{>settleButton}}{{/choices}}</section>{{/notice}}

        """

    static let settleButton = """
        <form class="settle" method="post" action="/settle">{{>csrf}}<input type="hidden" name="member" value="{{member}}"><input type="hidden" name="movie" value="{{movie}}"><input type="hidden" name="target" value="{{target}}"><input type="hidden" name="back" value="{{back}}"><button type="submit">{{label}}</button></form>

        """

    static let homeForms = """
        {{>notice}}<section aria-labelledby="add-member"><h2 id="add-member">Add a member</h2>
        <form method="post" action="/members">{{>csrf}}<p><label for="member">Name</label> <input id="member" name="member" required maxlength="200" autocomplete="off"></p>
        <p><label for="first-movie">Their first movie</label> <input id="first-movie" name="movie" required maxlength="500" autocomplete="off" placeholder="Title (Year), tmdb:ID or a link"></p>
        <p><button type="submit">Add</button></p></form></section>

        """

    static let memberForms = """
        {{>notice}}<section aria-labelledby="edit-list"><h2 id="edit-list">Edit this list</h2>
        <form method="post" action="{{addAction}}">{{>csrf}}<p><label for="movie">Add a movie</label> <input id="movie" name="movie" required maxlength="500" autocomplete="off" placeholder="Title (Year), tmdb:ID or a link"> <button type="submit">Add</button></p></form>
        {{#hasMovies}}<h3>Remove a movie</h3><ul class="remove">{{#movies}}<li><a href="{{href}}">Remove {{shown}}…</a></li>{{/movies}}</ul>{{/hasMovies}}
        </section>

        """

    static let movieForms = """
        {{>notice}}{{#keeper}}<section aria-labelledby="settle"><h2 id="settle">Which movie is it?</h2>
        {{#hasCandidates}}<p>No TMDB title matched exactly. Pick one:</p>{{#choices}}{{>settleButton}}{{/choices}}{{/hasCandidates}}
        <form method="post" action="/settle">{{>csrf}}<input type="hidden" name="member" value="{{member}}"><input type="hidden" name="movie" value="{{movie}}"><input type="hidden" name="back" value="{{back}}"><p><label for="target">It is another movie (a remake, say)</label> <input id="target" name="target" required maxlength="500" autocomplete="off" placeholder="tmdb:ID, imdb:ttID or a link"> <button type="submit">Settle</button></p></form>
        </section>{{/keeper}}

        """

    static let statusForms = """
        {{>notice}}{{#hasMovies}}<section aria-labelledby="settle"><h2 id="settle">Settle the movies that need a choice</h2>
        {{#movies}}<h3>{{shown}}</h3>{{#choices}}{{>settleButton}}{{/choices}}{{/movies}}
        </section>{{/hasMovies}}

        """

    static let signin = """
        {{<layout}}{{$title}}Sign in{{/title}}{{$main}}
        <h1>Sign in</h1>
        {{#message}}<p class="notice error" role="alert">{{message}}</p>{{/message}}
        {{#off}}<p>Edits from this page are off: {{off}}.</p>{{/off}}
        {{#signedIn}}<p>You are signed in: the member, movie and status pages have forms.</p>
        <form method="post" action="/signout">{{>csrf}}<button type="submit">Sign out</button></form>{{/signedIn}}
        {{#form}}<form method="post" action="/signin"><p><label for="password">The family's password</label> <input id="password" name="password" type="password" required autocomplete="current-password"></p>
        <p><button type="submit">Sign in</button></p></form>
        <p>Signed in, this browser can add, remove and settle movies for 30 days after its last visit. Anyone on the network can read the lists without signing in.</p>{{/form}}
        {{/main}}{{/layout}}
        """

    static let confirmRemove = """
        {{<layout}}{{$title}}Remove {{shown}}{{/title}}{{$main}}
        <h1>Remove {{shown}} from {{member}}'s list?</h1>
        <p>A movie nobody keeps any more is deleted, with its history.</p>
        <form method="post" action="{{action}}">{{>csrf}}<input type="hidden" name="movie" value="{{movie}}"><p><button type="submit">Remove it</button> <a href="{{back}}">Keep it</a></p></form>
        {{/main}}{{/layout}}
        """
}
