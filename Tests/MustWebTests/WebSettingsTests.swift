import Foundation
import HTTPTypes
import HummingbirdTesting
import MustCore
import Testing

@testable import MustWeb

/// /settings in-process over a real database: each member's age limit and the family's services,
/// signed in, through the CSRF-checked forms; what the page writes is what `mustc member`, `providers` and `pick`
/// read (the same store methods), and a bad value is a 400 that changes nothing.
@Suite struct WebSettingsTests {
    static let usOrder = [("NR", 0), ("G", 1), ("PG", 2), ("PG-13", 3), ("R", 4), ("NC-17", 5)].map {
        RegionCertification(certification: $0.0, order: $0.1)
    }

    /// The classic family, its password, the US certifications as a fetch keeps them, and offers read for Up
    /// (Netflix, Plex) and Amélie (Netflix, Disney Plus).
    static func family(services: [String] = []) throws -> WebFamily {
        var family = try WebFamily.classic()
        try family.setPassword()
        try family.store.keepCertificationOrder(usOrder, region: "US", now: family.now)
        let offers: [(Int, [ProviderOffer])] = [
            (14160, [.init(kind: .flatrate, id: 8, name: "Netflix"), .init(kind: .free, id: 538, name: "Plex")]),
            (194, [.init(kind: .flatrate, id: 8, name: "Netflix"), .init(kind: .rent, id: 337, name: "Disney Plus")]),
        ]
        for (remoteId, providers) in offers {
            let id = try #require(try family.store.movieReport(.tmdb(remoteId))?.localId)
            let extras = MovieExtras(certification: .some("G"), providers: providers)
            #expect(try family.store.apply([.extras(movieId: id, extras, region: "US")], now: family.now).isEmpty)
        }
        family.config.family.services = services
        return family
    }

    static func post(
        _ client: any TestClientProtocol, _ path: String, _ form: [(String, String)], cookie: String
    ) async throws -> TestResponse {
        try await client.post(path, form: form, cookie: cookie, origin: "http://localhost")
    }

    @Test func signedOutTheSettingsAskToSignInAndTheFormsAreRefused() async throws {
        let family = try Self.family()
        try await family.test { client in
            let page = try await client.get("/settings")
            #expect(page.status == .forbidden && page.text.contains("href=\"/signin\""), "\(page.text)")
            #expect(!page.text.contains("<select"))
            let posted = try await client.post("/settings/age-limit", form: [("member", "Ann"), ("limit", "PG")])
            #expect(posted.status == .forbidden)
            #expect(try family.store.ageLimits().allSatisfy { $0.limit == nil })
            // The family page links the settings only when signed in.
            #expect(!(try await client.get("/").text.contains("href=\"/settings\"")))
        }
    }

    @Test func anAgeLimitSetOnThePageIsWhatPickAndMemberRead() async throws {
        let family = try Self.family()
        try await family.test { client in
            let cookie = try await client.signIn()
            let home = try await client.get("/", headers: [.cookie: cookie])
            #expect(home.text.contains("<a href=\"/settings\">Settings</a>"))
            let page = try await client.get("/settings", headers: [.cookie: cookie])
            #expect(page.status == .ok)
            let csrf = try #require(page.csrf)
            // Every member, the region's order after "No limit", escaped names.
            #expect(page.text.contains("<bdi>Zoë &amp; &lt;b&gt;Co&lt;/b&gt;</bdi>") && !page.text.contains("<b>"))
            let options = page.text.matches(of: #/<option value="([^"]+)"/#).prefix(7).map { String($0.output.1) }
            #expect(options == ["none", "NR", "G", "PG", "PG-13", "R", "NC-17"], "\(options)")

            // Without the token: refused, nothing written.
            let forged = try await Self.post(
                client, "/settings/age-limit", [("member", "Ann"), ("limit", "PG")], cookie: cookie)
            #expect(forged.status == .forbidden)
            #expect(try family.store.ageLimits().first { $0.name == "Ann" }?.limit == nil)

            let set = try await Self.post(
                client, "/settings/age-limit", [("csrf", csrf), ("member", "ann"), ("limit", "pg")], cookie: cookie)
            #expect(set.status == .seeOther && set.headers[.location] == "/settings")
            // What `pick Ann` and `member` read: the member's limit, written as the region's list writes it.
            let night = try family.store.movieNight(members: ["Ann"], trendSince: family.now, region: "US")
            #expect(night.ageLimits == ["Ann": "PG"])
            let after = try await client.get("/settings", headers: [.cookie: cookie])
            #expect(after.text.contains("Ann may watch up to PG (US)."), "\(after.text)")
            #expect(after.text.contains("<option value=\"PG\" selected>PG</option>"))

            // Bad values: a 400 saying what to do, and Ann keeps PG.
            for (form, message) in [
                ([("member", "Ann"), ("limit", "PG12")], "US has no certification"),
                ([("member", "Nobody"), ("limit", "G")], "There is no member"),
            ] {
                let bad = try await Self.post(client, "/settings/age-limit", [("csrf", csrf)] + form, cookie: cookie)
                #expect(bad.status == .badRequest && bad.text.contains(message), "\(bad.text)")
                #expect(try family.store.ageLimits().first { $0.name == "Ann" }?.limit == "PG")
            }
            let cleared = try await Self.post(
                client, "/settings/age-limit", [("csrf", csrf), ("member", "Ann"), ("limit", "none")], cookie: cookie)
            #expect(cleared.status == .seeOther)
            #expect(try family.store.ageLimits().first { $0.name == "Ann" }?.limit == nil)
        }
    }

    @Test func oneSaveKeepsEveryMembersLimitAndABadOneChangesNone() async throws {
        let family = try Self.family()
        try await family.test { client in
            let cookie = try await client.signIn()
            let page = try await client.get("/settings", headers: [.cookie: cookie])
            let csrf = try #require(page.csrf)
            // One form, one Save, a select for each member.
            #expect(page.text.components(separatedBy: "action=\"/settings/age-limits\"").count == 2)
            #expect(page.text.components(separatedBy: "Save the age limits").count == 2)
            // The names as a browser sends them: the attribute's text, unescaped.
            let names = page.text.matches(of: #/name="member-(\d+)" value="([^"]*)"/#).map {
                String($0.output.2).replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(
                    of: "&gt;", with: ">"
                )
                .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
                .replacingOccurrences(of: "&amp;", with: "&")
            }
            #expect(names.count == (try family.store.ageLimits().count) && names.count >= 2, "\(names)")
            // Both members' changes in one press: neither is lost.
            let form = names.enumerated().flatMap { index, name in
                [("member-\(index)", name), ("limit-\(index)", index == 0 ? "R" : index == 1 ? "PG" : "none")]
            }
            let saved = try await Self.post(client, "/settings/age-limits", [("csrf", csrf)] + form, cookie: cookie)
            #expect(saved.status == .seeOther && saved.headers[.location] == "/settings")
            let limits = try family.store.ageLimits()
            #expect(limits.map(\.limit).prefix(2) == ["R", "PG"], "\(limits)")
            let after = try await client.get("/settings", headers: [.cookie: cookie])
            #expect(after.text.contains("may watch up to R (US).") && after.text.contains("may watch up to PG (US)."))
            // One bad value: a 400, and no limit changes, not even the good ones beside it.
            var bad = form
            bad[1] = ("limit-0", "PG-13")
            bad[3] = ("limit-1", "XYZ")
            let refused = try await Self.post(client, "/settings/age-limits", [("csrf", csrf)] + bad, cookie: cookie)
            #expect(refused.status == .badRequest && refused.text.contains("US has no certification"))
            #expect(try family.store.ageLimits() == limits)
        }
    }

    @Test func servicesChosenOnThePageAreTheFamilysUnlessTheConfigListsThem() async throws {
        let family = try Self.family()
        try await family.test { client in
            let cookie = try await client.signIn()
            let page = try await client.get("/settings", headers: [.cookie: cookie])
            let csrf = try #require(page.csrf)
            // Most movies first, and only what the family can subscribe to or watch free: Disney Plus only rents
            // Amélie here, so it is shown as it is, not offered as a service.
            let boxes = page.text.matches(of: #/name="service-(\d+)"/#).map { String($0.output.1) }
            #expect(boxes == ["8", "538"], "\(boxes)")
            #expect(page.text.contains("rent or sell each film: <bdi>Rent on Disney Plus</bdi>."), "\(page.text)")

            let chosen = try await Self.post(
                client, "/settings/services", [("csrf", csrf), ("service-538", "on"), ("service-8", "on")],
                cookie: cookie)
            #expect(chosen.status == .seeOther && chosen.headers[.location] == "/settings")
            let services = try family.store.familyServices(configured: [])
            #expect(services.services == ["8", "538"] && services.source == .chosen)
            let after = try await client.get("/settings", headers: [.cookie: cookie])
            #expect(after.text.contains("services: Netflix, Plex."), "\(after.text)")
            #expect(
                after.text.contains("name=\"service-8\" checked")
                    && !after.text.contains("name=\"service-337\" checked"))

            for form in [[("service-999", "on")], [("service-abc", "on")]] {
                let bad = try await Self.post(client, "/settings/services", [("csrf", csrf)] + form, cookie: cookie)
                #expect(bad.status == .badRequest && bad.text.contains("no provider seen in US"), "\(bad.text)")
                #expect(try family.store.familyServices(configured: []).services == ["8", "538"])
            }
            let none = try await Self.post(client, "/settings/services", [("csrf", csrf)], cookie: cookie)
            #expect(none.status == .seeOther)
            #expect(try family.store.familyServices(configured: []).services == [])
        }
    }

    @Test func servicesInTheConfigWinAndTheKeptChoiceIsShownNotLost() async throws {
        let family = try Self.family(services: ["Disney Plus"])
        try family.store.chooseServices([8], now: family.now)
        try await family.test { client in
            let cookie = try await client.signIn()
            let page = try await client.get("/settings", headers: [.cookie: cookie])
            let csrf = try #require(page.csrf)
            #expect(page.text.contains("in the config file sets them: <bdi>Disney Plus</bdi>"), "\(page.text)")
            #expect(page.text.contains("applies again once the config lists none: <bdi>Netflix</bdi>"))
            #expect(!page.text.contains("name=\"service-"))
            let refused = try await Self.post(
                client, "/settings/services", [("csrf", csrf), ("service-337", "on")], cookie: cookie)
            #expect(refused.status == .conflict && refused.text.contains("edit it there"))
            let kept = try family.store.familyServices(configured: ["Disney Plus"])
            #expect(kept.services == ["Disney Plus"] && kept.chosen == [8] && kept.shadowed)
        }
    }
}
