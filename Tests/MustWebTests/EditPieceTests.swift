import Foundation
import HTTPTypes
import MustCore
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
