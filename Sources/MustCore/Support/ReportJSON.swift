import Foundation

/// The one JSON encoder of the reports: pretty-printed with sorted keys, and every `Date` as `ISO8601.string`
/// writes it ("2026-11-22T10:00:00Z", clamped to years 1…9999), so a report's types encode their dates as dates.
public enum ReportJSON {
    public static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(ISO8601.string(date))
        }
        return encoder
    }
}

/// An optional that a synthesized `Encodable` writes as `null` when it is nil, where it would leave the key out:
/// the reports' JSON shapes are contracts, with every key present and unknown figures null.
@propertyWrapper
public struct NullWhenAbsent<Value: Encodable & Sendable & Equatable>: Encodable, Sendable, Equatable {
    public var wrappedValue: Value?

    public init(wrappedValue: Value?) { self.wrappedValue = wrappedValue }

    // Hand-written: it is what writes the null a synthesized coding leaves out.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        if let wrappedValue { try container.encode(wrappedValue) } else { try container.encodeNil() }
    }
}

/// A type whose JSON is a plainer value's, its shape: a struct whose synthesized coding (with `@NullWhenAbsent`)
/// declares the keys, so a type that flattens, renames, rounds or leaves out fields writes no key by hand.
public protocol JSONShaped: Encodable {
    /// The value encoded in this one's place.
    var jsonShape: any Encodable { get }
}

extension JSONShaped {
    // Hand-written once for every shaped type: it hands the encoder on to the shape.
    public func encode(to encoder: any Encoder) throws { try jsonShape.encode(to: encoder) }
}

extension ReportJSON {
    /// Four decimals: enough to order by, and the same text on every run.
    static func fourDecimals(_ value: Double?) -> Double? { value.map { ($0 * 1e4).rounded() / 1e4 } }

    /// Kind to names, each kind only when it has some; nil (null) when the region's offers were never read.
    static func providers(_ offers: [ProviderOffer]?) -> [String: [String]]? {
        offers.map { Dictionary(grouping: $0, by: \.kind.rawValue).mapValues { $0.map(\.name) } }
    }
}
