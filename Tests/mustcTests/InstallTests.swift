import Foundation
import MustCore
import Testing

/// What contrib/install.sh takes from the binary: the version and a completion script for each shell, from the built
/// binary itself.
@Suite struct InstallTests {
    @Test func versionIsTheOneDefinedInMustCore() async throws {
        let outcome = try await MustcBinary().binary("--version")
        #expect(outcome.status == 0, "\(outcome.all)")
        #expect(outcome.stdout == MustcVersion.current + "\n" + MustcVersion.tmdbNotice + "\n")
        #expect(MustcVersion.current.split(separator: ".").count == 3)
    }

    @Test(arguments: ["bash", "zsh", "fish"])
    func completionScriptsNameEveryCommand(_ shell: String) async throws {
        let outcome = try await MustcBinary().binary("--generate-completion-script", shell)
        #expect(outcome.status == 0, "\(outcome.all)")
        for command in ["add", "ratings", "members", "movies", "remove", "fetch", "status", "serve"] {
            #expect(outcome.stdout.contains(command), "\(shell) completion lacks \(command)")
        }
    }
}
