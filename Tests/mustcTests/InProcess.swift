import Dispatch
import Foundation
import Synchronization
import TestSupport

@testable import mustc

/// A command run inside the test's process, as swift-argument-parser's own tests run theirs: the arguments parsed
/// and the command run by `Mustc.runReporting`, the function the binary's `main` calls, with its standard output and
/// error captured and its input and environment given (`Console.captured`). No process is started: most tests check
/// what a command printed and its exit code, and a launch of the binary costs 20 to 30 ms of CPU here (optimized; a
/// tenth of a second in a debug build). The binary's own runs stay where the process is the subject
/// (`MustcBinary.binary`, `start`).
enum InProcess {
    static func run(
        _ arguments: [String], environment: [String: String], input: Data = Data(), deadline: Double
    ) async throws -> Outcome {
        let console = CapturedConsole(environment: environment, input: input)
        let status: Int32? = await withCheckedContinuation { continuation in
            let answer = Answer(continuation)
            let executor = CommandExecutor()
            let command = Task(executorPreference: executor) {
                let code = await Console.$captured.withValue(console) { await Mustc.runReporting(arguments) }
                executor.end()
                answer.give(code ?? 0)
            }
            // A command that never ends fails its test at the deadline, as the binary's run is killed at it.
            Task {
                await Poll.until(within: Poll.seconds(deadline), every: .seconds(1)) { answer.given }
                if !answer.given { command.cancel() }
                answer.give(nil)
            }
        }
        guard let status else { throw BinaryError.timedOut(arguments, seconds: deadline) }
        let (output, error) = ([UInt8](console.output), [UInt8](console.error))
        return Outcome(
            status: status, stdout: String(decoding: output, as: UTF8.self),
            stderr: String(decoding: error, as: UTF8.self), stdoutBytes: output, stderrBytes: error)
    }

    /// The exit code, given once: by the command as it ends, or as nil by the deadline.
    private final class Answer: Sendable {
        private let waiting: Mutex<CheckedContinuation<Int32?, Never>?>

        init(_ continuation: CheckedContinuation<Int32?, Never>) { waiting = Mutex(continuation) }

        var given: Bool { waiting.withLock { $0 == nil } }

        func give(_ code: Int32?) {
            waiting.withLock { waiting in
                waiting?.resume(returning: code)
                waiting = nil
            }
        }
    }
}

/// Where an in-process command's work runs: two threads of its own, as the binary has its own two cooperative
/// threads on this machine, so that its blocking SQLite calls and waits hold neither the test process's cooperative
/// threads nor Dispatch's (whose pool adds a thread for a blocked one only after a while). They end with `end()`;
/// a job that comes after them (a task the command left behind) runs on Dispatch.
final class CommandExecutor: TaskExecutor, @unchecked Sendable {
    private let condition = NSCondition()
    /// Guarded by `condition`.
    private var jobs: [UnownedJob] = []
    private var ending = false
    private var working = 0

    init(threads: Int = 2) {
        working = threads
        for _ in 0..<threads { Thread { [self] in work() }.start() }
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        defer { condition.unlock() }
        guard working > 0 else {
            let executor = asUnownedTaskExecutor()
            return DispatchQueue.global().async { job.runSynchronously(on: executor) }
        }
        jobs.append(job)
        condition.signal()
    }

    /// Lets the threads end once no job is left.
    func end() {
        condition.lock()
        ending = true
        condition.broadcast()
        condition.unlock()
    }

    private func work() {
        let executor = asUnownedTaskExecutor()
        while true {
            condition.lock()
            while jobs.isEmpty && !ending { condition.wait() }
            guard !jobs.isEmpty else {
                working -= 1
                return condition.unlock()
            }
            let job = jobs.removeFirst()
            condition.unlock()
            job.runSynchronously(on: executor)
        }
    }
}
