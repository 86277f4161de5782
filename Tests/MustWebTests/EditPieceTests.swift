import Foundation
import HTTPTypes
import Hummingbird
import MustCore
import NIOCore
import Testing

@testable import MustWeb

/// The page's edit pieces that need no server: where a form may send the browser, the cookie's attributes, the
/// session cookie read back, and the forms added to a rendered page.
@Suite struct EditPieceTests {
    @Test(
        arguments: [
            ("/movies/841", "/movies/841"), ("/status", "/status"), ("//evil.example/x", "/"),
            ("https://evil.example/", "/"), ("/\\evil", "/"), ("/a b", "/"), (nil, "/"), ("", "/"),
        ] as [(String?, String)])
    func aFormSendsTheBrowserOnlyToThisSite(_ back: String?, _ expected: String) {
        #expect(EditRoutes.sitePath(back) == expected)
    }

    @Test func theSessionCookieIsReadBackOnlyInItsShape() {
        let token = SessionToken.random()
        var headers = HTTPFields()
        headers[.cookie] = "theme=dark; mustc_session=\(token.value); other=1"
        #expect(WebEdits.sessionCookie(headers) == token)
        headers[.cookie] = "mustc_session=\(token.value.prefix(10))"
        #expect(WebEdits.sessionCookie(headers) == nil)
        headers[.cookie] = "not_mustc_session=\(token.value)"
        #expect(WebEdits.sessionCookie(headers) == nil)
    }

    @Test func aClearedCookieExpiresAtOnceWithTheSameAttributes() {
        #expect(
            WebEdits.clearedCookie(secure: true)
                == "mustc_session=; Path=/; Max-Age=0; HttpOnly; SameSite=Strict; Secure")
        #expect(!WebEdits.clearedCookie(secure: false).contains("Secure"))
    }

    @Test func theFormsGoAtTheStartAndEndOfMain() {
        let page = "<body>\n<main id=\"main\" tabindex=\"-1\">\n<h1>Ann</h1>\n</main>\n</body>"
        let changed = PageInsert.$current.withValue(PageInsert(top: "<p>bar</p>", bottom: "<form></form>")) {
            PageInsert.apply(page)
        }
        #expect(
            changed
                == "<body>\n<main id=\"main\" tabindex=\"-1\">\n<p>bar</p><h1>Ann</h1>\n<form></form></main>\n</body>")
        #expect(PageInsert.apply(page) == page)
    }

    @Test func aQueryValueKeepsItsAmpersandsAndPluses() {
        #expect(WebPath.queryEncoded("Fast & Furious + 1 (2009)") == "Fast%20%26%20Furious%20%2B%201%20%282009%29")
    }
}

/// A signed-in page is rendered once with a placeholder for the token, and each viewer gets their own put in.
@Suite struct SignedInPageTests {
    @Test func eachViewerGetsTheirOwnTokenAndNoticeInTheKeptPage() async throws {
        let html =
            "<main id=\"main\" tabindex=\"-1\">\n<form><input name=\"csrf\" value=\"\(EditSlot.csrf)\"></form>"
            + "<form><input name=\"csrf\" value=\"\(EditSlot.csrf)\"></form></main>"
        let kept = Site.response(html, type: "text/html; charset=utf-8")
        let (ann, bob) = (SessionToken.random(), SessionToken.random())
        let insert = PageInsert(top: "<p class=\"notice\">done</p>", bottom: "<p>forms</p>")
        let first = try await EditAccess.personalized(kept, token: ann, insert: insert)
        let second = try await EditAccess.personalized(
            Site.response(html, type: "text/html; charset=utf-8"), token: bob, insert: PageInsert(top: "", bottom: ""))
        let (one, two) = (
            String(buffer: try await PageCache.Page(first).body), String(buffer: try await PageCache.Page(second).body)
        )
        #expect(one.components(separatedBy: ann.csrfToken).count == 3 && !one.contains(EditSlot.csrf))
        #expect(!one.contains(bob.csrfToken) && two.contains(bob.csrfToken) && !two.contains(ann.csrfToken))
        #expect(one.hasPrefix("<main id=\"main\" tabindex=\"-1\">\n<p class=\"notice\">done</p><form>"))
        #expect(one.hasSuffix("</form><p>forms</p></main>"))
        #expect(!two.contains("notice") && two.hasSuffix("</form></main>"))
    }
}
