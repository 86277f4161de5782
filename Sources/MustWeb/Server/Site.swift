import Foundation
import HTTPTypes
import Hummingbird
import Mustache

/// The parsed templates, and the responses the pages send.
struct Site: Sendable {
    let library: MustacheLibrary

    init() throws {
        var library = MustacheLibrary()
        for (name, source) in Templates.all { try library.register(source, named: name) }
        self.library = library
    }

    func page(_ model: Any, template: String, status: HTTPResponse.Status = .ok) -> Response {
        let html = PageInsert.apply(library.render(model, withTemplate: template) ?? "")
        return Self.response(html, type: "text/html; charset=utf-8", status: status)
    }

    /// An error page titled by its heading; its message may echo what was asked, so its controls are made
    /// visible like any other untrusted text.
    func errorPage(_ error: PageError) -> Response {
        var shown = error
        shown.message = Shown.text(error.message)
        return page(shown, template: "error", status: error.status)
    }

    static func json(_ text: String) -> Response {
        response(text + "\n", type: "application/json; charset=utf-8")
    }

    static func response(_ text: String, type: String, status: HTTPResponse.Status = .ok) -> Response {
        Response(
            status: status, headers: [.contentType: type], body: .init(byteBuffer: ByteBuffer(string: text)))
    }
}

/// A page that cannot be shown, and why: rendered as an HTML page with its status.
struct PageError: Error, Sendable {
    var status: HTTPResponse.Status
    var heading: String
    var message: String

    static func notFound(_ message: String) -> PageError {
        PageError(status: .notFound, heading: "Not found", message: message)
    }

    static func badRequest(_ message: String) -> PageError {
        PageError(status: .badRequest, heading: "Bad request", message: message)
    }
}
