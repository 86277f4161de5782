import Foundation

/// The kinds of media server whose webhooks `mustc serve` reads, as they appear in the URL (`/hooks/plex/…`) and
/// in the database.
public enum MediaServer: String, Sendable, CaseIterable, Codable {
    case jellyfin, plex, emby
}

/// What one webhook said, read from the server's own shape: whose event, which movie, and what happened. Pure data;
/// `MediaEventStore` (the store) decides what it changes.
public struct MediaEvent: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// Played to the end, or marked played.
        case watched
        /// Marked unplayed.
        case unwatched
        /// The user's own rating, 1–10.
        case rated(Int)
        /// Nothing to do (an episode, a pause, a film stopped half way): answered 200, nothing written.
        case ignored(String)
    }

    public var server: MediaServer
    /// The media server's user name, as it wrote it.
    public var user: String
    public var tmdbId: Int?
    public var imdbId: String?
    public var title: String?
    public var year: Int?
    public var kind: Kind

    public init(
        server: MediaServer, user: String, tmdbId: Int? = nil, imdbId: String? = nil, title: String? = nil,
        year: Int? = nil, kind: Kind
    ) {
        (self.server, self.user, self.tmdbId, self.imdbId) = (server, user, tmdbId, imdbId)
        (self.title, self.year, self.kind) = (title, year, kind)
    }

    /// How mustc names the movie: the TMDB id first, then the IMDb id, then the title and year (nil: none usable).
    public var reference: MovieReference? {
        if let tmdbId { return .tmdb(tmdbId) }
        if let imdbId { return .imdb(imdbId) }
        guard let title, let named = try? NameValidation.validate(title, field: "movie title") else { return nil }
        return .title(named, year: year)
    }

    /// The movie as the server named it, for `status`: "The Matrix (1999)", else its id.
    public var shownMovie: String {
        if let title, !title.isEmpty { return MovieName.shown(Self.shortened(title), year) }
        return reference?.description ?? "an unnamed movie"
    }

    /// Reads one webhook body: `payload` is the JSON itself (Plex's `payload` part, Emby's `data` field).
    public static func parse(_ server: MediaServer, json payload: Data) throws(MediaEventError) -> MediaEvent {
        let root: JSONValue
        do {
            root = try JSONReader.parse(payload)
        } catch {
            // Refused before any more work: a deep body cost time with the square of its depth.
            if error.isTooDeep { throw MediaEventError("the body nests deeper than \(JSONReader.maxDepth) levels") }
            throw MediaEventError("the body is not JSON")
        }
        guard case .object(let object) = root else { throw MediaEventError("the body is JSON but not an object") }
        let fields = WebhookFields(object)
        var event: MediaEvent
        switch server {
        case .jellyfin: event = try JellyfinEvent.read(fields)
        case .plex: event = try PlexEvent.read(fields)
        case .emby: event = try EmbyEvent.read(fields)
        }
        // The user is shown in `status` and on the page: cut, as anything shown is, at 200 characters (no member's
        // media user is longer). The title is cut where it is shown (`shownMovie`), and names the movie whole.
        event.user = shortened(event.user)
        if case .ignored = event.kind { return event }
        guard event.reference != nil else {
            if let title = event.title, let problem = titleProblem(title) { throw MediaEventError(problem) }
            throw MediaEventError("the event names no movie: no TMDB id, no IMDb id and no title")
        }
        return event
    }

    private static let shownLength = NameValidation.maximumLength

    private static func shortened(_ text: String) -> String {
        text.count <= shownLength ? text : String(text.prefix(shownLength - 1)) + "…"
    }

    /// Why a title the event sent cannot name a movie; nil when it sent none worth the name.
    private static func titleProblem(_ title: String) -> String? {
        do {
            _ = try NameValidation.validate(title, field: "title")
            return nil
        } catch {
            switch error {
            case .controlCharacter: return "the title holds control characters"
            case .bidiControl: return "the title holds a text-direction control character"
            case .tooLong, .empty: return nil
            }
        }
    }
}

/// A body that is not the server's shape: the one line the 400 answer says.
public struct MediaEventError: Error, Equatable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// A JSON object read leniently, as servers and custom templates write the same field as a string, a number or a
/// boolean ("True", "", 4.0, "10").
struct WebhookFields {
    let values: [String: JSONValue]

    init(_ values: [String: JSONValue]) { self.values = values }

    func object(_ key: String) -> WebhookFields? {
        guard case .object(let inner)? = values[key] else { return nil }
        return WebhookFields(inner)
    }

    func array(_ key: String) -> [JSONValue] {
        guard case .array(let items)? = values[key] else { return [] }
        return items
    }

    /// A string, or a number written as text; nil for null, absent or empty.
    func string(_ key: String) -> String? {
        switch values[key] {
        case .string(let text)?:
            let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
            return trimmed.isEmpty ? nil : trimmed
        case .number(let number)? where number.isFinite:
            return number == number.rounded() && abs(number) < 1e15 ? String(Int(number)) : String(number)
        default: return nil
        }
    }

    func number(_ key: String) -> Double? {
        switch values[key] {
        case .number(let number)? where number.isFinite: number
        case .string(let text)?: Double(text.trimmingCharacters(in: .whitespaces)).flatMap { $0.isFinite ? $0 : nil }
        default: nil
        }
    }

    /// true, "true", "True", 1; nil when absent or anything else.
    func bool(_ key: String) -> Bool? {
        switch values[key] {
        case .bool(let value)?: value
        case .string(let text)?:
            switch text.lowercased() {
            case "true", "1", "yes": true
            case "false", "0", "no", "": false
            default: nil
            }
        case .number(let number)?: number != 0
        default: nil
        }
    }

    /// A required user name: the event means nothing without it.
    func user(_ key: String, in place: String) throws(MediaEventError) -> String {
        guard let user = string(key) else { throw MediaEventError("\(place) is missing: whose event is it?") }
        return user
    }
}

/// Ids as the servers write them: TMDB's a positive number (as text or not), IMDb's "tt" and digits.
enum WebhookIds {
    static func tmdb(_ text: String?) -> Int? {
        guard let text, text.utf8.allSatisfy({ (48...57).contains($0) }), let id = Int(text), id > 0, id <= Int32.max
        else {
            return nil
        }
        return id
    }

    static func imdb(_ text: String?) -> String? { text.flatMap(MovieReference.imdbId) }

    /// The year of "1999-03-31", "1999-03-31T00:00:00.0000000Z" or 1999.
    static func year(_ text: String?) -> Int? {
        guard let text, text.count >= 4, let year = Int(text.prefix(4)), MovieReference.years.contains(year) else {
            return nil
        }
        return year
    }
}
