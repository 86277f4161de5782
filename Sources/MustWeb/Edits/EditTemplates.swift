/// The sign-in page, the removal's confirmation, and the forms a signed-in page gains. Every value goes through
/// Mustache's escaping `{{ }}`; every form posts to this site with the session's CSRF token.
enum EditTemplates {
    static let all: [String: String] = [
        "signin": signin, "confirmRemove": confirmRemove, "notice": notice, "csrf": csrf, "signedInBar": signedInBar,
        "signedInTop": signedInTop, "signedOutBar": signedOutBar, "homeForms": homeForms, "movieForms": movieForms,
        "settleButton": settleButton, "addButton": addButton, "settings": settings, "profiles": profiles,
        "profilePin": profilePin,
    ]

    /// "Who's watching?": a button for each member (a link to the PIN's page for one with a PIN), and "Parent" for
    /// the family password. The initial is decoration: the button's name is the member's.
    static let profiles = """
        {{<layout}}{{$title}}Who's watching?{{/title}}{{$main}}
        <h1>Who's watching?</h1>
        {{#message}}<p class="notice error" role="alert">{{message}}</p>{{/message}}
        {{#off}}<p>Profiles can't be chosen now: {{off}}.</p>{{/off}}{{#note}}<p>{{note}}</p>{{/note}}
        <ul class="profiles">
        {{#choices}}<li>{{#pinHref}}<a class="profile" href="{{pinHref}}"><span class="initial" aria-hidden="true">{{initial}}</span> <bdi>{{name}}</bdi>{{#kid}} <span class="kind">(kid)</span>{{/kid}}</a>{{/pinHref}}{{^pinHref}}<form method="post" action="{{action}}">{{>csrf}}<button class="profile" type="submit"><span class="initial" aria-hidden="true">{{initial}}</span> <bdi>{{name}}</bdi>{{#kid}} <span class="kind">(kid)</span>{{/kid}}</button></form>{{/pinHref}}</li>
        {{/choices}}<li><a class="profile" href="/signin"><span class="initial" aria-hidden="true">★</span> Parent</a></li>
        </ul>
        {{/main}}{{/layout}}
        """

    static let profilePin = """
        {{<layout}}{{$title}}{{name}}{{/title}}{{$main}}
        <h1>Watch as <bdi>{{name}}</bdi></h1>
        {{#message}}<p class="notice error" role="alert">{{message}}</p>{{/message}}
        <form method="post" action="{{action}}">{{>csrf}}{{#hasPin}}<p><label for="pin"><bdi>{{name}}</bdi>'s PIN</label> <input id="pin" name="pin" type="password" inputmode="numeric" pattern="[0-9]*" minlength="4" maxlength="8" required autocomplete="off" autofocus></p>{{/hasPin}}
        <p><button type="submit">Watch as <bdi>{{name}}</bdi></button> <a href="/profiles">Someone else</a></p></form>
        {{/main}}{{/layout}}
        """

    static let csrf = #"<input type="hidden" name="csrf" value="{{csrf}}">"#

    /// "Watching as Leo · Switch", or the family password's bar as it always was. Switch ends the session, as sign-out
    /// does, and opens "Who's watching?".
    static let signedInBar = """
        <form class="session" method="post" action="/signout">{{>csrf}}{{#watching}}Watching as <bdi>{{watching}}</bdi>{{#parentToo}}, with the family password{{/parentToo}}. {{/watching}}{{^watching}}Signed in: you can edit the lists. {{/watching}}{{#parent}}<a href="/settings">Settings</a> {{/parent}}{{#canSwitch}}<button type="submit" formaction="/switch">Switch</button> {{/canSwitch}}<button type="submit">Sign out</button></form>

        """

    /// A signed-in page's top: the bar, then the last edit's notice, focused when the page opens so that a screen
    /// reader reads it first and the result is on the first screen.
    static let signedInTop = """
        {{>signedInBar}}{{>notice}}
        """

    static let signedOutBar = """
        <p class="session"><a href="/signin">Sign in to edit</a></p>

        """

    static let notice = """
        {{#notice}}<section class="notice{{#isError}} error{{/isError}}" role="status" aria-live="polite" tabindex="-1" autofocus aria-label="What happened">{{#lines}}<p><bdi>{{.}}</bdi></p>{{/lines}}
        {{#choices}}{{>settleButton}}{{/choices}}{{#adds}}{{>addButton}}{{/adds}}</section>{{/notice}}

        """

    /// One answer to "which one?": adds the named movie to the member's list (or, `another`, asks TMDB).
    static let addButton = """
        <form method="post" action="{{action}}">{{>csrf}}<input type="hidden" name="movie" value="{{movie}}">{{#another}}<input type="hidden" name="another" value="1">{{/another}}{{#typed}}<input type="hidden" name="typed" value="1">{{/typed}}{{#back}}<input type="hidden" name="back" value="{{back}}">{{/back}}<button type="submit"><bdi>{{label}}</bdi></button></form>

        """

    static let settleButton = """
        <form class="settle" method="post" action="/settle">{{>csrf}}<input type="hidden" name="member" value="{{member}}"><input type="hidden" name="movie" value="{{movie}}"><input type="hidden" name="target" value="{{target}}"><input type="hidden" name="back" value="{{back}}"><button type="submit"><bdi>{{label}}</bdi></button></form>

        """

    static let homeForms = """
        {{>notice}}<section aria-labelledby="add-member"><h2 id="add-member">Add a member</h2>
        <form method="post" action="/members">{{>csrf}}<p><label for="member">Name</label> <input id="member" name="member" required maxlength="200" autocomplete="off"></p>
        <p><label for="first-movie">Their first movie</label> <input id="first-movie" name="movie" required maxlength="500" autocomplete="off" placeholder="Title (Year), tmdb:ID or a link"></p>
        <p><button type="submit">Add</button></p></form></section>

        """

    static let movieForms = """
        {{>notice}}{{#keeper}}<section aria-labelledby="settle"><h2 id="settle">Which movie is it?</h2>
        {{#hasCandidates}}<p>No TMDB title matched exactly. Pick one:</p>{{#choices}}{{>settleButton}}{{/choices}}{{/hasCandidates}}
        <form method="post" action="/settle">{{>csrf}}<input type="hidden" name="member" value="{{member}}"><input type="hidden" name="movie" value="{{movie}}"><input type="hidden" name="back" value="{{back}}"><p><label for="target">It is another movie (a remake, say)</label> <input id="target" name="target" required maxlength="500" autocomplete="off" placeholder="tmdb:ID, imdb:ttID or a link"> <button type="submit">Settle</button></p></form>
        </section>{{/keeper}}

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
        <h1>Remove <bdi>{{shown}}</bdi> from <bdi>{{member}}</bdi>'s list?</h1>
        <p>A movie nobody keeps any more is deleted, with its history.</p>
        <form method="post" action="{{action}}">{{>csrf}}<input type="hidden" name="movie" value="{{movie}}"><input type="hidden" name="back" value="{{back}}"><p><button type="submit">Remove it</button> <a href="{{back}}">Keep it</a></p></form>
        {{/main}}{{/layout}}
        """
}
