import Foundation

/// How a provider offers a movie, as TMDB's `watch/providers` block names the kinds.
public enum ProviderKind: String, Sendable, CaseIterable, Codable, Comparable {
    case flatrate, free, ads, rent, buy

    /// Watched at no cost beyond what the family already pays: a subscription, free, or with adverts.
    public var noExtraCost: Bool { self == .flatrate || self == .free || self == .ads }

    /// "Subscription", "Free", "With ads", "Rent", "Buy": the page's headings.
    public var heading: String {
        switch self {
        case .flatrate: "Subscription"
        case .free: "Free"
        case .ads: "With ads"
        case .rent: "Rent"
        case .buy: "Buy"
        }
    }

    public static func < (a: ProviderKind, b: ProviderKind) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}

/// One provider offering the movie in one way.
public struct ProviderOffer: Sendable, Hashable {
    public var kind: ProviderKind
    public var id: Int
    public var name: String

    public init(kind: ProviderKind, id: Int, name: String) { (self.kind, self.id, self.name) = (kind, id, name) }
}

/// What a details answer with `append_to_response=release_dates,watch/providers` tells about tonight, for one
/// region. Each part is nil when its block was missing or malformed: that part stays unknown, and nothing else
/// (the ratings least of all) is lost.
public struct MovieExtras: Sendable, Equatable {
    /// Minutes; nil when TMDB gives none (null or 0).
    public var runtime: Int?
    public var genres: [String]?
    /// The region's certification, trimmed: `.some(nil)` when the block was read and the region has none.
    public var certification: String??
    /// The region's offers; empty when the block was read and the region has none (TMDB leaves it out then).
    public var providers: [ProviderOffer]?
    /// TMDB's `overview`, as one line of at most `overviewLimit` characters; nil when missing or empty.
    public var overview: String?

    public init(
        runtime: Int? = nil, genres: [String]? = nil, certification: String?? = nil, providers: [ProviderOffer]? = nil,
        overview: String? = nil
    ) {
        (self.runtime, self.genres, self.certification, self.providers) = (runtime, genres, certification, providers)
        self.overview = overview
    }

    /// Longer overviews are cut: the pages show about 200 characters, the movie page the whole of a usual one.
    public static let overviewLimit = 2_000
}

/// A key of any name: the one region asked for, or a block's name with a slash in it.
struct NamedKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ name: String) { stringValue = name }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

/// The family's region, for the decoding under way of an answer with blocks by country (the details' appended
/// blocks, the certification list): only that country is read.
///
/// A task-local value, not the decoder's `userInfo`: the first value put in a `userInfo` made the runtime look up
/// `CodingUserInfoKey`'s Hashable conformance through every conformance the binary has, 0.25 ms of a scheduled
/// fetch whose only details with blocks were a suggestion's (perf record).
enum DecodingRegion {
    @TaskLocal static var current: String?
}

/// The details answer, with the appended blocks read for `DecodingRegion.current` (none without it).
struct DetailsAnswer: Decodable {
    var movie: RemoteMovie
    var extras: MovieExtras?

    init(from decoder: Decoder) throws {
        movie = try RemoteMovie(from: decoder)
        guard let region = DecodingRegion.current else {
            extras = nil
            return
        }
        extras = MovieExtras(try decoder.container(keyedBy: NamedKey.self), region: region)
    }
}

extension MovieExtras {
    /// Reads the blocks for `region` only: every other country is stepped over, never decoded into values.
    init(_ body: KeyedDecodingContainer<NamedKey>, region: String) {
        let minutes = (try? body.decodeIfPresent(Int.self, forKey: NamedKey("runtime"))) ?? nil
        runtime = minutes.flatMap { $0 > 0 ? $0 : nil }
        genres = try? Self.genres(body)
        // Not `try?`: it would flatten "the region has none" (nil) and "the block is broken" into one nil.
        do {
            certification = .some(try Self.certification(body, region: region))
        } catch {
            certification = nil
        }
        providers = try? Self.providers(body, region: region)
        overview = ((try? body.decodeIfPresent(String.self, forKey: NamedKey("overview"))) ?? nil).flatMap(
            TMDBText.paragraph)
    }

    // The blocks' lists are read through containers keyed by `NamedKey`, not decoded as `[Genre]`, `[Release]`
    // and `[Offer]` of small Decodable structs: JSONDecoder asks the runtime about each type it meets (a
    // conformance lookup through every conformance the binary has, about 0.1 ms the first time in a process),
    // and with their arrays and keys those were nine lookups, 0.7 ms of a scheduled fetch whose only details with
    // blocks were a suggestion's (perf record). The rules are those of the structs' synthesized decoding.

    /// `genres`' names, trimmed, the empty ones left out; nil when the list is missing or null. Throws when it is
    /// malformed (an entry no object, a name no string).
    static func genres(_ body: KeyedDecodingContainer<NamedKey>) throws -> [String]? {
        guard var list = try body.listIfPresent(NamedKey("genres")) else { return nil }
        var names: [String] = []
        while !list.isAtEnd {
            let genre = try list.nestedContainer(keyedBy: NamedKey.self)
            let name = try genre.decodeIfPresent(String.self, forKey: NamedKey("name")).map(TMDBText.line)
            if let name, !name.isEmpty { names.append(name) }
        }
        return names
    }

    /// The theatrical release's certification (type 3) if one carries it, else the lowest release type that does.
    /// Throws when the block is missing or malformed.
    static func certification(_ body: KeyedDecodingContainer<NamedKey>, region: String) throws -> String? {
        let block = try body.nestedContainer(keyedBy: NamedKey.self, forKey: NamedKey("release_dates"))
        var countries = try block.nestedUnkeyedContainer(forKey: NamedKey("results"))
        while !countries.isAtEnd {
            let country = try countries.nestedContainer(keyedBy: NamedKey.self)
            guard try country.decodeIfPresent(String.self, forKey: NamedKey("iso_3166_1")) == region else { continue }
            var releases = try country.nestedUnkeyedContainer(forKey: NamedKey("release_dates"))
            var rated: [(type: Int, certification: String)] = []
            while !releases.isAtEnd {
                let release = try releases.nestedContainer(keyedBy: NamedKey.self)
                let certification = try release.decodeIfPresent(String.self, forKey: NamedKey("certification"))
                let type = try release.decodeIfPresent(Int.self, forKey: NamedKey("type"))
                let text = TMDBText.line(certification ?? "")
                if !text.isEmpty { rated.append((type ?? Int.max, text)) }
            }
            if let theatrical = rated.first(where: { $0.type == 3 }) { return theatrical.certification }
            return rated.min { $0.type < $1.type }?.certification
        }
        return nil
    }

    /// The region's offers by kind, in TMDB's order within a kind. Throws when the block is missing or malformed.
    static func providers(_ body: KeyedDecodingContainer<NamedKey>, region: String) throws -> [ProviderOffer] {
        let block = try body.nestedContainer(keyedBy: NamedKey.self, forKey: NamedKey("watch/providers"))
        let results = try block.nestedContainer(keyedBy: NamedKey.self, forKey: NamedKey("results"))
        guard results.contains(NamedKey(region)) else { return [] }
        let country = try results.nestedContainer(keyedBy: NamedKey.self, forKey: NamedKey(region))
        var offers: [ProviderOffer] = []
        for kind in ProviderKind.allCases {
            guard var listed = try country.listIfPresent(NamedKey(kind.rawValue)) else { continue }
            while !listed.isAtEnd {
                let offer = try listed.nestedContainer(keyedBy: NamedKey.self)
                let id = try offer.decode(Int.self, forKey: NamedKey("provider_id"))
                let name = TMDBText.line(try offer.decode(String.self, forKey: NamedKey("provider_name")))
                guard !offers.contains(where: { $0.kind == kind && $0.id == id }) else { continue }
                offers.append(ProviderOffer(kind: kind, id: id, name: name.isEmpty ? "#\(id)" : name))
            }
        }
        return offers
    }
}

extension KeyedDecodingContainer<NamedKey> {
    /// The list at `key`, as `decodeIfPresent` of an array reads it: nil when the key is missing or null.
    func listIfPresent(_ key: NamedKey) throws -> UnkeyedDecodingContainer? {
        guard contains(key), try !decodeNil(forKey: key) else { return nil }
        return try nestedUnkeyedContainer(forKey: key)
    }
}

/// `GET /certification/movie/list`, read for one region: its certifications in TMDB's order.
struct CertificationList: Decodable {
    var certifications: [RegionCertification]

    init(from decoder: Decoder) throws {
        let region = DecodingRegion.current ?? ""
        let body = try decoder.container(keyedBy: NamedKey.self)
        let regions = try body.nestedContainer(keyedBy: NamedKey.self, forKey: NamedKey("certifications"))
        let listed = try regions.decodeIfPresent([Entry].self, forKey: NamedKey(region)) ?? []
        certifications = listed.compactMap { entry in
            let text = TMDBText.line(entry.certification)
            return text.isEmpty ? nil : RegionCertification(certification: text, order: entry.order ?? 0)
        }
    }

    private struct Entry: Decodable {
        var certification: String
        var order: Int?
    }
}

/// A certification of a region and its place in TMDB's order (equal orders are equally strict).
public struct RegionCertification: Sendable, Equatable {
    public var certification: String
    public var order: Int

    public init(certification: String, order: Int) { (self.certification, self.order) = (certification, order) }
}

/// TMDB's free text made fit for one line: control characters dropped, spaces trimmed ("PG12 " is "PG12").
enum TMDBText {
    /// A paragraph as one line: line breaks and tabs become spaces, runs of spaces one, other controls and
    /// invisible characters dropped, at most `MovieExtras.overviewLimit` characters; nil when nothing is left.
    static func paragraph(_ text: String) -> String? {
        let spaced = String(
            String.UnicodeScalarView(text.unicodeScalars.map { $0.properties.isWhitespace ? " " : $0 }))
        let words = line(spaced).split(separator: " ", omittingEmptySubsequences: true)
        let joined = words.joined(separator: " ")
        return joined.isEmpty ? nil : String(joined.prefix(MovieExtras.overviewLimit))
    }

    static func line(_ text: String) -> String {
        String(
            String.UnicodeScalarView(
                text.unicodeScalars.filter {
                    !$0.properties.isDefaultIgnorableCodePoint && $0.value >= 0x20 && !(0x7F...0x9F).contains($0.value)
                })
        )
        .trimmingCharacters(in: .whitespaces)
    }
}
