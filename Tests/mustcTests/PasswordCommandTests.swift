import Foundation
import TMDBStub
import Testing

/// `mustc password` from a pipe, as a script or a provisioning tool would run it.
@Suite struct PasswordCommandTests {
    let mustc = MustcBinary()

    func input(_ text: String) throws -> String {
        let path = mustc.home.file("stdin-\(UUID().uuidString)")
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// In this process, or through the built binary reading a file as its standard input (`binary`).
    func password(_ arguments: [String] = [], stdin text: String, binary: Bool = false) async throws -> Outcome {
        var mustc = mustc
        if binary { mustc.through = .binary }
        return try await mustc.run(["password"] + arguments, input: text)
    }

    func storedHash() throws -> String {
        try sqlite(mustc.databasePath, "SELECT value FROM setting WHERE name = 'web.passwordHash'")
    }

    @Test func setChangeAndRemoveStoreOnlyAHashAndSignEveryBrowserOut() async throws {
        // Through the built binary: `password`'s end-to-end run.
        let set = try await password(stdin: "popcorn on sunday\n", binary: true)
        #expect(set.status == 0, "\(set.all)")
        #expect(set.stdout == "The page's password is set.\n")
        let hash = try storedHash()
        #expect(hash.hasPrefix("$2b$") && hash.count == 60)
        #expect(!set.all.contains("popcorn") && !set.all.contains(hash))

        _ = try sqlite(
            mustc.databasePath,
            "INSERT INTO webSession (tokenHash, createdAt, lastUsedAt) VALUES "
                + "('a', '2026-11-20 10:00:00.000', '2026-11-20 10:00:00.000'), ('b', '2026-11-20 10:00:00.000', '2026-11-20 10:00:00.000')"
        )
        let changed = try await password(stdin: "crisps on monday\r\n")
        #expect(changed.status == 0, "\(changed.all)")
        #expect(changed.stdout == "The page's password is changed; 2 signed-in browsers were signed out.\n")
        #expect(try storedHash() != hash)
        #expect(try sqlite(mustc.databasePath, "SELECT count(*) FROM webSession") == "0")

        let removed = try await password(["--remove"], stdin: "")
        #expect(removed.status == 0)
        #expect(removed.stdout == "The page's password is removed: the page is read-only.\n")
        #expect(try storedHash() == "")
        let again = try await password(["--remove"], stdin: "")
        #expect(again.stdout == "There was no password for the page; nothing changed.\n")
    }

    @Test(arguments: [
        ("short\n", "at least 8 characters"), ("", "no password on standard input"),
        ("tab\there is bad\n", "control characters"), (String(repeating: "x", count: 73) + "\n", "at most 72 bytes"),
    ])
    func aPasswordThatCannotBeUsedChangesNothing(_ text: String, _ message: String) async throws {
        _ = try await password(stdin: "popcorn on sunday\n")
        let hash = try storedHash()
        let outcome = try await password(stdin: text)
        #expect(outcome.status == 64)
        #expect(outcome.stderr.contains(message), "\(outcome.stderr)")
        #expect(outcome.stderr.contains("nothing was changed"))
        #expect(try storedHash() == hash)
    }

    /// A password on zxcvbn's list of common passwords (in any case), or a member's name (folded
    /// as names are matched, spaces ignored), is refused with the reason; nothing is written.
    @Test(arguments: [
        ("password\n", "list of 11611 common passwords"), ("PassWord1\n", "list of 11611 common passwords"),
        ("iloveyou\n", "common passwords"), ("wilhelminaoakes\n", "the name of the member \"Wilhelmina Oakes\""),
        ("WILHELMINA ÖAKES\n", "the name of the member \"Wilhelmina Oakes\""),
    ])
    func aCommonPasswordOrAMembersNameIsRefusedAndSaysWhy(_ text: String, _ message: String) async throws {
        #expect(try await mustc("add", "--no-lookup", "Wilhelmina Oakes", "Up").status == 0)
        _ = try await password(stdin: "popcorn on sunday\n")
        let hash = try storedHash()
        let outcome = try await password(stdin: text)
        #expect(outcome.status == 64, "\(outcome.all)")
        #expect(outcome.stderr.contains(message), "\(outcome.stderr)")
        #expect(outcome.stderr.contains("nothing was changed"))
        #expect(try storedHash() == hash)
        // A name's letters with more around them are not the name.
        #expect(try await password(stdin: "wilhelmina oakes at the movies\n").status == 0)
    }

    /// At a terminal (a pty from script(1)) it asks twice, and refuses two different answers.
    func atTerminal(_ arguments: [String], typing input: String) async throws -> Outcome {
        let command = ([MustcBinary.url.path] + arguments).map { "'" + $0 + "'" }.joined(separator: " ")
        var terminal = mustc
        terminal.executable = URL(fileURLWithPath: "/usr/bin/script")
        let running = try terminal.start(["-q", "-e", "-c", command, "/dev/null"], stdin: try self.input(input))
        let (outcome, exited) = await running.wait(orKillAfter: MustcBinary.deadline)
        #expect(exited)
        return outcome
    }

    @Test func atATerminalItAsksTwice() async throws {
        let differ = try await atTerminal(["password"], typing: "popcorn on sunday\ncrisps on monday\n")
        #expect(differ.status == 64, "\(differ.all)")
        #expect(differ.all.contains("the two passwords differ; nothing was changed"), "\(differ.all)")
        #expect(try storedHash() == "")
        let set = try await atTerminal(["password"], typing: "popcorn on sunday\npopcorn on sunday\n")
        #expect(set.status == 0, "\(set.all)")
        #expect(set.all.contains("New password for the page: ") && set.all.contains("Again, to be sure: "))
        #expect(set.all.contains("The page's password is set."))
        #expect(try storedHash().hasPrefix("$2b$"))
    }
}
