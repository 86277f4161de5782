import Foundation
import TMDBStub
import Testing

/// `mustc member NAME --pin|--no-pin|--kid|--grown-up` through the built binary: the PIN is read twice from
/// standard input, a mismatch or a PIN that is not 4 to 8 digits is exit 64 and changes nothing, and the PIN
/// never appears in the database file, only its hash.
@Suite struct MemberProfileTests {
    static func member(_ mustc: MustcBinary, _ arguments: [String], input: String? = nil) async throws -> Outcome {
        let stdin = try input.map { text in
            let path = mustc.home.file("stdin-\(UUID().uuidString)")
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            return path
        }
        let running = try mustc.start(["member"] + arguments, stdin: stdin)
        let (outcome, exited) = await running.wait(orKillAfter: 60)
        #expect(exited, "member \(arguments) did not end")
        return outcome
    }

    static func profile(_ mustc: MustcBinary) throws -> String {
        try sqlite(mustc.databasePath, "SELECT pinHash IS NOT NULL, kid FROM member WHERE name = 'Ann'")
    }

    @Test func aPinIsReadTwiceKeptAsAHashAndAKidIsMarked() async throws {
        let stub = TMDBStubServer(movies: StubMovie.classics)
        try stub.start()
        defer { stub.stop() }
        let mustc = MustcBinary(stub: stub)
        #expect(try await mustc("add", "Ann", "Up").status == 0)

        for bad in ["97531\n13579\n", "12a4\n12a4\n", "123\n123\n", "123456789\n123456789\n", "97531\n"] {
            let refused = try await Self.member(mustc, ["Ann", "--pin"], input: bad)
            #expect(refused.status == 64, "\(bad.debugDescription): \(refused.all)")
            #expect(try Self.profile(mustc) == "0|0")
        }
        let set = try await Self.member(mustc, ["Ann", "--pin"], input: "97531\n97531\n")
        #expect(set.status == 0, "\(set.all)")
        #expect(try Self.profile(mustc) == "1|0")
        #expect(!set.all.contains("97531"))
        for file in [mustc.databasePath, mustc.databasePath + "-wal"] {
            let bytes = FileManager.default.contents(atPath: file) ?? Data()
            #expect(bytes.range(of: Data("97531".utf8)) == nil, "the PIN is in \(file)")
        }

        let kid = try await Self.member(mustc, ["ann", "--kid"])
        #expect(kid.status == 0, "\(kid.all)")
        #expect(try Self.profile(mustc) == "1|1")
        #expect(try await Self.member(mustc, ["Ann", "--kid", "--grown-up"]).status == 64)
        #expect(try await Self.member(mustc, ["Ann", "--grown-up", "--no-pin"]).status == 0)
        #expect(try Self.profile(mustc) == "0|0")
    }
}
