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

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        if let wrappedValue { try container.encode(wrappedValue) } else { try container.encodeNil() }
    }
}
