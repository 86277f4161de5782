import Foundation
import TMDBStub
import Testing

/// Names as a paste or an export brings them: invisible characters name the same member and movie, and
/// text-direction controls are refused before anything is written.
@Suite struct InvisibleCharacterTests {
    let mustc = MustcBinary()

    @Test func invisibleCharactersNameTheSameMemberAndMovie() async throws {
        #expect(try await mustc("add", "--no-lookup", "Ann", "Up").status == 0)
        for (member, title) in [("An\u{00AD}n", "Up"), ("Ann", "U\u{00AD}p"), ("\u{FEFF}Ann", "Up\u{2060}")] {
            let again = try await mustc("add", "--no-lookup", member, title)
            #expect(again.status == 0, "\(again.all)")
        }
        let members = try await mustc("members", "--format", "json")
        #expect(members.status == 0)
        let listed = try #require(try JSONSerialization.jsonObject(with: Data(members.stdout.utf8)) as? [[String: Any]])
        #expect(listed.count == 1)
        #expect(listed.first?["movies"] as? Int == 1)
    }

    @Test func aTextDirectionControlIsRefusedNamingItAndItsPlace() async throws {
        let refused = try await mustc("add", "--no-lookup", "Ann", "U\u{202E}p")
        #expect(refused.status == 64)
        #expect(refused.stderr.contains("U+202E at character 2"), "\(refused.all)")
        #expect(!FileManager.default.fileExists(atPath: mustc.databasePath), "nothing may be written")
        let member = try await mustc("add", "--no-lookup", "A\u{2067}nn", "Up")
        #expect(member.status == 64)
        #expect(member.stderr.contains("U+2067"))
    }
}
