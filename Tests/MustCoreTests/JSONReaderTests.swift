import Foundation
import MustCore
import Testing

/// The one reader of JSON from outside: the values it reads, the texts it refuses and where, its depth limit, and
/// its cost beside decoding the same tree through JSONDecoder (printed; timing never fails a test).
@Suite struct JSONReaderTests {
    @Test func readsEveryKindOfValue() throws {
        let text = #"""
            ﻿ {"a": [1, -2.5, 3e2, 0, -0.125E-1], "s": "tab\there \"q\" \\ \/ \u00e9\ud83c\udfac\u0000",
              "t": true, "f": false, "n": null, "o": {}, "e": [], "u": "Amélie"}
            """#
        let value = try JSONReader.parse(Data(text.utf8))
        let expected: JSONValue = .object([
            "a": .array([.number(1), .number(-2.5), .number(300), .number(0), .number(-0.0125)]),
            "s": .string("tab\there \"q\" \\ / é🎬\u{0}"), "t": .bool(true), "f": .bool(false), "n": .null,
            "o": .object([:]), "e": .array([]), "u": .string("Amélie"),
        ])
        #expect(value == expected)
        #expect(try JSONReader.parse(Data("  \"x\"  ".utf8)) == .string("x"))
    }

    @Test(arguments: [
        ("", "the text ends where a value was expected at line 1, column 1"),
        (#"{"a": 1,}"#, "expected a key at line 1, column 9"),
        ("[1 2]", "expected ',' or ']' in an array at line 1, column 4"),
        ("{\"a\": \"x\n\"}", "a control character inside a string must be escaped at line 1, column 9"),
        ("[01]", "a number cannot start with 0 at line 1, column 4"),
        (#"["\x"]"#, "unknown escape in a string at line 1, column 5"),
        ("{}\n{}", "unexpected text after the JSON value at line 2, column 1"),
        ("[tru]", "expected a value at line 1, column 2"),
        (#"{"a": "open"#, "a string is not closed at line 1, column 12"),
        ("[1.]", "a number needs digits after its point at line 1, column 4"),
    ])
    func refusesWhatIsNotJSONAndSaysWhere(text: String, message: String) {
        #expect(throws: JSONReadError.self) { try JSONReader.parse(Data(text.utf8)) }
        do {
            _ = try JSONReader.parse(Data(text.utf8))
        } catch {
            #expect(error.description == message)
            #expect(!error.isTooDeep)
        }
    }

    @Test func nestingPast64IsRefusedAndBracketsInStringsDoNotCount() throws {
        let nested = { (levels: Int) in
            Data((String(repeating: "[", count: levels) + String(repeating: "]", count: levels)).utf8)
        }
        #expect(try JSONReader.parse(nested(64)) != .null)
        #expect(JSONReader.nestsWithin(nested(64)))
        do {
            _ = try JSONReader.parse(nested(65))
            Issue.record("65 levels were read")
        } catch {
            #expect(error.isTooDeep && error.description.hasPrefix("arrays or objects nest deeper than 64 levels"))
        }
        #expect(!JSONReader.nestsWithin(nested(65)))
        let quoted = Data(("{\"a\": \"" + String(repeating: "[", count: 100) + "\\\"{\"}").utf8)
        #expect(JSONReader.nestsWithin(quoted))
        #expect(try JSONReader.parse(quoted) == .object(["a": .string(String(repeating: "[", count: 100) + "\"{")]))
    }

    @Test func costBesideJSONDecoder() throws {
        // Objects 64 deep, and a flat array of numbers: the shapes a hostile sender can choose. 2 MB through the
        // reader; through JSONDecoder only 20 KB, as 2 MB of the deep shape took it 150 s in a debug build.
        func deep(_ bytes: Int) -> Data {
            var text = "["
            let one = String(repeating: "[", count: 63) + "1" + String(repeating: "]", count: 63)
            while text.utf8.count < bytes { text += one + "," }
            return Data((text + "1]").utf8)
        }
        func flat(_ bytes: Int) -> Data {
            Data(("[" + Array(repeating: "1.5", count: bytes / 4).joined(separator: ",") + "]").utf8)
        }
        let clock = ContinuousClock()
        for (name, shape) in [("64 deep", deep), ("flat numbers", flat)] {
            let (large, small) = (shape(2_000_000), shape(20_000))
            var (read, readSmall, decoded): (JSONValue?, JSONValue?, TriedValue?) = (nil, nil, nil)
            let reader = try clock.measure { read = try JSONReader.parse(large) }
            let readerSmall = try clock.measure { readSmall = try JSONReader.parse(small) }
            let decoder = try clock.measure { decoded = try JSONDecoder().decode(TriedValue.self, from: small) }
            // Read whole, and the same tree as JSONDecoder's.
            if case .array(let items) = read {
                #expect(items.count == large.filter { $0 == UInt8(ascii: ",") }.count + 1)
            } else {
                Issue.record("\(name): not an array")
            }
            #expect(decoded?.json == readSmall, "\(name)")
            print(
                "\(name): JSONReader \(reader) for \(large.count) bytes, \(readerSmall) for \(small.count); "
                    + "JSONDecoder trying each kind \(decoder) for \(small.count)")
        }
    }
}

/// JSON decoded the way mustc did before `JSONReader`: each kind tried in turn through JSONDecoder.
private enum TriedValue: Decodable {
    case null, bool(Bool), number(Double), string(String), array([TriedValue]), object([String: TriedValue])

    var json: JSONValue {
        switch self {
        case .null: .null
        case .bool(let value): .bool(value)
        case .number(let value): .number(value)
        case .string(let value): .string(value)
        case .array(let values): .array(values.map(\.json))
        case .object(let fields): .object(fields.mapValues(\.json))
        }
    }

    init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([TriedValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: TriedValue].self))
        }
    }
}
