import ArgumentParser
import Foundation
import MustCore

struct PasswordCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "password",
        abstract: "Set the family's password for edits from the page (mustc serve), or remove it.",
        discussion: """
            At a terminal it asks twice without showing what is typed; otherwise it reads one line from \
            standard input. A password on a list of 11,611 common ones, or a member's name, is refused. Only a \
            bcrypt hash is stored. Setting a new password, or removing it, signs every \
            browser out. Without a password the page is read-only.
            """
    )

    @OptionGroup var global: GlobalOptions

    @Flag(help: "Remove the password: edits from the page are off, and every browser is signed out.")
    var remove = false

    func run() async throws {
        try await reporting {
            let store = try global.openStore(try global.loadConfig())
            guard !remove else {
                let (ended, had) = try store.replacePassword(hash: nil)
                print(
                    had
                        ? "The page's password is removed: the page is read-only\(Self.signedOut(ended))."
                        : "There was no password for the page; nothing changed.")
                return
            }
            let password = try Self.readPassword()
            do {
                try FamilyPassword.checkStrength(password, memberNames: try store.members().map(\.name))
            } catch {
                throw Failure.usage("\(error); nothing was changed")
            }
            let hash = FamilyPassword.hash(password)
            let (ended, had) = try store.replacePassword(hash: hash)
            print("The page's password is \(had ? "changed" : "set")\(Self.signedOut(ended)).")
        }
    }

    private static func signedOut(_ sessions: Int) -> String {
        sessions == 0 ? "" : "; \(sessions) signed-in browser\(sessions == 1 ? " was" : "s were") signed out"
    }

    /// Asks twice without echo at a terminal, or reads one line from a pipe; a usage failure names the problem.
    private static func readPassword() throws -> String {
        do {
            guard Console.isTerminal(STDIN_FILENO) else {
                guard let line = Console.readLine(strippingNewline: true) else {
                    throw Failure.usage(
                        "no password on standard input; pipe one line, or run at a terminal; nothing was changed")
                }
                return try FamilyPassword.validate(line.hasSuffix("\r") ? String(line.dropLast()) : line)
            }
            let first = try FamilyPassword.validate(try SilentInput.line(prompt: "New password for the page: "))
            let second = try SilentInput.line(prompt: "Again, to be sure: ")
            guard first == second else { throw FamilyPassword.Problem.different }
            return first
        } catch let problem as FamilyPassword.Problem {
            throw Failure.usage("\(problem); nothing was changed")
        }
    }
}

/// One line read from the terminal with echo off, restored even when reading fails.
enum SilentInput {
    static func line(prompt: String, what: String = "password") throws -> String {
        Console.write(Data(prompt.utf8), to: .error)
        var saved = termios()
        let canHide = tcgetattr(STDIN_FILENO, &saved) == 0
        if canHide {
            var quiet = saved
            quiet.c_lflag &= ~tcflag_t(ECHO)
            _ = tcsetattr(STDIN_FILENO, TCSANOW, &quiet)
        }
        defer {
            if canHide { _ = tcsetattr(STDIN_FILENO, TCSANOW, &saved) }
            Console.write(Data("\n".utf8), to: .error)
        }
        guard let line = Console.readLine(strippingNewline: true) else {
            throw Failure.usage("no \(what) was typed; nothing was changed")
        }
        return line
    }
}
