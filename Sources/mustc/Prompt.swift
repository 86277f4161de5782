import Foundation

/// The numbered choice `add` offers when a person is at the terminal; off a terminal nothing is ever asked or taken.
enum Prompt {
    static var isInteractive: Bool { Console.isTerminal(STDIN_FILENO) && Console.isTerminal(STDOUT_FILENO) }

    /// Asks for a number from 1 to `count`; nil for Enter, end of input, or anything else.
    static func choose(_ count: Int, none: String) -> Int? {
        print("  Which one? \(count == 1 ? "1" : "1-\(count)"), or Enter \(none): ", terminator: "")
        fflush(nil)  // every output stream: the question must show before the read blocks
        guard let line = readLine(), let number = Int(line.trimmingCharacters(in: .whitespaces)),
            (1...count).contains(number)
        else { return nil }
        return number - 1
    }
}
