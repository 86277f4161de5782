import Foundation
import HTTPTypes
import HummingbirdTesting
import MustCore
import TMDBStub
import Testing

@testable import MustWeb

/// The family of the profile tests, in a real SQLite file: Ann keeps Up (G), Paddington (PG), Alien (R, changed
/// this week) and Mystery Reel (no certification); Bob keeps a movie TMDB does not know; Leo keeps Up, with his own
/// limit PG. The family password is set and the US certifications are kept; Paddington's and Alien's posters are on
/// the shelf. Nobody has a PIN and nobody is a kid until a test says so.
enum ProfileFamily {
    static let alien = 348
    static let paddington = 116_149
    static let mystery = 900_100

    static func make() throws -> WebFamily {
        let family = try WebFamily()
        try family.setPassword()
        try family.store.keepCertificationOrder(WebSettingsTests.usOrder, region: "US", now: family.now)
        let shelf = PosterShelf(databasePath: family.store.path)
        try FileManager.default.createDirectory(atPath: shelf.folder(.w185), withIntermediateDirectories: true)
        var writes: [MovieWrite] = []
        for (id, title, certification, poster) in [
            (14160, "Up", "G", nil), (paddington, "Paddington", "PG", "paddington.png"),
            (alien, "Alien", "R", "alien.png"), (mystery, "Mystery Reel", nil, nil),
        ] as [(Int, String, String?, String?)] {
            let movie = RemoteMovie(
                id: id, title: title, voteAverage: 7.1, voteCount: 100, releaseDate: "2001-01-01",
                posterPath: poster.map { "/" + $0 })
            let movieId = try family.keep("Ann", movie)
            writes.append(
                .extras(movieId: movieId, MovieExtras(runtime: 90, certification: .some(certification)), region: "US"))
            if let poster {
                try StubPoster.png(id: id, width: 185).write(
                    to: URL(fileURLWithPath: shelf.folder(.w185) + "/" + poster))
            }
        }
        #expect(try family.store.apply(writes, now: family.now).isEmpty)
        // Alien's figures moved this week: it is on /changes.
        let alienId = try #require(try family.store.movieReport(.tmdb(alien))?.localId)
        try family.rate(
            alienId,
            RemoteMovie(
                id: alien, title: "Alien", voteAverage: 7.9, voteCount: 140, releaseDate: "2001-01-01",
                posterPath: "/alien.png"))
        _ = try family.store.link(member: "Bob", title: "Not On TMDB", now: family.now)
        try family.keep(
            "Leo", RemoteMovie(id: 14160, title: "Up", voteAverage: 7.1, voteCount: 100, releaseDate: "2001-01-01"))
        _ = try family.store.setAgeLimit(member: "Leo", to: "PG")
        return family
    }

    /// The family with Leo a kid profile: every page asks "Who's watching?" first.
    static func withKid() throws -> WebFamily {
        let family = try make()
        #expect(try family.store.setKid(member: "Leo", true)?.name == "Leo")
        return family
    }

    /// What a kid with limit PG may not see, by the words a page would show it with.
    static let hidden = ["Alien", "Mystery Reel", "Not On TMDB"]
}

extension TestClientProtocol {
    /// Chooses a profile on "Who's watching?" as a browser does: opens it (which sets the chooser's cookie) and
    /// posts its form with that cookie's CSRF token, and the PIN when given. The answer, and the session's cookie
    /// when one was started.
    func choose(_ name: String, pin: String? = nil) async throws -> (answer: TestResponse, cookie: String?) {
        let chooser = try await get("/profiles")
        let set = try #require(chooser.headers[.setCookie], "the chooser sets its cookie")
        let cookie = String(set.prefix { $0 != ";" })
        #expect(cookie.hasPrefix(ProfileRoutes.chooserCookie + "="))
        let csrf = try #require(chooser.csrf, "\(chooser.text)")
        let answer = try await post(
            "/profiles/" + name, form: [("csrf", csrf)] + (pin.map { [("pin", $0)] } ?? []), cookie: cookie,
            origin: "http://localhost")
        return (answer, WebFamily.sessionCookie(answer))
    }
}

extension TestResponse {
    /// Whether the page is "Who's watching?", offering these members and nothing of the lists.
    func isChooser(offering names: [String]) -> Bool {
        text.contains("<h1>Who's watching?</h1>") && names.allSatisfy { text.contains("<bdi>\($0)</bdi>") }
    }
}
