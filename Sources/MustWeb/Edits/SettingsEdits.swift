import Foundation
import HTTPTypes
import Hummingbird
import MustCore

/// The family's settings on the page, signed in: each member's age limit and the family's
/// services. The same data as `mustc member NAME --age-limit` and `mustc providers --ours`, written by the same
/// store methods; `family.services` in the config wins over the services chosen here (`FamilyServices`). A bad
/// value is a 400 that changes nothing.
enum SettingsRoutes {
    static func register(on router: Router<PageContext>, edits: WebEdits, pages: EditPages) {
        router.get("/settings") { _, _ in try await page(edits, pages) }
        router.post("/settings/age-limit") { request, _ in
            try await EditRoutes.guarded(request, pages) { form, token in
                let notice = try await edits.setAgeLimit(member: form["member"] ?? "", limit: form["limit"] ?? "")
                return edits.redirect(notice, token, to: "/settings")
            }
        }
        router.post("/settings/age-limits") { request, _ in
            try await EditRoutes.guarded(request, pages) { form, token in
                let notice = try await edits.setAgeLimits(form)
                return edits.redirect(notice, token, to: "/settings")
            }
        }
        router.post("/settings/services") { request, _ in
            try await EditRoutes.guarded(request, pages) { form, token in
                let notice = try await edits.chooseServices(form)
                return edits.redirect(notice, token, to: "/settings")
            }
        }
    }

    static func page(_ edits: WebEdits, _ pages: EditPages) async throws -> Response {
        switch Viewer.current {
        case .editsOff(let why):
            return pages.refusal(.forbidden, heading: "Edits are off", "Edits from this page are off: \(why).")
        case .signedOut:
            return pages.page(SettingsModel.signedOut, "settings", status: .forbidden)
        case .signedIn(let token, let access) where access.mayChangeSettings:
            let (region, configured, store) = (edits.config.family.region, edits.config.family.services, edits.reader)
            let model = try await edits.blocking {
                SettingsModel(
                    region: region, limits: try store.ageLimits(), order: try store.certificationOrder(region: region),
                    seen: try store.providersSeen(region: region),
                    family: try store.familyServices(configured: configured), csrf: token.csrfToken,
                    kids: Set(try store.profiles().filter(\.kid).map(\.name)))
            }
            return pages.page(model, "settings")
        case .signedIn:
            return EditRoutes.notYours(.parent, pages)
        }
    }
}

extension WebEdits {
    /// `mustc member NAME --age-limit CERT|none` from the page: the certification must be one of the region's, as
    /// kept by the fetch; an empty value or "none" clears the limit.
    func setAgeLimit(member: String, limit text: String) async throws -> EditNotice {
        let region = config.family.region
        let store = reader
        let order = try await blocking { try store.certificationOrder(region: region) }
        let limit = try Self.checkedLimit(text, order: order, region: region)
        let chosen = limit
        let name = try await blocking { try self.editor().store.setAgeLimit(member: member, to: chosen) }
        guard let name else {
            throw PageError.badRequest("There is no member \"\(member)\"; nothing was changed.")
        }
        return EditNotice(lines: [Self.saidLimit(name, limit, region: region)])
    }

    /// The settings' one Save for every member's limit (`member-N` and `limit-N` pairs): every value is checked
    /// before any is written, so a bad one changes nothing, and the notice names only the limits that changed.
    func setAgeLimits(_ form: [String: String]) async throws -> EditNotice {
        let region = config.family.region
        let store = reader
        let (order, kept) = try await blocking { (try store.certificationOrder(region: region), try store.ageLimits()) }
        var wanted: [(member: MemberAgeLimit, limit: String?)] = []
        while let member = form["member-\(wanted.count)"] {
            guard let known = kept.first(where: { TitleKey.make($0.name) == TitleKey.make(member) }) else {
                throw PageError.badRequest("There is no member \"\(member)\"; nothing was changed.")
            }
            let limit = try Self.checkedLimit(form["limit-\(wanted.count)"] ?? "", order: order, region: region)
            wanted.append((known, limit))
        }
        guard !wanted.isEmpty else { throw PageError.badRequest("No member's limit was sent; nothing was changed.") }
        let changed = wanted.filter { $0.member.limit != $0.limit }
        // The kid boxes, when the form has them: a box not ticked is a grown-up's profile.
        let kids = Set(try await blocking { try store.profiles() }.filter(\.kid).map(\.name))
        let kinds =
            form["kinds"] == "1"
            ? wanted.indices.compactMap { index -> (String, Bool)? in
                let (name, kid) = (wanted[index].member.name, form["kid-\(index)"] == "1")
                return kids.contains(name) == kid ? nil : (name, kid)
            } : []
        try await blocking {
            let store = try self.editor().store
            for change in changed { _ = try store.setAgeLimit(member: change.member.name, to: change.limit) }
            for (name, kid) in kinds { _ = try store.setKid(member: name, kid) }
        }
        let lines =
            changed.map { Self.saidLimit($0.member.name, $0.limit, region: region) }
            + kinds.map { "\($0.0) has a \($0.1 ? "kid's" : "grown-up's") profile now." }
        return EditNotice(lines: lines.isEmpty ? ["No age limit or profile changed."] : lines)
    }

    /// "Ann may watch up to PG (US).", or "Ann has no age limit."
    static func saidLimit(_ name: String, _ limit: String?, region: String) -> String {
        limit.map { "\(name) may watch up to \($0) (\(region))." } ?? "\(name) has no age limit."
    }

    /// The certification as the region's list writes it; nil for "none" or nothing; a 400 naming the problem.
    static func checkedLimit(_ text: String, order: [RegionCertification], region: String) throws -> String? {
        let asked = text.trimmingCharacters(in: .whitespaces)
        guard !asked.isEmpty, asked.lowercased() != "none" else { return nil }
        guard !order.isEmpty else {
            throw PageError.badRequest(
                "\(region)'s certifications are not read yet: the next fetch reads them. Nothing was changed.")
        }
        guard let found = order.first(where: { $0.certification.uppercased() == asked.uppercased() }) else {
            throw PageError.badRequest(
                "\(region) has no certification \"\(asked)\". Pick one from the list; nothing was changed.")
        }
        return found.certification
    }

    /// `mustc providers --ours` from the page: the ticked `service-ID` boxes, each a provider seen in the region
    /// or one chosen before; none ticked is the choice of none. Refused while the config lists the services.
    func chooseServices(_ form: [String: String]) async throws -> EditNotice {
        let (region, configured, store) = (config.family.region, config.family.services, reader)
        let (seen, family) = try await blocking {
            (try store.providersSeen(region: region), try store.familyServices(configured: configured))
        }
        guard family.source != .config else {
            throw PageError(
                status: .conflict, heading: "Set in the config",
                message: "family.services in the config file sets the family's services, and it wins over the page: "
                    + "edit it there, or remove it to choose here. Nothing was changed.")
        }
        let known = Set(seen.map(\.id) + (family.chosen ?? []))
        var ids: [Int] = []
        for name in form.keys.sorted() where name.hasPrefix("service-") {
            guard let id = Int(name.dropFirst("service-".count)), known.contains(id) else {
                throw PageError.badRequest(
                    "\"\(name)\" is no provider seen in \(region). Tick providers from the list; nothing was changed.")
            }
            ids.append(id)
        }
        // The page's order: most movies first, as listed.
        let order = Dictionary(uniqueKeysWithValues: seen.enumerated().map { ($1.id, $0) })
        ids.sort { (order[$0] ?? Int.max, $0) < (order[$1] ?? Int.max, $1) }
        let now = time.now()
        let chosen = ids
        try await blocking { try self.editor().store.chooseServices(chosen, now: now) }
        let names = ids.map { id in seen.first { $0.id == id }?.name ?? "#\(id)" }
        return EditNotice(lines: [
            names.isEmpty
                ? "The family has no services now." : "The family's services: \(names.joined(separator: ", "))."
        ])
    }
}

/// What the settings template reads; every name and title is made visible (`Shown.text`) and escaped by Mustache.
struct SettingsModel {
    struct Option {
        var value: String
        var label: String
        var selected: Bool
    }

    struct Member {
        var index: Int
        var member: String
        var shown: String
        var id: String
        var options: [Option]
        var kid = false
    }

    struct Service {
        var id: Int
        var name: String
        var detail: String
        var checked: Bool
    }

    var signedIn = true
    var region = ""
    var members: [Member] = []
    var hasMembers = false
    var hasCertifications = false
    var services: [Service] = []
    /// Stores that only rent or sell films ("Rent on Apple TV"): shown as they are, never offered as a service.
    var stores: String?
    var hasProviders = false
    /// Set by the config: the services, read-only, and the kept choice it shadows, if any.
    var configured: String?
    var shadowed: String?
    var csrf = ""

    static let signedOut = SettingsModel(signedIn: false)

    private init(signedIn: Bool) { self.signedIn = signedIn }

    init(
        region: String, limits: [MemberAgeLimit], order: [RegionCertification], seen: [SeenProvider],
        family: FamilyServices, csrf: String, kids: Set<String> = []
    ) {
        self.region = region
        self.csrf = csrf
        hasCertifications = !order.isEmpty
        hasMembers = !limits.isEmpty
        members = limits.enumerated().map { index, member in
            var options = [Option(value: "none", label: "No limit", selected: member.limit == nil)]
            options += order.map { Option(value: $0.certification, label: $0.certification, selected: false) }
            if let limit = member.limit {
                if let at = options.firstIndex(where: { $0.value == limit }) {
                    options[at].selected = true
                } else {
                    // A limit set under another region stays shown (and kept) until changed.
                    options.append(Option(value: limit, label: "\(limit) (not of \(region))", selected: true))
                }
            }
            return Member(
                index: index, member: member.name, shown: Shown.text(member.name), id: "age-\(index)", options: options,
                kid: kids.contains(member.name))
        }
        let matcher = ServiceMatcher(family.services)
        let chosen = { (provider: SeenProvider) in
            family.source == .chosen && matcher.matches(id: provider.id, name: provider.name)
        }
        // A service is what the family pays for once or watches free; a store renting or selling each film is not
        // (one already chosen stays, so saving does not drop it unseen).
        let (offered, sold) = (
            seen.filter { $0.kinds.contains(where: \.noExtraCost) || chosen($0) },
            seen.filter { !$0.kinds.contains(where: \.noExtraCost) && !chosen($0) }
        )
        let storeNames = sold.map { provider in
            provider.kinds.map { "\($0.heading) on \(Shown.text(provider.name))" }.joined(separator: ", ")
        }
        stores = storeNames.isEmpty ? nil : storeNames.joined(separator: "; ")
        services = offered.map { provider in
            Service(
                id: provider.id, name: Shown.text(provider.name),
                detail: "\(provider.movies) \(provider.movies == 1 ? "movie" : "movies"): "
                    + provider.kinds.map(\.heading).joined(separator: ", ").lowercased(),
                checked: chosen(provider))
        }
        // A chosen provider no movie offers now stays ticked, so saving the form does not drop it unseen.
        for id in family.chosen ?? [] where family.source == .chosen && !seen.contains(where: { $0.id == id }) {
            services.append(Service(id: id, name: "#\(id)", detail: "no movie in the library now", checked: true))
        }
        hasProviders = !services.isEmpty || stores != nil
        if family.source == .config {
            configured = family.services.map(Shown.text).joined(separator: ", ")
            if family.shadowed {
                shadowed = (family.chosen ?? []).map { id in
                    seen.first { $0.id == id }.map { Shown.text($0.name) } ?? "#\(id)"
                }
                .joined(separator: ", ")
            }
        }
    }
}

extension EditTemplates {
    /// /settings: a form per member's age limit, one for the services. Without JavaScript: each form posts and
    /// comes back here with what changed at the top.
    static let settings = """
        {{<layout}}{{$title}}Settings{{/title}}{{$main}}
        <h1>Settings</h1>
        {{^signedIn}}<p>Only a signed-in browser can change the family's settings.</p>
        <p><a href="/signin">Sign in</a></p>{{/signedIn}}
        {{#signedIn}}<section aria-labelledby="ages"><h2 id="ages">Age limits</h2>
        <p>The highest age rating each member may see, as films are rated in {{region}}. A pick that includes them never goes above it, and leaves out films with no rating there unless asked not to.</p>
        {{^hasCertifications}}<p>{{region}}'s certifications are not read yet: the next fetch reads them from TMDB, and then each member can be given a limit here.</p>{{/hasCertifications}}
        {{^hasMembers}}<p>No members yet: add one on the <a href="/">family page</a>.</p>{{/hasMembers}}
        {{#hasMembers}}<form class="settings" method="post" action="/settings/age-limits">{{>csrf}}
        {{#members}}<p class="setting"><input type="hidden" name="member-{{index}}" value="{{member}}"><label for="{{id}}"><bdi>{{shown}}</bdi></label> <select id="{{id}}" name="limit-{{index}}">{{#options}}<option value="{{value}}"{{#selected}} selected{{/selected}}>{{label}}</option>{{/options}}</select> <label><input type="checkbox" name="kid-{{index}}" value="1"{{#kid}} checked{{/kid}}> <bdi>{{shown}}</bdi> has a kid's profile</label></p>
        {{/members}}<input type="hidden" name="kinds" value="1"><p>A kid's profile sees only the movies within its own limit on this page, and changes only its own list.</p><p><button type="submit">Save the age limits</button></p></form>{{/hasMembers}}
        </section>
        <section aria-labelledby="services"><h2 id="services">The family's services</h2>
        {{#configured}}<p><code>family.services</code> in the config file sets them: <bdi>{{configured}}</bdi>. It wins over a choice made here; to choose here, remove it from the config.</p>
        {{#shadowed}}<p>A choice made here before is kept, and applies again once the config lists none: <bdi>{{shadowed}}</bdi>.</p>{{/shadowed}}{{/configured}}
        {{^configured}}{{^hasProviders}}<p>No providers seen for {{region}} yet: they show once a fetch has read the movies' offers.</p>{{/hasProviders}}
        {{#hasProviders}}<form class="settings" method="post" action="/settings/services">{{>csrf}}<fieldset><legend>The providers the family pays for</legend>
        {{#services}}<label><input type="checkbox" name="service-{{id}}"{{#checked}} checked{{/checked}}> <bdi>{{name}}</bdi> <span class="count">{{detail}}</span></label>
        {{/services}}</fieldset>
        {{#stores}}<p>Not offered as services, as they rent or sell each film: <bdi>{{stores}}</bdi>.</p>{{/stores}}
        <p><button type="submit">Save the services</button></p></form>{{/hasProviders}}{{/configured}}
        </section>{{/signedIn}}
        {{/main}}{{/layout}}
        """
}
