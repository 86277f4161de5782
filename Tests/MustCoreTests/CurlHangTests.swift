import Foundation
import Synchronization
import TMDBStub
import Testing

@testable import MustCore

/// One hanging answer must not hold back the requests beside it on a fresh loop.
@Suite final class CurlHangTests {
    let stub = TMDBStubServer(movies: StubMovie.classics)

    init() throws { try stub.start() }

    deinit { stub.stop() }

    @Test func aHangingFirstAnswerDoesNotHoldBackTheOthers() async throws {
        stub.inject(.hang(seconds: 3), on: .details(id: 194), times: 1)
        let stack = CurlTransport.stack(maxConnections: 4, time: .system)
        let transport = stack.transport
        let base = stub.baseURL.absoluteString
        let url = { @Sendable (id: Int) in URL(string: "\(base)/movie/\(id)?api_key=stub-api-key")! }
        let hangingDone = Flag()
        // Both on the loop's own executor, so the order they finish in is the transport's, not the scheduler's:
        // the test suite's other tests can hold the cooperative threads for seconds.
        let hanging = Task(executorPreference: stack.executor) {
            defer { hangingDone.value.store(true, ordering: .sequentiallyConsistent) }
            return try await transport(HTTPRequest(url: url(194), timeout: 10)).status
        }
        let others = Task(executorPreference: stack.executor) {
            try await Task.sleep(for: .milliseconds(50))
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for id in [129, 14160, 8392] {
                    group.addTask { try await transport(HTTPRequest(url: url(id), timeout: 10)).status }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            return (statuses, hangingDone.value.load(ordering: .sequentiallyConsistent))
        }
        let (statuses, hangingHadEnded) = try await others.value
        #expect(statuses == [200, 200, 200])
        #expect(!hangingHadEnded, "the others waited for the hanging answer")
        #expect(try await hanging.value == 200)
    }
}

private final class Flag: Sendable {
    let value = Atomic(false)
}
