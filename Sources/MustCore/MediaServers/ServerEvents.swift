import Foundation

/// Jellyfin's official Webhook plugin with "Send All Properties": one flat object per event.
enum JellyfinEvent {
    static func read(_ fields: WebhookFields) throws(MediaEventError) -> MediaEvent {
        let type = fields.string("NotificationType") ?? ""
        let kind: MediaEvent.Kind
        if let item = fields.string("ItemType"), item != "Movie" {
            kind = .ignored("a \(item), not a movie")
        } else if fields.string("ItemType") == nil {
            kind = .ignored("\(type.isEmpty ? "the event" : type) is not about a movie")
        } else {
            switch type {
            case "PlaybackStop":
                kind = finished(
                    fields.bool("PlayedToCompletion"), position: fields.number("PlaybackPositionTicks"),
                    runtime: fields.number("RunTimeTicks"))
            case "UserDataSaved":
                switch (fields.string("SaveReason"), fields.bool("Played")) {
                case ("TogglePlayed", true?), ("PlaybackFinished", true?): kind = .watched
                case ("TogglePlayed", false?): kind = .unwatched
                default: kind = .ignored("saved user data that says nothing about being played")
                }
            default:
                kind = .ignored("\(type.isEmpty ? "an event without NotificationType" : type) changes nothing")
            }
        }
        return MediaEvent(
            server: .jellyfin, user: try user(fields, "NotificationUsername", kind),
            tmdbId: WebhookIds.tmdb(fields.string("Provider_tmdb")),
            imdbId: WebhookIds.imdb(fields.string("Provider_imdb")),
            title: fields.string("Name"), year: WebhookIds.year(fields.string("Year") ?? fields.string("PremiereDate")),
            kind: kind)
    }
}

/// Plex's `payload` part: `event`, `Account.title`, `Metadata` with `Guid[]` (or the older single `guid`).
enum PlexEvent {
    static func read(_ fields: WebhookFields) throws(MediaEventError) -> MediaEvent {
        let event = fields.string("event") ?? ""
        let metadata = fields.object("Metadata")
        let type = metadata?.string("type")
        let kind: MediaEvent.Kind
        if metadata == nil {
            kind = .ignored("\(event.isEmpty ? "the event" : event) names no item")
        } else if type != "movie" || metadata?.string("subtype") == "trailer" {
            kind = .ignored("a \(metadata?.string("subtype") ?? type ?? "item without a type"), not a movie")
        } else {
            switch event {
            case "media.scrobble": kind = .watched
            case "media.rate":
                let rating = fields.number("rating").map { $0.rounded() }
                kind = rating.flatMap(OwnRating.outOfTen).map { .rated($0) } ?? .ignored("a rating taken back")
            default: kind = .ignored("\(event.isEmpty ? "an event without a name" : event) changes nothing")
            }
        }
        var (tmdb, imdb) = ids(metadata?.array("Guid") ?? [])
        if tmdb == nil, imdb == nil, let legacy = metadata?.string("guid") { (tmdb, imdb) = ids(legacy: legacy) }
        return MediaEvent(
            server: .plex,
            user: try user(fields.object("Account") ?? WebhookFields([:]), "title", kind, "Account.title"),
            tmdbId: tmdb, imdbId: imdb, title: metadata?.string("title"),
            year: WebhookIds.year(metadata?.string("year") ?? metadata?.string("originallyAvailableAt")), kind: kind)
    }

    /// `[{"id": "imdb://tt0133093"}, {"id": "tmdb://603"}, {"id": "tvdb://169"}]`.
    static func ids(_ guids: [JSONValue]) -> (Int?, String?) {
        var (tmdb, imdb): (Int?, String?) = (nil, nil)
        for case .object(let guid) in guids {
            guard let id = WebhookFields(guid).string("id") else { continue }
            if id.hasPrefix("tmdb://") { tmdb = tmdb ?? WebhookIds.tmdb(String(id.dropFirst(7))) }
            if id.hasPrefix("imdb://") { imdb = imdb ?? WebhookIds.imdb(String(id.dropFirst(7))) }
        }
        return (tmdb, imdb)
    }

    /// `com.plexapp.agents.imdb://tt0133093?lang=en` or `com.plexapp.agents.themoviedb://603?lang=en`.
    static func ids(legacy guid: String) -> (Int?, String?) {
        guard let separator = guid.range(of: "://") else { return (nil, nil) }
        let agent = guid[..<separator.lowerBound]
        let value = guid[separator.upperBound...].prefix { $0 != "?" && $0 != "/" }
        if agent.hasSuffix(".imdb") { return (nil, WebhookIds.imdb(String(value))) }
        if agent.hasSuffix(".themoviedb") { return (WebhookIds.tmdb(String(value)), nil) }
        return (nil, nil)
    }
}

/// Emby's webhooks: `Event`, `User.Name`, `Item` with `ProviderIds`, and `PlaybackInfo` on playback events.
enum EmbyEvent {
    static func read(_ fields: WebhookFields) throws(MediaEventError) -> MediaEvent {
        let event = fields.string("Event") ?? ""
        let item = fields.object("Item")
        let kind: MediaEvent.Kind
        if let type = item?.string("Type"), type != "Movie" {
            kind = .ignored("a \(type), not a movie")
        } else if item == nil {
            kind = .ignored("\(event.isEmpty ? "the event" : event) names no item")
        } else {
            switch event {
            case "playback.stop":
                let playback = fields.object("PlaybackInfo")
                kind = finished(
                    playback?.bool("PlayedToCompletion"), position: playback?.number("PositionTicks"),
                    runtime: item?.number("RunTimeTicks"))
            case "item.markplayed": kind = .watched
            case "item.markunplayed": kind = .unwatched
            default: kind = .ignored("\(event.isEmpty ? "an event without a name" : event) changes nothing")
            }
        }
        let ids = item?.object("ProviderIds")
        return MediaEvent(
            server: .emby, user: try user(fields.object("User") ?? WebhookFields([:]), "Name", kind, "User.Name"),
            tmdbId: WebhookIds.tmdb(ids?.string("Tmdb")), imdbId: WebhookIds.imdb(ids?.string("Imdb")),
            title: item?.string("Name"),
            year: WebhookIds.year(item?.string("ProductionYear") ?? item?.string("PremiereDate")), kind: kind)
    }
}

/// A playback stop. The server's own `PlayedToCompletion` decides: Jellyfin and Emby set it from the family's own
/// "played" threshold on the server, so mustc does not second-guess it. Only a sender without the field is judged
/// by the position, at 80 % of the film.
private func finished(_ completed: Bool?, position: Double?, runtime: Double?) -> MediaEvent.Kind {
    if let completed { return completed ? .watched : .ignored("stopped before the end") }
    guard let position, let runtime, position > 0, runtime > 0 else {
        return .ignored("stopped, without saying whether it was played to the end")
    }
    if position < 0.8 * runtime { return .ignored("stopped at \(Int(100 * position / runtime)) % of the film") }
    return .watched
}

/// The user an event names; required only when the event changes something.
private func user(
    _ fields: WebhookFields, _ key: String, _ kind: MediaEvent.Kind, _ shown: String? = nil
) throws(MediaEventError) -> String {
    if case .ignored = kind { return fields.string(key) ?? "" }
    return try fields.user(key, in: shown ?? key)
}
