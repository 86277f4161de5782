import Foundation
import TMDBStub

// A TMDB-compatible server on 127.0.0.1 for demos and benchmarks. Prints its base URL, then serves until killed.
// Usage: tmdb-stub [--port N] [--movies N] [--latency-ms N] [--rate-limit N] [--api-key K] [--access-token T]
var options: [String: String] = [:]
var arguments = CommandLine.arguments.dropFirst().makeIterator()
while let name = arguments.next() {
    guard name.hasPrefix("--"), let value = arguments.next() else {
        FileHandle.standardError.write(Data("tmdb-stub: expected --name value pairs, got \(name)\n".utf8))
        exit(64)
    }
    options[String(name.dropFirst(2))] = value
}

let server = TMDBStubServer(
    apiKey: options["api-key"] ?? "stub-api-key", accessToken: options["access-token"] ?? "stub-access-token",
    movies: StubMovie.classics + StubMovie.identity + StubMovie.synthetic(Int(options["movies"] ?? "0") ?? 0))
server.recordsRequests = false
server.latency = (Double(options["latency-ms"] ?? "0") ?? 0) / 1000
if let limit = options["rate-limit"].flatMap(Int.init) { server.setRateLimit(requests: limit, per: 1) }
do {
    try server.start(port: UInt16(options["port"] ?? "0") ?? 0)
} catch {
    FileHandle.standardError.write(Data("tmdb-stub: \(error)\n".utf8))
    exit(75)
}
FileHandle.standardOutput.write(Data((server.baseURL.absoluteString + "\n").utf8))
while true { sleep(3600) }
