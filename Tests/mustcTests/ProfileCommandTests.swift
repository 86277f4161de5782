import Foundation
import TMDBStub
import Testing

/// `mustc member NAME --pin|--no-pin|--kid|--grown-up`, as a parent would run it: in the test's process, with the
/// PIN on standard input, and once through the built binary.
@Suite struct ProfileCommandTests {
    let mustc = MustcBinary()

    func member(_ arguments: [String], stdin text: String = "", binary: Bool = false) async throws -> Outcome {
        var mustc = mustc
        if binary { mustc.through = .binary }
        return try await mustc.run(["member"] + arguments, input: text)
    }

    func pinHash() throws -> String {
        try sqlite(mustc.databasePath, "SELECT ifnull(pinHash, '') FROM member WHERE nameKey = 'leo'")
    }

    @Test func aPinIsReadTwiceAndKeptOnlyAsAHash() async throws {
        #expect(try await mustc.run(["add", "--no-lookup", "Leo", "Up (2009)"]).status == 0)
        // Through the built binary: `member`'s end-to-end run.
        let set = try await member(["Leo", "--pin"], stdin: "4711\n4711\n", binary: true)
        #expect(set.status == 0, "\(set.all)")
        #expect(set.stdout == "Leo's profile asks for its PIN on the page.\n")
        let hash = try pinHash()
        #expect(hash.hasPrefix("$2b$") && hash.count == 60)
        #expect(!set.all.contains("4711"))
        // Neither in the file nor in its write-ahead log, in the form it was typed in.
        for file in [mustc.databasePath, mustc.databasePath + "-wal"] {
            let bytes = FileManager.default.contents(atPath: file) ?? Data()
            #expect(bytes.range(of: Data("4711".utf8)) == nil, "the PIN is in \(file)")
        }

        // A browser signed in as Leo is signed out when his PIN changes.
        _ = try sqlite(
            mustc.databasePath,
            "INSERT INTO webSession VALUES ('a', '2026-11-20 10:00:00.000', '2026-11-20 10:00:00.000', "
                + "(SELECT id FROM member WHERE nameKey = 'leo'), 0)")
        let removed = try await member(["leo", "--no-pin"])
        #expect(removed.status == 0, "\(removed.all)")
        #expect(removed.stdout == "Leo's profile has no PIN; 1 browser was signed out of it.\n")
        #expect(try pinHash() == "")
        #expect(try sqlite(mustc.databasePath, "SELECT count(*) FROM webSession") == "0")
    }

    @Test(arguments: [
        ("4711\n4712\n", "the two PINs differ"), ("47a1\n47a1\n", "4 to 8 digits"), ("123\n123\n", "4 to 8 digits"),
        ("123456789\n123456789\n", "4 to 8 digits"), ("4711\n", "reads the PIN twice"),
    ])
    func aPinThatCannotBeUsedChangesNothing(_ input: String, _ message: String) async throws {
        #expect(try await mustc.run(["add", "--no-lookup", "Leo", "Up (2009)"]).status == 0)
        let outcome = try await member(["Leo", "--pin", "--kid"], stdin: input)
        #expect(outcome.status == 64, "\(outcome.all)")
        #expect(outcome.stderr.contains(message) && outcome.stderr.contains("nothing was changed"), "\(outcome.stderr)")
        #expect(try pinHash() == "")
        #expect(try sqlite(mustc.databasePath, "SELECT kid FROM member WHERE nameKey = 'leo'") == "0")
    }

    @Test func aKidsProfileSaysWhatTheyWillSee() async throws {
        #expect(try await mustc.run(["add", "--no-lookup", "Leo", "Up (2009)"]).status == 0)
        let kid = try await member(["Leo", "--kid"])
        #expect(kid.status == 0, "\(kid.all)")
        #expect(kid.stdout.hasPrefix("Leo has a kid's profile, with no age limit: they see every movie until"))
        #expect(try sqlite(mustc.databasePath, "SELECT kid FROM member WHERE nameKey = 'leo'") == "1")
        let grown = try await member(["Leo", "--grown-up"])
        #expect(grown.stdout == "Leo has a grown-up's profile.\n")
        #expect(try sqlite(mustc.databasePath, "SELECT kid FROM member WHERE nameKey = 'leo'") == "0")

        let both = try await member(["Leo", "--kid", "--grown-up"])
        #expect(both.status == 64 && both.stderr.contains("can't go together"))
        let nobody = try await member(["Zoe", "--kid"])
        #expect(nobody.status == 64 && nobody.stderr.contains("there is no member"))
    }
}
