import ArgumentParser
import Foundation
import MustCore

/// A failure the user must act on: printed as one line on stderr, then mustc exits with its code.
struct Failure: Error {
    var message: String
    var exitCode: Int32

    static func usage(_ message: String) -> Failure { Failure(message: message, exitCode: 64) }
    static func temporary(_ message: String) -> Failure { Failure(message: message, exitCode: 75) }
    static func config(_ message: String) -> Failure { Failure(message: message, exitCode: 78) }

    init(message: String, exitCode: Int32) {
        self.message = message
        self.exitCode = exitCode
    }

    init(store error: StoreError) {
        switch error {
        case .newerSchema, .cannotOpen, .needsWriteAccess: self = .config(error.description)
        case .busy, .failed: self = .temporary(error.description)
        }
    }
}

extension AsyncParsableCommand {
    /// Runs the body, printing any `Failure` and exiting with its code.
    func reporting(_ body: () async throws -> Void) async throws {
        do {
            try await body()
        } catch let failure as Failure {
            Output.error(failure.message)
            throw ExitCode(failure.exitCode)
        } catch let error as StoreError {
            let failure = Failure(store: error)
            Output.error(failure.message)
            throw ExitCode(failure.exitCode)
        }
    }
}

enum Output {
    static func error(_ message: String) {
        Console.write(Data("mustc: error: \(TerminalText.visible(message))\n".utf8), to: .error)
    }

    static func note(_ message: String) {
        Console.write(Data("mustc: \(TerminalText.visible(message))\n".utf8), to: .error)
    }
}
