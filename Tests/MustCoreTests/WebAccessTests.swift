import Foundation
import Testing

@testable import MustCore

/// The sign-in's pure parts, with the time passed in: the attempt limiter, session expiry, tokens and the CSRF
/// check.
@Suite struct WebAccessTests {
    let start = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func theSixthFailureInAMinuteIsRefusedWithTheWaitUntilTheOldestLeaves() {
        var limiter = SignInLimiter()
        for second in 0..<5 {
            #expect(limiter.check("10.0.0.7", at: start + Double(second)) == .allowed)
            limiter.recordFailure("10.0.0.7", at: start + Double(second))
        }
        #expect(limiter.check("10.0.0.7", at: start + 10) == .refused(retryAfter: 50))
        // Another address is not held back by this one.
        #expect(limiter.check("10.0.0.8", at: start + 10) == .allowed)
        // The first failure leaves the window at +60 s: one more attempt is allowed.
        #expect(limiter.check("10.0.0.7", at: start + 59.5) == .refused(retryAfter: 1))
        #expect(limiter.check("10.0.0.7", at: start + 60) == .allowed)
    }

    @Test func anAttemptForgivenForTheRightPasswordDoesNotCount() {
        var limiter = SignInLimiter()
        for second in 0..<5 {
            limiter.recordFailure("10.0.0.7", at: start + Double(second))
            limiter.forgive("10.0.0.7")
        }
        #expect(limiter.check("10.0.0.7", at: start + 5) == .allowed)
        #expect(limiter.rememberedClients == 0)
    }

    @Test func theLimiterForgetsQuietAddressesAndStaysBounded() {
        var limiter = SignInLimiter(maxClients: 100)
        for index in 0..<1_000 { limiter.recordFailure("10.0.\(index / 256).\(index % 256)", at: start) }
        #expect(limiter.rememberedClients <= 100)
        limiter.recordFailure("late", at: start + 61)
        #expect(limiter.rememberedClients == 1)
    }

    @Test func aSessionLastsThirtyDaysFromItsLastUse() {
        let policy = SessionPolicy()
        let session = WebSession(tokenHash: "h", createdAt: start, lastUsedAt: start + 86_400)
        #expect(policy.isLive(session, at: start + 30 * 86_400))
        #expect(!policy.isLive(session, at: start + 31 * 86_400))
        #expect(!policy.needsTouch(session, at: start + 86_400 + 60))
        #expect(policy.needsTouch(session, at: start + 86_400 + 3_600))
        #expect(policy.expiredBefore(start + 31 * 86_400) == start + 86_400)
        #expect(policy.cookieMaxAge == 2_592_000)
    }

    @Test func tokensAreRandomHexAndOnlyThatShapeIsAccepted() throws {
        let (one, two) = (SessionToken.random(), SessionToken.random())
        #expect(one != two)
        #expect(one.value.count == 64)  // 256 bits
        #expect(try #require(SessionToken(cookie: one.value)) == one)
        #expect(SessionToken(cookie: String(one.value.dropLast())) == nil)
        #expect(SessionToken(cookie: one.value.uppercased()) == nil)
        #expect(SessionToken(cookie: "'; DROP TABLE webSession; --" + String(repeating: "a", count: 35)) == nil)
        // The stored hash and the CSRF token are neither the token nor each other.
        #expect(Set([one.value, one.hash, one.csrfToken]).count == 3)
        // SHA-256 of "abc…" is stable: a restart computes the same hash for the same cookie.
        #expect(one.hash == SessionToken(cookie: one.value)?.hash)
    }

    @Test func aFormNeedsItsSessionsTokenAndAnOriginOfThisSite() {
        let session = SessionToken.random()
        let token = session.csrfToken
        #expect(CSRFCheck.check(formToken: token, session: session, origin: nil, host: "h:8080") == .allowed)
        #expect(
            CSRFCheck.check(formToken: token, session: session, origin: "http://h:8080", host: "h:8080") == .allowed)
        // Behind a TLS proxy: the browser says https and the default port.
        #expect(
            CSRFCheck.check(formToken: token, session: session, origin: "https://movies.home", host: "movies.home")
                == .allowed)
        #expect(
            CSRFCheck.check(formToken: token, session: session, origin: "https://movies.home", host: "movies.home:443")
                == .allowed)
        for origin in ["http://evil.example", "http://h:8081", "null", "http://h:8080.evil", "file://h:8080"] {
            #expect(
                CSRFCheck.check(formToken: token, session: session, origin: origin, host: "h:8080")
                    == .refused("this form was sent from another site"), "\(origin)")
        }
        let stale = CSRFCheck.refusedStale
        #expect(CSRFCheck.check(formToken: nil, session: session, origin: nil, host: "h") == stale)
        #expect(CSRFCheck.check(formToken: "", session: session, origin: nil, host: "h") == stale)
        #expect(
            CSRFCheck.check(formToken: SessionToken.random().csrfToken, session: session, origin: nil, host: "h")
                == stale)
    }

    /// 10 unless a debug build's test command asks for less: never more, never below bcrypt's 4, never for text.
    @Test func theWorkFactorIsTenUnlessTheTestCommandOfADebugBuildLowersIt() {
        #expect(FamilyPassword.cost == 10)
        #expect(FamilyPassword.workFactor(environment: [:]) == 10)
        for refused in ["3", "11", "ten", "", "-4"] {
            #expect(FamilyPassword.workFactor(environment: ["MUSTC_TEST_BCRYPT_COST": refused]) == 10)
        }
        #if DEBUG
            #expect(FamilyPassword.workFactor(environment: ["MUSTC_TEST_BCRYPT_COST": "4"]) == 4)
        #else
            #expect(FamilyPassword.workFactor(environment: ["MUSTC_TEST_BCRYPT_COST": "4"]) == 10)
        #endif
    }

    @Test func thePasswordMustFitBcryptAndOnlyItsHashMatches() throws {
        #expect(throws: FamilyPassword.Problem.tooShort) { try FamilyPassword.validate("short") }
        #expect(throws: FamilyPassword.Problem.tooLong) {
            try FamilyPassword.validate(String(repeating: "é", count: 37))
        }
        #expect(throws: FamilyPassword.Problem.controlCharacters) { try FamilyPassword.validate("tab\there ok") }
        let hash = FamilyPassword.hash("popcorn on sunday")
        #expect(hash.hasPrefix(String(format: "$2b$%02d$", FamilyPassword.workFactor)) && !hash.contains("popcorn"))
        let full = FamilyPassword.hash("popcorn on sunday", factor: FamilyPassword.cost)
        #expect(full.hasPrefix("$2b$10$") && FamilyPassword.verify("popcorn on sunday", hash: full))
        #expect(!FamilyPassword.verify("popcorn on monday", hash: full))
        #expect(FamilyPassword.verify("popcorn on sunday", hash: hash))
        #expect(!FamilyPassword.verify("popcorn on monday", hash: hash))
        #expect(FamilyPassword.hash("popcorn on sunday") != hash)  // salted
    }
}
