import Foundation
import HTTPTypes
import Hummingbird
import MustCore
import Mustache

/// Renders the sign-in page, the confirmation, and the forms a signed-in viewer sees on the pages; the layout and
/// navigation are the pages' own templates.
struct EditPages: Sendable {
    let library: MustacheLibrary

    init() throws {
        var library = MustacheLibrary()
        for (name, source) in Templates.all.merging(EditTemplates.all, uniquingKeysWith: { page, _ in page }) {
            try library.register(source, named: name)
        }
        self.library = library
    }

    func render(_ model: Any, _ template: String) -> String {
        library.render(model, withTemplate: template) ?? ""
    }

    func page(_ model: Any, _ template: String, status: HTTPResponse.Status = .ok) -> Response {
        var response = Site.response(render(model, template), type: "text/html; charset=utf-8", status: status)
        response.headers[.cacheControl] = "no-store"
        return response
    }

    /// A refusal as the pages' error page, with its status (403, 413, 429).
    func refusal(_ status: HTTPResponse.Status, heading: String, _ message: String) -> Response {
        var response = page(PageError(status: status, heading: heading, message: message), "error", status: status)
        response.headers[.cacheControl] = "no-store"
        return response
    }
}

// MARK: What the templates read.

struct SignInModel {
    var message: String?
    var off: String?
    var signedIn: Bool
    var form: Bool
    var csrf: String?
}

struct ConfirmRemoveModel {
    /// Shown (controls visible).
    var member: String
    var shown: String
    var movie: String
    var action: String
    var back: String
    var csrf: String
}

/// An edit's notice as the page shows it: every line and label may hold a title or a name, so each has its
/// controls made visible (the forms' hidden values keep the exact text).
struct NoticeModel {
    var lines: [String]
    var choices: [SettleChoice]
    var adds: [AddChoice]
    var isError: Bool

    init?(_ notice: EditNotice?) {
        guard let notice else { return nil }
        lines = notice.lines.map(Shown.text)
        choices = notice.choices.map {
            var choice = $0
            choice.label = Shown.text(choice.label)
            return choice
        }
        adds = notice.adds.map {
            var add = $0
            add.label = Shown.text(add.label)
            return add
        }
        isError = notice.isError
    }
}

struct BarModel {
    var csrf: String
    var notice: NoticeModel?
    /// "Watching as Leo": the profile chosen, shown with its controls made visible.
    var watching: String?
    /// The family password's rights, with a profile or without: the settings link.
    var parent: Bool
    var parentToo: Bool
    /// A profile chosen on "Who's watching?" can be switched; one a proxy names cannot.
    var canSwitch: Bool

    init(csrf: String, notice: NoticeModel?, access: PageAccess) {
        (self.csrf, self.notice) = (csrf, notice)
        watching = access.profile.map { Shown.text($0.name) }
        parent = access.parent
        parentToo = access.parent && access.profile != nil
        canSwitch = access.profile != nil && !access.fromProxy
    }
}

struct HomeFormsModel {
    var csrf: String
    var notice: NoticeModel?
}

struct MovieFormsModel {
    struct Keeper {
        var member: String
        var movie: String
        var back: String
        var choices: [SettleChoice]
        var hasCandidates: Bool

        init(member: String, movie: String, back: String, choices: [SettleChoice]) {
            self.member = member
            self.movie = movie
            self.back = back
            self.choices = choices
            hasCandidates = !choices.isEmpty
        }
    }

    var csrf: String
    var notice: NoticeModel?
    var keeper: Keeper?

    init(csrf: String, notice: NoticeModel? = nil, keeper: Keeper? = nil) {
        self.csrf = csrf
        self.notice = notice
        self.keeper = keeper
    }
}
