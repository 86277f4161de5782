import Foundation
import TMDBStub
import TestSupport
import Testing

/// `fetch.onNewData` through mustc's commands: the hook reads exactly the run's changes, never the TMDB secrets, and
/// whatever it does (fail, hang) the run's result and exit code stay as they were; `status` says what it did.
@Suite final class NewDataHookTests {
    let stub: TMDBStubServer
    let mustc: MustcBinary
    let config: String

    init() throws {
        stub = TMDBStubServer(movies: StubMovie.classics)
        try stub.start()
        var mustc = MustcBinary(stub: stub)
        // Both secrets set: the hook must see neither.
        mustc.environment["TMDB_ACCESS_TOKEN"] = stub.accessToken
        config = mustc.home.file("config.json")
        mustc.environment["MUSTC_CONFIG"] = config
        self.mustc = mustc
    }

    deinit { stub.stop() }

    /// A hook script in the test's home, and a config that runs it.
    func install(_ body: String, timeout: String = "30s") throws -> String {
        let script = mustc.home.file("hook.sh")
        try writeScript("#!/bin/sh\n\(body)\n", to: script)
        try """
        {"schedule": {"minimumInterval": "15m"}, "tmdb": {"maxRequestsPerSecond": 2000, "requestTimeout": "5s"},
         "fetch": {"onNewData": ["\(script)", "an argument"], "onNewDataTimeout": "\(timeout)"}}
        """.write(toFile: config, atomically: true, encoding: .utf8)
        return script
    }

    func fetch(expect result: String) async throws -> Outcome {
        let outcome = try await mustc("fetch", "--force", "--json")
        #expect(outcome.status == 0, "\(outcome.all)")
        #expect(try outcome.json()["result"] as? String == result, "\(outcome.stdout)")
        return outcome
    }

    func lastHook() async throws -> [String: Any] {
        let status = try await mustc("status", "--json")
        return try #require(try status.json()["hook"] as? [String: Any], "\(status.stdout)")
    }

    /// Running: exists and is no zombie (an orphan's zombie waits for whatever reaps orphans here).
    func alive(_ pid: Int32) -> Bool {
        guard kill(pid, 0) == 0 else { return false }
        let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
        return !(stat.split(separator: ")").last?.trimmingCharacters(in: .whitespaces).hasPrefix("Z") ?? false)
    }

    func read(_ name: String) throws -> String { try String(contentsOfFile: mustc.home.file(name), encoding: .utf8) }

    @Test func theHookReadsExactlyTheRunsChangesAndNoSecret() async throws {
        _ = try install(#"cat > "$HOME/input.json"; env > "$HOME/env.txt"; echo "$1" > "$HOME/argument.txt""#)
        #expect(try await mustc("add", "Ann", "Up", "Amélie", "Spirited Away").status == 0)
        stub.update(id: 14160) { $0.voteCount = 19_350 }
        stub.update(id: 194) { $0.popularity = 9.5 }
        _ = try await fetch(expect: "newData")

        let input = try #require(
            try JSONSerialization.jsonObject(with: Data(read("input.json").utf8)) as? [String: Any])
        let listed = input["changes"] as? [[String: Any]] ?? []
        #expect(Set(listed.compactMap { $0["title"] as? String }) == ["Up", "Amélie"])
        let up = try #require(listed.first { $0["title"] as? String == "Up" })
        #expect((up["first"] as? [String: Any])?["voteCount"] as? Int == 19_300)
        #expect((up["last"] as? [String: Any])?["voteCount"] as? Int == 19_350)
        #expect(input["since"] is String)
        #expect(try read("argument.txt") == "an argument\n")
        let environment = try read("env.txt")
        #expect(!environment.contains("TMDB_API_KEY") && !environment.contains("TMDB_ACCESS_TOKEN"))
        #expect(!environment.contains(stub.apiKey) && !environment.contains(stub.accessToken))
        #expect(environment.contains("MUSTC_CONFIG="), "the rest of mustc's environment is passed on")
        #expect(try !read("input.json").contains(stub.apiKey))
        #expect(try await lastHook()["outcome"] as? String == "succeeded")

        // The next run's hook gets that run's change only, not the earlier ones.
        stub.update(id: 129) { $0.voteAverage = 8.7 }
        _ = try await fetch(expect: "newData")
        let next = try JSONSerialization.jsonObject(with: Data(read("input.json").utf8)) as? [String: Any]
        #expect((next?["changes"] as? [[String: Any]])?.compactMap { $0["title"] as? String } == ["Spirited Away"])
        #expect(try await lastHook()["changes"] as? Int == 1)

        // No hook after a noData run.
        try FileManager.default.removeItem(atPath: mustc.home.file("input.json"))
        _ = try await fetch(expect: "noData")
        #expect(!FileManager.default.fileExists(atPath: mustc.home.file("input.json")))
    }

    @Test func aFailingHookLeavesTheResultAndExitCodeAndShowsInStatus() async throws {
        _ = try install("cat > /dev/null; echo 'could not reach the mail server' >&2; exit 3")
        #expect(try await mustc("add", "Ann", "Up").status == 0)
        stub.update(id: 14160) { $0.voteCount += 1 }
        let outcome = try await fetch(expect: "newData")
        #expect(outcome.stderr.contains("could not reach the mail server"), "the failure is logged")
        let hook = try await lastHook()
        #expect(hook["outcome"] as? String == "failed")
        #expect(hook["exitStatus"] as? Int == 3)
        #expect(hook["stderrTail"] as? String == "could not reach the mail server")
        let text = try await mustc("status")
        #expect(
            text.stdout.contains("failed (exit status 3)") && text.stdout.contains("could not reach the mail server"))
    }

    @Test func aHangingHookIsStoppedAtItsTimeoutAndTheRunStands() async throws {
        // The shell's child, sleep, is in the hook's process group: the timeout must stop it too.
        _ = try install(
            #"echo $$ > "$HOME/hook.pid"; sleep 60 & echo $! > "$HOME/sleep.pid"; wait; echo never > "$HOME/late.txt""#,
            timeout: "1s")
        #expect(try await mustc("add", "Ann", "Up").status == 0)
        stub.update(id: 14160) { $0.voteCount += 1 }
        let started = ContinuousClock.now
        _ = try await fetch(expect: "newData")
        #expect(started.duration(to: .now) < .seconds(30), "a 1s timeout, then SIGTERM")
        let hook = try await lastHook()
        #expect(hook["outcome"] as? String == "timedOut")
        let pid = try #require(Int32(read("hook.pid").trimmingCharacters(in: .whitespacesAndNewlines)))
        let sleeper = try #require(Int32(read("sleep.pid").trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(!alive(pid), "the hook's shell is gone")
        // Its child went with it, as the whole process group was stopped; it may take a moment to be reaped.
        await Poll.until(within: .seconds(10), every: .milliseconds(50)) { !alive(sleeper) }
        #expect(!alive(sleeper), "the hook's child is gone")
        #expect(try await mustc("status").stdout.contains("timedOut"))
        #expect(!FileManager.default.fileExists(atPath: mustc.home.file("late.txt")))
    }

    /// contrib/hooks/mustc-notify, the README's example, with a notify-send that writes down what it was asked to show.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/python3")))
    func theContribExampleSendsANotification() async throws {
        let example = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appending(path: "../../contrib/hooks/mustc-notify").standardized.path
        let bin = mustc.home.file("bin")
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        try writeScript("#!/bin/sh\nprintf '%s\\n' \"$@\" > \"$HOME/notified.txt\"\n", to: bin + "/notify-send")
        var notifying = mustc
        notifying.environment["PATH"] = bin + ":/usr/bin:/bin"
        try """
        {"tmdb": {"maxRequestsPerSecond": 2000}, "fetch": {"onNewData": ["\(example)"]}}
        """.write(toFile: config, atomically: true, encoding: .utf8)
        #expect(try await notifying("add", "Ann", "Up").status == 0)
        stub.update(id: 14160) { $0.voteAverage = 8.0 }
        let outcome = try await notifying("fetch", "--force")
        #expect(outcome.status == 0, "\(outcome.all)")
        let shown = try read("notified.txt")
        #expect(shown.contains("mustc: 1 movie changed"), "\(shown)")
        #expect(shown.contains("Up (2009): rating 7.9 → 8.0 (+0.1)  [Ann]"), "\(shown)")
        #expect(try await lastHook()["outcome"] as? String == "succeeded")
    }

    @Test func aHookThatIsNotAnArrayOrNamesNoProgramIsAConfigErrorAndNothingIsWritten() async throws {
        let cases = [
            (#"{"fetch": {"onNewData": "notify-send mustc"}}"#, "fetch.onNewData"),
            (#"{"fetch": {"onNewData": ["no-such-hook-program-mustc"]}}"#, "no-such-hook-program-mustc"),
            (#"{"fetch": {"onNewData": ["/nonexistent/hook"]}}"#, "/nonexistent/hook"),
        ]
        for (text, named) in cases {
            try text.write(toFile: config, atomically: true, encoding: .utf8)
            let outcome = try await mustc("fetch", "--force")
            #expect(outcome.status == 78, "\(text): \(outcome.all)")
            #expect(outcome.stderr.contains(named) && outcome.stderr.contains("onNewData"), "\(outcome.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: mustc.databasePath))
        #expect(stub.requestCount == 0)
    }
}
