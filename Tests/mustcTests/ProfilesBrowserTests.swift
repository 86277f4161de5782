import Foundation
import TMDBStub
import Testing

/// "Who's watching?" through the built binary and the shared headless Chromium (`Tests/browser/profiles.py`):
/// axe-core finds no violation at 360 and 1280 px, light and dark, the page fits a phone with targets of 44 px, and
/// a keyboard alone reaches a profile's button with Tab and chooses it with Enter.
@Suite(.serialized) struct ProfilesBrowserTests {
    @Test func whosWatchingPassesAxeFitsAPhoneAndIsChosenByKeyboard() async throws {
        let stub = TMDBStubServer(movies: StubMovie.classics)
        try stub.start()
        defer { stub.stop() }
        try SharedBrowser.shared.warm()
        let mustc = MustcBinary(stub: stub)
        // A member named like markup: the chooser shows the name as text, and nothing runs.
        let hostile = "<img src=x onerror=alert(1)>Zoë"
        for arguments in [
            ["add", "Ann", "Up"], ["add", "Leo", "Up"], ["member", "Leo", "--kid"], ["add", hostile, "Up"],
        ] {
            let outcome = try await mustc.run(arguments)
            #expect(outcome.status == 0, "\(arguments): \(outcome.all)")
        }
        let server = try await ServeProcess.start(mustc)
        defer { server.ensureStopped() }
        let base = String(server.url.dropLast())
        let result = try await SharedBrowser.shared.run("profiles.py", [base, "Leo"], deadline: 240)

        let visits = try #require(result["visits"] as? [[String: Any]])
        #expect(visits.count == 8, "/profiles and / at two widths in two schemes")
        #expect(result["images"] as? Int == 0, "a member's name made an image")
        for visit in visits {
            let name = "\(visit["url"] ?? "?") at \(visit["width"] ?? 0) px, \(visit["scheme"] ?? "")"
            #expect(visit["error"] is NSNull || visit["error"] == nil, "\(name): axe failed \(visit["error"] ?? "")")
            #expect((visit["rules"] as? Int ?? 0) > 10, "\(name): axe-core ran \(visit["rules"] ?? 0) rules")
            let violations = visit["violations"] as? [[String: Any]] ?? [["id": "unread"]]
            #expect(violations.isEmpty, "\(name): \(violations)")
            #expect(
                (visit["scrollWidth"] as? Int ?? .max) <= (visit["clientWidth"] as? Int ?? 0),
                "\(name) scrolls sideways")
            #expect((visit["small"] as? [String]) == [], "\(name): targets under 44 px: \(visit["small"] ?? "")")
            #expect(visit["h1"] as? String == "Who's watching?", "\(name)")
            let buttons = visit["buttons"] as? [String] ?? []
            #expect(buttons.count == 4 && buttons.contains { $0.contains("Leo") }, "\(name): \(buttons)")
            #expect(buttons.contains { $0.contains(hostile) }, "\(name): the hostile name is not shown as text")
            #expect(visit["dialog"] as? Bool == false && visit["consoleErrors"] as? [String] == [], "\(name)")
        }
        let keyboard = try #require(result["keyboard"] as? [String: Any])
        #expect(keyboard["reached"] as? Bool == true, "Tab never reached Leo's button: \(keyboard)")
        #expect((keyboard["presses"] as? Int ?? 99) <= 15, "\(keyboard)")
        #expect((keyboard["focused"] as? [String: Any])?["outline"] as? Bool == true, "no visible focus: \(keyboard)")
        #expect(keyboard["url"] as? String == base + "/", "\(keyboard)")
        #expect((keyboard["bar"] as? String ?? "").contains("Watching as Leo"), "\(keyboard)")
    }
}
