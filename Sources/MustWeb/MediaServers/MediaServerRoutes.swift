import Foundation
import HTTPTypes
import Hummingbird
import MustCore
import NIOCore

/// `POST /hooks/{server}/{token}`: a media server's event. The token is checked against its stored hash before
/// the body is read; a wrong one gets the 404 of an unknown address and counts against the address, as a wrong
/// password does. The event is stored and answered at once; a TMDB lookup it needs runs afterwards.
enum MediaServerRoutes {
    static let maxBody = 2 * 1024 * 1024

    static func register(on router: Router<PageContext>, edits: WebEdits) {
        router.post("/hooks/:server/:token") { request, context in
            try await receive(request, context: context, edits: edits)
        }
    }

    static func receive(_ request: Request, context: PageContext, edits: WebEdits) async throws -> Response {
        let client = WebEdits.clientAddress(request, context: context)
        let now = edits.time.now()
        // Checked before the token, counted only when it is wrong: a media server sends its events in parallel, and a
        // guess at 256 random bits gains nothing from the few that run at once.
        let decision = edits.hookLimiter.withLock { $0.check(client, at: now) }
        if case .refused(let wait) = decision {
            var response = text(.tooManyRequests, "too many wrong webhook addresses from here: wait \(wait) seconds")
            response.headers[.retryAfter] = "\(wait)"
            return response
        }
        let server = context.parameters.get("server").flatMap(MediaServer.init(rawValue:))
        let token = context.parameters.get("token") ?? ""
        let reader = edits.reader
        let stored = try await edits.blocking { try server.flatMap { try reader.webhookTokenHash($0) } }
        guard let server, let stored, WebhookToken.matches(token, storedHash: stored) else {
            edits.hookLimiter.withLock { $0.recordFailure(client, at: now) }
            throw PageError.notFound("There is no page at this address.")
        }
        if let length = request.headers[.contentLength].flatMap(Int.init), length > maxBody { return tooLarge }
        let body: ByteBuffer
        do {
            body = try await request.body.collect(upTo: maxBody)
        } catch is NIOTooManyBytesError {
            return tooLarge
        }
        let event: MediaEvent
        do {
            event = try MediaEvent.parse(
                server, json: try MediaServerBody.payload(contentType: request.headers[.contentType], body: body))
        } catch {
            return text(.badRequest, "\(error); nothing was written")
        }
        if case .ignored(let why) = event.kind { return text(.ok, "ignored: \(why)") }
        return await store(event, at: now, edits: edits)
    }

    /// Stores the event (with the others that came meanwhile, in one commit: `MediaServerWrites`), answers once it is
    /// committed, and leaves the TMDB lookup the movie needs to a task.
    private static func store(_ event: MediaEvent, at now: Date, edits: WebEdits) async -> Response {
        let day = WatchDay.of(now, in: edits.zone)
        do {
            let (editor, outcome) = try await edits.mediaServerWrites.record(
                MediaEventWrite(event, day: day, now: now), open: { try edits.editor() })
            if let link = outcome.link, MovieEditor.needsLookup(link), let reference = event.reference {
                edits.lookUpLater(link, named: reference, editor: editor)
            }
            return text(.ok, outcome.said)
        } catch let off as EditsOff {
            return text(.serviceUnavailable, "\(off.reason); nothing was written")
        } catch {
            edits.logger.error("a webhook's event was not stored", metadata: ["error": "\(error)"])
            return text(.serviceUnavailable, "the database could not be written just now; send the event again")
        }
    }

    static var tooLarge: Response { text(.contentTooLarge, "the body is over 2 MB; nothing was written") }

    static func text(_ status: HTTPResponse.Status, _ line: String) -> Response {
        Site.response(line + "\n", type: "text/plain; charset=utf-8", status: status)
    }
}

extension WebEdits {
    /// About three seconds of TMDB's budget: more than a family's media servers send between two fetches.
    static let pendingLookups = 100

    /// The zone the day of a watch is counted in (`serve.timeZone`, else the system's).
    var zone: TimeZone { config.serve.timeZone.flatMap(TimeZone.init(identifier:)) ?? .current }

    /// Asks TMDB about a movie an event linked, after the answer has gone: the same lookup as `mustc add` (an unsure
    /// title match becomes a movie that needs a choice). One lookup per movie at a time; a failed one leaves the
    /// movie unlooked-up, and the next fetch looks it up. At most `pendingLookups` wait at once; a movie past them is
    /// left to the next fetch too: a burst of new movies (the hooks benchmark's 17,000 in 10 s) otherwise held a task
    /// each behind TMDB's 35 requests a second, and serve's peak RSS grew to 174 MB.
    func lookUpLater(_ link: LinkOutcome, named reference: MovieReference, editor: MovieEditor) {
        guard let client = lookupClient,
            hookLookups.withLock({ $0.count < Self.pendingLookups && $0.insert(link.movieId).inserted })
        else { return }
        let logger = logger
        Task {
            defer { _ = hookLookups.withLock { $0.remove(link.movieId) } }
            do {
                let outcome = try await editor.lookUp(link, named: reference, client: client, remakesNeedAChoice: true)
                logger.debug("webhook lookup", metadata: ["movie": "\(reference)", "outcome": "\(outcome)"])
            } catch {
                logger.warning(
                    "a webhook's movie was not looked up; the next fetch will", metadata: ["error": "\(error)"])
            }
        }
    }
}
