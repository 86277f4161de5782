import Foundation
import Testing

/// Four processes add the same 100 titles, spelled differently, at the same moment on a fresh file.
@Suite struct ConcurrencyTests {
    /// Spellings that must all land on one movie row.
    static func spelling(_ index: Int, variant: Int) -> String {
        switch variant {
        case 0: "Cœur de Łódź \(index)"
        case 1: "COEUR DE LODZ \(index)"
        case 2: "  coeur   de lodz \(index) "
        default: "Cœur de Łódź \(index)".decomposedStringWithCanonicalMapping.replacingOccurrences(of: "C", with: "Ｃ")
        }
    }

    @Test func fourProcessesAddingOverlappingTitlesLeaveNoDuplicates() async throws {
        let mustc = MustcBinary()
        let members = ["Alice", "Bob", "BOB", "Zoë"]
        let running = try members.enumerated().map { variant, member in
            try mustc.start(["add", "--no-lookup", member] + (1...100).map { Self.spelling($0, variant: variant) })
        }
        let outcomes = await waitAll(running)
        for outcome in outcomes {
            #expect(outcome.status == 0, "\(outcome.stderr)")
            #expect(!outcome.all.contains("locked"))
            #expect(!outcome.all.contains("busy"))
        }

        let report = try await mustc("ratings", "--format", "json")
        let listed = try #require(try report.json()["members"] as? [[String: Any]])
        #expect(listed.map { $0["name"] as? String }.count == 3)
        let titlesPerMember = listed.map {
            (($0["movies"] as? [[String: Any]]) ?? []).compactMap { $0["title"] as? String }
        }
        #expect(titlesPerMember.map(\.count) == [100, 100, 100])
        let distinct = Set(titlesPerMember.flatMap { $0 })
        #expect(distinct.count == 100)
        // Bob's two processes were one member, each pair added once.
        let bob = outcomes[1].stdout + outcomes[2].stdout
        #expect(bob.components(separatedBy: "now has").count - 1 == 100)
        #expect(bob.components(separatedBy: "already has").count - 1 == 100)
    }
}
