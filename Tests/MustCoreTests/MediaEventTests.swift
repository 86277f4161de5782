import Foundation
import MustCore
import Testing

/// Jellyfin's, Plex's and Emby's webhook payloads, in the shapes the servers send (HISTORY-SOURCES.md), read into
/// (user, ids, title, year, what happened).
@Suite struct MediaEventTests {
    static func jellyfin(_ fields: [String: Any]) -> Data {
        var body: [String: Any] = [
            "ServerId": "a1b2c3d4e5f6", "ServerName": "living-room", "ServerVersion": "10.9.7",
            "NotificationType": "PlaybackStop", "Timestamp": "2026-11-26T21:48:02.1234567+01:00",
            "UtcTimestamp": "2026-11-26T20:48:02.1234567Z", "Name": "The Matrix", "ItemId": "8f3c11",
            "ItemType": "Movie", "RunTimeTicks": 81_840_000_000, "RunTime": "02:16:24", "Year": 1999,
            "PremiereDate": "1999-03-30", "Provider_tmdb": "603", "Provider_imdb": "tt0133093",
            "Video_0_Codec": "h264", "Audio_0_Language": NSNull(), "PlaybackPositionTicks": 81_800_000_000,
            "IsPaused": false, "DeviceName": "Living Room TV", "ClientName": "Jellyfin Android TV",
            "PlayedToCompletion": true, "NotificationUsername": "Ann", "UserId": "5c6d7e",
        ]
        for (key, value) in fields { body[key] = value }
        return try! JSONSerialization.data(withJSONObject: body.filter { !($0.value is Skip) })
    }

    static func plex(_ event: String, _ metadata: [String: Any], rating: Any? = nil) -> Data {
        var movie: [String: Any] = [
            "librarySectionType": "movie", "ratingKey": "1234", "key": "/library/metadata/1234",
            "guid": "plex://movie/5d776825880197001ec967c6", "type": "movie", "title": "The Matrix",
            "librarySectionTitle": "Movies", "year": 1999, "duration": 8_160_000, "originallyAvailableAt": "1999-03-30",
            "addedAt": 1_699_999_999, "Guid": [["id": "imdb://tt0133093"], ["id": "tmdb://603"], ["id": "tvdb://169"]],
        ]
        for (key, value) in metadata { movie[key] = value }
        var body: [String: Any] = [
            "event": event, "user": true, "owner": true,
            "Account": ["id": 1, "thumb": "https://plex.tv/users/abc/avatar?c=1", "title": "Ann"],
            "Server": ["title": "Den", "uuid": "f00"], "Player": ["local": true, "title": "Plex Web (Chrome)"],
            "Metadata": movie.filter { !($0.value is Skip) },
        ]
        if let rating { body["rating"] = rating }
        return try! JSONSerialization.data(withJSONObject: body)
    }

    static func emby(_ event: String, item: [String: Any] = [:], completed: Bool? = nil) -> Data {
        var movie: [String: Any] = [
            "Name": "The Matrix", "Id": "123", "PremiereDate": "1999-03-30T00:00:00.0000000Z", "ProductionYear": 1999,
            "ProviderIds": ["Tmdb": "603", "Imdb": "tt0133093"], "RunTimeTicks": 81_840_000_000, "Type": "Movie",
            "MediaType": "Video",
        ]
        for (key, value) in item { movie[key] = value }
        var body: [String: Any] = [
            "Title": "Ann has finished playing The Matrix", "Date": "2026-11-26T20:48:02.0000000Z", "Event": event,
            "Severity": "Info", "User": ["Name": "Ann", "Id": "u1"], "Item": movie, "Server": ["Name": "Emby"],
        ]
        if let completed {
            body["PlaybackInfo"] = ["PlayedToCompletion": completed, "PositionTicks": 81_800_000_000]
        }
        return try! JSONSerialization.data(withJSONObject: body)
    }

    /// A field left out of a fixture.
    struct Skip {}

    static let matrix = (tmdb: 603, imdb: "tt0133093", title: "The Matrix", year: 1999)

    @Test(arguments: [
        (jellyfin([:]), MediaEvent.Kind.watched),
        (jellyfin(["PlayedToCompletion": false]), .ignored("stopped before the end")),
        (
            jellyfin(["NotificationType": "UserDataSaved", "SaveReason": "TogglePlayed", "Played": true]),
            .watched
        ),
        (
            jellyfin(["NotificationType": "UserDataSaved", "SaveReason": "TogglePlayed", "Played": false]),
            .unwatched
        ),
        (
            jellyfin(["NotificationType": "UserDataSaved", "SaveReason": "PlaybackFinished", "Played": "True"]),
            .watched
        ),
        (
            jellyfin(["NotificationType": "PlaybackStart", "PlayedToCompletion": Skip()]),
            .ignored("PlaybackStart changes nothing")
        ),
        (
            jellyfin(["ItemType": "Episode", "SeasonNumber00": "01", "EpisodeNumber00": "03"]),
            .ignored("a Episode, not a movie")
        ),
        // The server's word decides: played to completion at 7 % (the family's threshold on the server) is watched.
        (jellyfin(["PlaybackPositionTicks": 5_800_000_000]), .watched),
        (
            jellyfin(["PlaybackPositionTicks": 5_700_000_000, "PlayedToCompletion": false]),
            .ignored("stopped before the end")
        ),
        // Without the field, the position decides: 9 % is not watched, 98 % is; no position says nothing.
        (
            jellyfin(["PlaybackPositionTicks": 8_000_000_000, "PlayedToCompletion": Skip()]),
            .ignored("stopped at 9 % of the film")
        ),
        (jellyfin(["PlayedToCompletion": Skip()]), .watched),
        (
            jellyfin(["PlaybackPositionTicks": Skip(), "PlayedToCompletion": Skip()]),
            .ignored("stopped, without saying whether it was played to the end")
        ),
    ])
    func jellyfinEvents(body: Data, kind: MediaEvent.Kind) throws {
        let event = try MediaEvent.parse(.jellyfin, json: body)
        #expect(event.kind == kind)
        #expect(event.user == "Ann" && event.tmdbId == 603 && event.imdbId == "tt0133093")
        #expect(event.title == "The Matrix" && event.year == 1999)
    }

    @Test func aHugeUserNameIsCutAndATitleWithControlCharactersIsSaidSo() throws {
        let huge = String(repeating: "u", count: 100_000)
        let event = try MediaEvent.parse(.jellyfin, json: Self.jellyfin(["NotificationUsername": huge]))
        #expect(event.user.count == 200 && event.user.hasSuffix("…") && event.user.hasPrefix("uuu"))
        let long = try MediaEvent.parse(
            .jellyfin, json: Self.jellyfin(["Name": String(repeating: "t", count: 5_000), "Provider_tmdb": "603"]))
        #expect(long.shownMovie.count == "\(String(repeating: "t", count: 199))… (1999)".count)
        for title in ["The\u{0}Matrix", "The Matrix\u{1B}[2J"] {
            let body = Self.jellyfin(["Name": title, "Provider_tmdb": Skip(), "Provider_imdb": Skip()])
            #expect(throws: MediaEventError("the title holds control characters")) {
                try MediaEvent.parse(.jellyfin, json: body)
            }
        }
    }

    @Test func jellyfinWithoutATMDBIdNamesTheIMDbIdThenTheTitle() throws {
        let noTMDB = try MediaEvent.parse(.jellyfin, json: Self.jellyfin(["Provider_tmdb": Skip()]))
        #expect(noTMDB.reference == .imdb("tt0133093"))
        let titleOnly = try MediaEvent.parse(
            .jellyfin, json: Self.jellyfin(["Provider_tmdb": Skip(), "Provider_imdb": Skip()]))
        #expect(titleOnly.reference == .title("The Matrix", year: 1999))
        #expect(
            throws: MediaEventError("the event names no movie: no TMDB id, no IMDb id and no title"),
            performing: {
                try MediaEvent.parse(
                    .jellyfin, json: Self.jellyfin(["Provider_tmdb": Skip(), "Provider_imdb": Skip(), "Name": Skip()]))
            })
    }

    @Test(arguments: [
        (plex("media.scrobble", [:]), MediaEvent.Kind.watched, 603 as Int?, "tt0133093" as String?),
        (plex("media.rate", [:], rating: 4.0), .rated(4), 603, "tt0133093"),
        (plex("media.rate", [:], rating: "10"), .rated(10), 603, "tt0133093"),
        (plex("media.pause", [:]), .ignored("media.pause changes nothing"), 603, "tt0133093"),
        (
            plex("media.scrobble", ["Guid": Skip(), "guid": "com.plexapp.agents.imdb://tt0133093?lang=en"]), .watched,
            nil, "tt0133093"
        ),
        (
            plex("media.scrobble", ["Guid": Skip(), "guid": "com.plexapp.agents.themoviedb://603?lang=en"]), .watched,
            603, nil
        ),
        (
            plex("media.scrobble", ["type": "episode", "Guid": [["id": "tmdb://62085"]]]),
            .ignored("a episode, not a movie"), 62085, nil
        ),
        (
            plex("media.scrobble", ["type": "clip", "subtype": "trailer"]), .ignored("a trailer, not a movie"), 603,
            "tt0133093"
        ),
        (plex("media.scrobble", ["type": "track"]), .ignored("a track, not a movie"), 603, "tt0133093"),
    ])
    func plexEvents(body: Data, kind: MediaEvent.Kind, tmdb: Int?, imdb: String?) throws {
        let event = try MediaEvent.parse(.plex, json: body)
        #expect(event.kind == kind)
        #expect(event.user == "Ann" && event.tmdbId == tmdb && event.imdbId == imdb)
    }

    @Test func plexWithEscapedSlashesAndADVRRecordingWithoutIds() throws {
        let escaped = Data(
            #"{"event":"media.scrobble","Account":{"title":"Ann"},"Metadata":{"type":"movie","title":"The Matrix","year":1999,"key":"\/library\/metadata\/1","Guid":[{"id":"tmdb:\/\/603"}]}}"#
                .utf8)
        #expect(try MediaEvent.parse(.plex, json: escaped).tmdbId == 603)
        let recording = try MediaEvent.parse(.plex, json: Self.plex("media.scrobble", ["Guid": Skip()]))
        #expect(recording.reference == .title("The Matrix", year: 1999))
    }

    @Test(arguments: [
        (emby("playback.stop", completed: true), MediaEvent.Kind.watched),
        (emby("playback.stop", completed: false), .ignored("stopped before the end")),
        (emby("playback.stop"), .ignored("stopped, without saying whether it was played to the end")),
        (emby("playback.start"), .ignored("playback.start changes nothing")),
        (emby("item.markplayed"), .watched),
        (emby("item.markunplayed"), .unwatched),
        (emby("item.markplayed", item: ["Type": "Episode"]), .ignored("a Episode, not a movie")),
    ])
    func embyEvents(body: Data, kind: MediaEvent.Kind) throws {
        let event = try MediaEvent.parse(.emby, json: body)
        #expect(event.kind == kind)
        #expect(event.user == "Ann" && event.tmdbId == 603 && event.imdbId == "tt0133093" && event.year == 1999)
    }

    @Test func embyWithEmptyProviderIdsNamesTheTitle() throws {
        let event = try MediaEvent.parse(.emby, json: Self.emby("item.markplayed", item: ["ProviderIds": [:]]))
        #expect(event.reference == .title("The Matrix", year: 1999))
    }

    @Test(arguments: [
        ("not json", "the body is not JSON"), ("[1, 2]", "the body is JSON but not an object"),
        (
            #"{"event":"media.scrobble","Metadata":{"type":"movie","title":"X"}}"#,
            "Account.title is missing: whose event is it?"
        ),
    ])
    func malformedBodiesSayWhatWasWrong(body: String, message: String) {
        #expect(throws: MediaEventError(message), performing: { try MediaEvent.parse(.plex, json: Data(body.utf8)) })
    }
}
