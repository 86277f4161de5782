import Foundation
import HTTPTypes
import Hummingbird
import MustCore

/// The headers every answer carries. Scripts may come only from this host (there are none yet) and never inline;
/// styles only from /static; nothing may frame the page. Links out carry no referrer (`rel="noreferrer"`), while
/// the page's own requests keep `same-origin`, so a form's POST carries a real Origin.
struct SecurityHeaders<Context: RequestContext>: RouterMiddleware {
    static var policy: String {
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; form-action 'self'; "
            + "base-uri 'none'; frame-ancestors 'none'"
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        var response = try await next(request, context)
        response.headers[.contentSecurityPolicy] = Self.policy
        response.headers[.xContentTypeOptions] = "nosniff"
        response.headers[.referrerPolicy] = "same-origin"
        response.headers[.xFrameOptions] = "DENY"
        return response
    }
}

/// Turns a `PageError`, an unknown address, or a failed read into an HTML page with its status. A store error's
/// text names the database path, so it goes to the log, not to the page.
struct ErrorPages<Context: RequestContext>: RouterMiddleware {
    let site: Site
    let known: KnownRoutes

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        do {
            return try await next(request, context)
        } catch let error as PageError {
            return site.errorPage(error)
        } catch let error as HTTPError where error.status == .notFound || error.status == .methodNotAllowed {
            // The router says 404 for a known path asked with another method: that is a 405, with what it takes.
            guard let allowed = known.allowed(for: request.uri.path) else {
                return site.errorPage(.notFound("There is no page at this address."))
            }
            var response = site.errorPage(
                PageError(
                    status: .methodNotAllowed, heading: "Not allowed",
                    message: "This address takes \(allowed), not \(request.method.rawValue)."))
            response.headers[.allow] = allowed
            return response
        } catch let error as StoreError {
            context.logger.error("read failed", metadata: ["error": "\(error)"])
            return site.errorPage(
                PageError(
                    status: .serviceUnavailable, heading: "Try again",
                    message: "The database could not be read just now; reload in a moment."))
        }
    }
}

/// A HEAD request's answer without its body, whatever made it (a page, an error page): `Content-Length` stays the
/// GET's.
struct HeadWithoutBody<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        let response = try await next(request, context)
        return request.method == .head ? response.createHeadResponse() : response
    }
}

/// `ETag` and `Last-Modified` from the database file and its write-ahead log, checked before any read: a phone
/// reloading an unchanged page gets 304 without a query. The tag also holds the minute, because the pages say
/// "in 3h" and draw 7-day windows. The same tag is the validator of `cache`: a page rendered under it is sent
/// again while it holds, to requests without credentials only (see `PageCache`).
struct Freshness<Context: RequestContext>: RouterMiddleware {
    let reader: StoreReader
    let cache: PageCache
    /// The minute in the tag comes from the one time source.
    let time: TimeSource

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        // Static files and posters have validators of their own making: neither changes with the database.
        let path = request.uri.path
        guard request.method == .get || request.method == .head, !path.hasPrefix("/static/"),
            !path.hasPrefix("/posters/")
        else {
            return try await next(request, context)
        }
        let stamp = reader.dataStamp()
        let minute = Int((time.now().timeIntervalSince1970 / 60).rounded(.down))
        let tag = "W/\"\(stamp.database.tag)-\(stamp.log.tag)-\(minute)\""
        let modified = HTTPDate.format(stamp.lastModified)
        if let match = request.headers[.ifNoneMatch],
            match.split(separator: ",").contains(where: {
                $0.trimmingCharacters(in: .whitespaces) == tag
            })
        {
            var headers = HTTPFields()
            headers[.eTag] = tag
            headers[.lastModified] = modified
            return Response(status: .notModified, headers: headers)
        }
        var response: Response
        // A signed-in page is kept too: rendered once for every signed-in viewer, with a placeholder where each
        // one's token goes (`EditAccess` puts it in, with their notice, as the page is sent).
        let editing = Viewer.current.session != nil
        if PageCache.mayServe(request.head) || editing {
            let key = PageCache.Key(
                method: request.method, target: request.uri.path + (request.uri.query.map { "?" + $0 } ?? ""),
                variant: editing ? "signed-in" + Self.variant(Viewer.current.access) : "")
            response = try await cache.page(for: key, validator: tag) {
                try await PageCache.Page(next(request, context))
            }.response
        } else {
            response = try await next(request, context)
        }
        if response.status == .ok {
            response.headers[.eTag] = tag
            response.headers[.lastModified] = modified
            // Kept, but asked about again each time: the answer is usually a cheap 304.
            response.headers[.cacheControl] = "no-cache"
        }
        return response
    }
}

extension Freshness {
    /// Which copy of a signed-in page a viewer gets: the family password's alone is the one every such viewer
    /// shared before profiles; a profile's pages differ by its buttons (its own list) and, for a kid, its movies.
    static func variant(_ access: PageAccess?) -> String {
        guard let access, let profile = access.profile else { return "" }
        return (access.parent ? "|parent-as-" : "|member-") + String(profile.memberId)
    }
}

extension HTTPField.Name {
    static let referrerPolicy = HTTPField.Name("Referrer-Policy")!
    static let xFrameOptions = HTTPField.Name("X-Frame-Options")!
}

/// RFC 9110's IMF-fixdate: "Wed, 25 Nov 2026 02:30:00 GMT".
enum HTTPDate {
    static func format(_ date: Date) -> String {
        date.formatted(
            Date.VerbatimFormatStyle(
                format:
                    "\(weekday: .abbreviated), \(day: .twoDigits) \(month: .abbreviated) \(year: .defaultDigits) \(hour: .twoDigits(clock: .twentyFourHour, hourCycle: .zeroBased)):\(minute: .twoDigits):\(second: .twoDigits) GMT",
                locale: Locale(identifier: "en_US_POSIX"), timeZone: TimeZone(identifier: "GMT")!,
                calendar: Calendar(identifier: .gregorian)))
    }
}
