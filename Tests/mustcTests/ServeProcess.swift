import Foundation
import TMDBStub
import TestSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

enum ServeError: Error {
    case noURL(String)
    case browser(String)
}

/// `mustc serve --listen 127.0.0.1:0` running in its own process, and the URL its first line names.
struct ServeProcess: Sendable {
    let running: Running
    let url: String

    /// - Parameter prefix: what comes before `serve`: the binary's path when `mustc` runs setpriv.
    static func start(
        _ mustc: MustcBinary, arguments: [String] = ["--listen", "127.0.0.1:0"], prefix: [String] = []
    ) async throws -> ServeProcess {
        let running = try mustc.start(prefix + ["serve"] + arguments)
        var first: Substring?
        await Poll.until(within: .seconds(60), every: .milliseconds(50)) {
            let out = (try? String(contentsOfFile: running.stdoutPath, encoding: .utf8)) ?? ""
            if out.contains("\n") { first = out.split(separator: "\n").first }
            return first != nil || !running.process.isRunning
        }
        if let line = first {
            guard line.hasPrefix("mustc: serving http://") else { throw ServeError.noURL(String(line)) }
            return ServeProcess(running: running, url: String(line.dropFirst("mustc: serving ".count)))
        }
        let (outcome, _) = await running.wait(orKillAfter: 0)
        throw ServeError.noURL(outcome.all)
    }

    /// SIGTERM, then waits; a server still running after `seconds` is killed and `exited` is false.
    func stop(within seconds: Double = 10) async -> (outcome: Outcome, exited: Bool) {
        kill(running.process.processIdentifier, SIGTERM)
        return await running.wait(orKillAfter: seconds)
    }

    /// Stops it (if still running) whatever happened in the test.
    func ensureStopped() {
        if running.process.isRunning { kill(running.process.processIdentifier, SIGKILL) }
    }
}

/// One HTTP exchange over loopback, answered in full.
struct Page: Sendable {
    var status: Int
    var headers: [String: String]
    var body: String
    /// The body's bytes, for an image.
    var data = Data()

    func header(_ name: String) -> String? {
        headers.first { $0.key.lowercased() == name.lowercased() }?.value
    }
}

enum HTTP {
    static let session: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 30
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        return URLSession(configuration: configuration)
    }()

    static func get(_ url: String, headers: [String: String] = [:]) async throws -> Page {
        var request = URLRequest(url: URL(string: url)!)
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await session.data(for: request)
        let http = response as! HTTPURLResponse
        var fields: [String: String] = [:]
        for (name, value) in http.allHeaderFields { fields["\(name)"] = "\(value)" }
        return Page(status: http.statusCode, headers: fields, body: String(decoding: data, as: UTF8.self), data: data)
    }
}
