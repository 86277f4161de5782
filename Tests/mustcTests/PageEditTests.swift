import Foundation
import TMDBStub
import TestSupport
import Testing

/// Edits from the page through the built binary and a real headless Chromium (Selenium), one of the shared pool's
/// (`SharedBrowser`): `Tests/browser/edits.py` starts the `tmdb-stub` binary (50 ms a request) and `mustc serve`,
/// drives the browser, checks the lists with `mustc ratings --format json`, and reports each check; every one must
/// pass.
@Suite(.serialized) struct PageEditTests {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appending(path: "../browser/edits.py").standardized

    struct Check: Decodable {
        var name: String
        var ok: Bool
        var detail: String
    }

    /// Runs the scenario and expects every check to pass. Only when the browser itself was lost (chromedriver or
    /// Chromium failing on a loaded machine, reported as "the browser kept running") does it run once more, from
    /// scratch; a failed check is never retried.
    func run(_ scenario: String) async throws -> [Check] {
        var checks = try await attempt(scenario)
        if checks.contains(where: { $0.name == "the browser kept running" && !$0.ok }) {
            checks = try await attempt(scenario)
        }
        #expect(!checks.isEmpty)
        for check in checks { #expect(check.ok, "\(check.name): \(check.detail)") }
        return checks
    }

    func attempt(_ scenario: String) async throws -> [Check] {
        let home = TemporaryDirectory("page-edits")
        // The script bounds each step; this bounds the whole run (Chromium on a loaded 2-core machine is slow).
        let result = try await SharedBrowser.shared.run(
            "edits", [MustcBinary.url.deletingLastPathComponent().path, home.path, scenario], deadline: 600)
        let checks = try JSONSerialization.data(withJSONObject: result["checks"] ?? [])
        return try JSONDecoder().decode([Check].self, from: checks)
    }

    @Test func signInAddSettleRemoveAndEveryRefusal() async throws {
        let names = Set(try await run("browser").map(\.name))
        // The list, each a named check in the script.
        for expected in [
            "add Dune (2021): ratings shows 438631 on Ann's list", "fuzzy title: nothing is linked",
            "clicking a candidate links it", "remove: a confirmation step", "remove: gone from ratings",
            "wrong password: no session", "six wrong attempts in a minute: the sixth gets 429",
            "a POST with the session but no CSRF token: 403", "a POST from another site's Origin: 403",
            "signed out: no forms on the member page", "signed out: a POST is refused",
            "the session survives a restart of serve", "a new password ends the session: no forms",
            "behind an HTTPS proxy the cookie is Secure", "status: settled from /status",
            "settling a wrong remake from its movie page",
            "during fetch: the add ran while the fetch did", "during fetch: the fetch succeeded",
            "during fetch: the add succeeded",
        ] {
            #expect(names.contains(expected), "missing check \(expected)")
        }
    }

    @Test(.enabled(if: getuid() == 0, "needs root to run mustc serve as another user"))
    func aServerThatCannotWriteStaysReadOnlyAndSaysWhy() async throws {
        let names = try await run("read-only").map(\.name)
        #expect(names.contains("read-only: /signin says why"))
    }
}
