import Foundation
import MustCore
import TMDBStub
import Testing

/// Profiles' pure parts, with the time passed in: the PIN lockout, the trusted proxies' addresses, what each kind of
/// viewer may do, and `serve.proxyAuth` as the config file writes it.
@Suite struct ProfileAccessTests {
    let start = testStart
    let scratch = TemporaryDirectory("profile-access")

    /// One try for `profile` at `at`, ended at once: nil when it was refused before its PIN was checked.
    func tryPin(_ lockout: inout ProfileLockout, _ profile: Int64, right: Bool, at: Date)
        -> ProfileLockout.Decision
    {
        let decision = lockout.begin(profile, at: at)
        if decision == .allowed { lockout.end(profile, right: right, at: at) }
        return decision
    }

    @Test func fiveWrongPinsLockTheProfileForFifteenMinutesTheRightPinIncluded() {
        var lockout = ProfileLockout()
        for second in 0..<5 {
            #expect(tryPin(&lockout, 7, right: false, at: start + Double(second)) == .allowed, "try \(second + 1)")
        }
        // Locked at +4 s until +904 s: the right PIN is refused without being checked, with the wait in seconds.
        #expect(tryPin(&lockout, 7, right: true, at: start + 5) == .locked(retryAfter: 899))
        #expect(tryPin(&lockout, 7, right: true, at: start + 903.5) == .locked(retryAfter: 1))
        // Another profile is not held back: counted per profile, not per address.
        #expect(tryPin(&lockout, 8, right: true, at: start + 5) == .allowed)
        #expect(tryPin(&lockout, 7, right: true, at: start + 904) == .allowed)
        // The lock's failures are gone with it: four more wrong ones lock nothing.
        for second in 0..<4 {
            #expect(tryPin(&lockout, 7, right: false, at: start + 905 + Double(second)) == .allowed)
        }
        #expect(lockout.begin(7, at: start + 910) == .allowed)
    }

    @Test func failuresOlderThanFifteenMinutesDoNotCountAndTheRightPinForgives() {
        // Four wrong at 0-3 s: a fifth at 899 s is within 15 minutes of the first, and locks.
        var recent = ProfileLockout()
        for second in 0..<4 { _ = tryPin(&recent, 1, right: false, at: start + Double(second)) }
        #expect(tryPin(&recent, 1, right: false, at: start + 899) == .allowed)
        #expect(recent.begin(1, at: start + 899.5) == .locked(retryAfter: 900))
        // A fifth at 900 s is not: the first is 15 minutes old (the window is open at its end), so four count.
        var old = ProfileLockout()
        for second in 0..<4 { _ = tryPin(&old, 1, right: false, at: start + Double(second)) }
        #expect(tryPin(&old, 1, right: false, at: start + 900) == .allowed)
        #expect(old.begin(1, at: start + 900.5) == .allowed)

        // Four wrong, then the right one: the count starts again, so four more wrong still leave it open.
        var forgiving = ProfileLockout()
        for second in 0..<4 { _ = tryPin(&forgiving, 2, right: false, at: start + Double(second)) }
        #expect(tryPin(&forgiving, 2, right: true, at: start + 4) == .allowed)
        for second in 5..<9 { _ = tryPin(&forgiving, 2, right: false, at: start + Double(second)) }
        #expect(tryPin(&forgiving, 2, right: true, at: start + 9) == .allowed)
    }

    /// Tries sent at once count as failures while they are checked: the sixth waits for an answer.
    @Test func triesBeingCheckedCountSoParallelGuessesCannotPassFive() {
        var lockout = ProfileLockout()
        for _ in 0..<5 { #expect(lockout.begin(3, at: start) == .allowed) }
        #expect(lockout.begin(3, at: start) == .locked(retryAfter: 1))
        lockout.end(3, right: false, at: start)
        // One answered wrong: still five counted (one failure, four checking).
        #expect(lockout.begin(3, at: start) == .locked(retryAfter: 1))
        for _ in 0..<4 { lockout.end(3, right: false, at: start) }
        #expect(lockout.begin(3, at: start + 1) == .locked(retryAfter: 899))
    }

    static func proxy(_ ranges: [String]) throws -> ProxyAuth {
        ProxyAuth(header: "Remote-User", trustedProxies: try ranges.map { try #require(AddressRange($0)) })
    }

    @Test func trustedProxiesMatchIPv4IPv6AndMappedAddresses() throws {
        let loopback = try Self.proxy(["127.0.0.1/32"])
        #expect(loopback.trusts("127.0.0.1") && loopback.trusts("::ffff:127.0.0.1"))
        #expect(!loopback.trusts("127.0.0.2") && !loopback.trusts("::1") && !loopback.trusts("10.0.0.1"))
        #expect(!loopback.trusts("") && !loopback.trusts("localhost") && !loopback.trusts("127.0.0.1/32"))

        let network = try Self.proxy(["10.0.0.0/8", "192.168.1.0/25", "fd00::/8", "::1"])
        for trusted in ["10.255.1.2", "::ffff:10.1.2.3", "192.168.1.127", "fd12:3456::1", "fd00::1%eth0", "::1"] {
            #expect(network.trusts(trusted), "\(trusted)")
        }
        for untrusted in ["11.0.0.1", "192.168.1.128", "fe80::1", "::2", "::ffff:11.0.0.1", "fc00::1", "garbage"] {
            #expect(!network.trusts(untrusted), "\(untrusted)")
        }
        // An IPv4-mapped network is the IPv4 one, for both kinds of peer.
        let mapped = try Self.proxy(["::ffff:10.0.0.0/104"])
        #expect(mapped.trusts("10.9.8.7") && mapped.trusts("::ffff:10.9.8.7") && !mapped.trusts("11.0.0.1"))
        #expect(AddressRange("::ffff:10.0.0.0/95") == nil)
        // A bare address is one host.
        let host = try Self.proxy(["192.168.1.20"])
        #expect(host.trusts("192.168.1.20") && !host.trusts("192.168.1.21"))
    }

    @Test(arguments: [
        "127.0.0.1/33", "::/129", "10.0.0.0/", "10.0.0.0/-1", "10.0.0.0/+8", "10.0.0.0/8/8", "10.0.0.256", "/8",
        "", "localhost", "10.0.0.0/0008", "fd00::/ 8", "10.0.0.0/8 ",
    ])
    func aBadRangeIsNone(_ text: String) {
        #expect(AddressRange(text) == nil, "\(text)")
    }

    @Test func parentsAreFoldedAsNamesAre() {
        let proxy = ProxyAuth(header: "Remote-User", trustedProxies: [], parents: ["Claire"])
        #expect(proxy.isParent("claire") && proxy.isParent("CLAIRE") && !proxy.isParent("Leo"))
        // Nothing is trusted without a range.
        #expect(!proxy.trusts("127.0.0.1"))
    }

    @Test func eachViewerHasTheRightsOfItsKind() {
        let leo = Profile(memberId: 1, name: "Leo", kid: true, hasPin: false, ageLimit: "PG")
        let ann = Profile(memberId: 2, name: "Ann", kid: false, hasPin: true, ageLimit: nil)
        let rights: [PageRight] = [.anyone, .list("ann"), .list("LEO"), .nights, .parent]
        func allowed(_ access: PageAccess) -> [Bool] { rights.map(access.allows) }

        #expect(allowed(.familyPassword) == [true, true, true, true, true])
        let kid = PageAccess(profile: leo, parent: false)
        #expect(allowed(kid) == [true, false, true, false, false])
        #expect(kid.isKid && kid.audience == .limited("PG") && !kid.mayChangeSettings)
        let grownUp = PageAccess(profile: ann, parent: false)
        #expect(allowed(grownUp) == [true, true, false, true, false])
        #expect(!grownUp.isKid && grownUp.audience == .everyone)
        // The family password watching as a kid keeps every right and sees everything.
        let parentAsKid = PageAccess(profile: leo, parent: true)
        #expect(allowed(parentAsKid) == [true, true, true, true, true] && parentAsKid.audience == .everyone)
        // A proxy's kid is a kid.
        #expect(PageAccess(profile: leo, parent: false, fromProxy: true).audience == .limited("PG"))
        // Nobody in particular and no password: only what anyone may.
        #expect(allowed(PageAccess(profile: nil, parent: false)) == [true, false, false, false, false])
        // A kid without a limit leaves nothing out.
        var free = leo
        free.ageLimit = nil
        let unlimited = PageAccess(profile: free, parent: false)
        #expect(unlimited.isKid && unlimited.audience == .limited(nil) && !unlimited.audience.leavesOut)
    }

    /// `serve.proxyAuth` as the file writes it; a bad header name, no trusted proxy or a bad range is an
    /// invalid config naming the key.
    @Test func proxyAuthIsReadAndABadOneNamesItsKey() throws {
        let path = scratch.file("good.json")
        let good = #"""
            {"serve": {"proxyAuth": {"header": "Remote-User", "trustedProxies": ["127.0.0.1/32", "fd00::/8"],
             "parents": ["Claire"]}}}
            """#
        _ = FileManager.default.createFile(atPath: path, contents: Data(good.utf8))
        let config = try ConfigLoader(environment: [:]).load(explicitPath: path)
        let proxy = try #require(config.serve.proxyAuth)
        #expect(proxy.header == "Remote-User" && proxy.parents == ["Claire"])
        #expect(proxy.trustedProxies.map(\.description) == ["127.0.0.1/32", "fd00::/8"])
        #expect(proxy.trusts("127.0.0.1") && !proxy.trusts("127.0.0.2"))
        #expect(try ConfigLoader(environment: [:]).load(explicitPath: write("{}")).serve.proxyAuth == nil)

        let bad: [(String, String)] = [
            (#"{"header": "Remote User", "trustedProxies": ["127.0.0.1"]}"#, "serve.proxyAuth.header"),
            (#"{"header": "", "trustedProxies": ["127.0.0.1"]}"#, "serve.proxyAuth.header"),
            (#"{"trustedProxies": ["127.0.0.1"]}"#, "serve.proxyAuth.header"),
            (#"{"header": "Remote-User", "trustedProxies": []}"#, "serve.proxyAuth.trustedProxies"),
            (#"{"header": "Remote-User"}"#, "serve.proxyAuth.trustedProxies"),
            (#"{"header": "Remote-User", "trustedProxies": ["10.0.0.0/33"]}"#, "serve.proxyAuth.trustedProxies"),
            (#"{"header": "Remote-User", "trustedProxies": ["example.org"]}"#, "serve.proxyAuth.trustedProxies"),
        ]
        for (section, key) in bad {
            let path = write(#"{"serve": {"proxyAuth": \#(section)}}"#)
            #expect("\(section)") {
                try ConfigLoader(environment: [:]).load(explicitPath: path)
            } throws: { error in
                guard case .invalidValue(_, let named, _) = error as? ConfigError else { return false }
                return named == key
            }
        }
    }

    func write(_ text: String) -> String {
        let path = scratch.file("config-\(UUID().uuidString).json")
        _ = FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
        return path
    }
}

/// What a kid's profile sees of the library, over a real SQLite file: certified within the limit, and nothing
/// else (above it, no certification, no TMDB id, certified for another region); the limit "none" leaves nothing
/// out, and the family password's audience is everyone.
@Suite struct VisibilityTests {
    let scratch = TemporaryDirectory("visibility")
    static let order = [("NR", 0), ("G", 1), ("PG", 2), ("PG-13", 3), ("R", 4)].map {
        RegionCertification(certification: $0.0, order: $0.1)
    }

    /// Up (G), Paddington (PG), Alien (R), Unrated (none), Far (PG but read for GB, not the family's US), and a
    /// movie TMDB does not know; each of the first five has a poster.
    func library() throws -> (Store, [String: Int64]) {
        let store = try Store(path: scratch.file("mustc.sqlite"), logger: quietLogger)
        try store.keepCertificationOrder(Self.order, region: "US", now: testStart)
        var ids: [String: Int64] = [:]
        var writes: [MovieWrite] = []
        for (remoteId, title, certification, region) in [
            (1, "Up", "G", "US"), (2, "Paddington", "PG", "US"), (3, "Alien", "R", "US"),
            (4, "Unrated", nil, "US"), (5, "Far", "PG", "GB"),
        ] as [(Int, String, String?, String)] {
            let link = try store.link(member: "Ann", movie: .tmdb(remoteId), now: testStart)
            let remote = RemoteMovie(
                id: remoteId, title: title, voteAverage: 7, voteCount: 10, posterPath: "/p\(remoteId).jpg")
            ids[title] = try store.resolve(movieId: link.movieId, with: remote, now: testStart).movieId
            writes.append(
                .extras(movieId: link.movieId, MovieExtras(certification: .some(certification)), region: region))
        }
        #expect(try store.apply(writes, now: testStart).isEmpty)
        ids["Unknown"] = try store.link(member: "Ann", title: "Not On TMDB", now: testStart).movieId
        return (store, ids)
    }

    @Test func aKidSeesOnlyMoviesCertifiedWithinTheLimitInTheFamilysRegion() throws {
        let (store, ids) = try library()
        let pg = try store.visibility(.limited("PG"), region: "US")
        let shown = ids.filter { pg.shows(localId: $0.value, remoteId: nil) }.keys.sorted()
        #expect(shown == ["Paddington", "Up"], "\(shown)")
        #expect(pg.shows(localId: nil, remoteId: 2) && !pg.shows(localId: nil, remoteId: 3))
        #expect(!pg.shows(localId: nil, remoteId: nil) && !pg.shows(localId: nil, remoteId: 999))
        #expect(pg.showsPoster("p1.jpg") == true && pg.showsPoster("p3.jpg") == false)
        #expect(pg.showsPoster("p4.jpg") == false && pg.showsPoster("p5.jpg") == false)
        #expect(pg.showsPoster("suggestion.jpg") == nil)
        // The report a page reads, filtered.
        let titles = pg.filter(try store.ratings()).members.flatMap(\.movies).map(\.title).sorted()
        #expect(titles == ["Paddington", "Up"], "\(titles)")

        // G leaves Paddington out too; R admits Alien; a limit the region lacks admits nothing.
        let g = try store.visibility(.limited("G"), region: "US")
        #expect(ids.filter { g.shows(localId: $0.value, remoteId: nil) }.keys.sorted() == ["Up"])
        let r = try store.visibility(.limited("r"), region: "US")
        #expect(
            ids.filter { r.shows(localId: $0.value, remoteId: nil) }.keys.sorted() == ["Alien", "Paddington", "Up"])
        let unknown = try store.visibility(.limited("15"), region: "US")
        #expect(ids.values.allSatisfy { !unknown.shows(localId: $0, remoteId: nil) })
        // Another region's order not read yet: fails closed.
        let elsewhere = try store.visibility(.limited("PG"), region: "DE")
        #expect(ids.values.allSatisfy { !elsewhere.shows(localId: $0, remoteId: nil) })
    }

    @Test func theLimitNoneAndEveryoneLeaveNothingOut() throws {
        let (store, ids) = try library()
        for audience in [Audience.limited(nil), .everyone] {
            let all = try store.visibility(audience, region: "US")
            #expect(ids.values.allSatisfy { all.shows(localId: $0, remoteId: nil) }, "\(audience)")
            #expect(all.showsPoster("p3.jpg") == true)
            #expect(all.filter(try store.ratings()).members.first?.movies.count == 6)
        }
    }

    /// A suggestion's poster (one no library movie has) goes to a kid when its certification, read for the family's
    /// region, is within the limit.
    @Test func aSuggestionsPosterIsAKidsWhenItsCertificationForTheRegionIsWithinTheLimit() throws {
        let (store, _) = try library()
        _ = try sqlite(
            store.path,
            """
            INSERT INTO suggestionMovie (remoteId, title, posterPath, certification, extrasRegion) VALUES
                (901, 'Kind', '/s1.jpg', 'PG', 'US'), (902, 'Abroad', '/s2.jpg', 'PG', 'GB'),
                (903, 'Rough', '/s3.jpg', 'R', 'US'), (904, 'Unread', '/s4.jpg', 'PG', NULL);
            """)
        let admitted = try ["s1.jpg", "s2.jpg", "s3.jpg", "s4.jpg", "none.jpg"].map {
            try store.suggestionPosterAdmitted($0, limit: "PG", region: "US")
        }
        #expect(admitted == [true, false, false, false, false])
    }
}
