import Testing
import WireJSON

@Suite struct JSONValueEncodingTests {
    @Test func encodingIsCompactAndKeepsKeyOrder() {
        let value: JSONValue = ["z": 1, "a": [true, nil, "x"], "m": [:]]
        #expect(value.encodedString() == #"{"z":1,"a":[true,null,"x"],"m":{}}"#)
        #expect(value.encoded() == Array(value.encodedString().utf8))
    }

    /// `encoded()` writes JSON itself (the per-frame path); `encodedString()` still dumps through
    /// Jansson. Both must give the same bytes for every kind of value and escape.
    @Test func nativeCompactWriterMatchesJansson() {
        var control = ""
        for scalar in 0..<0x20 { control.unicodeScalars.append(Unicode.Scalar(UInt8(scalar))) }
        let values: [JSONValue] = [
            .string(control + "\"\\/\u{7F}é漢字😀 tail"), .string(""), .int(Int64.min), .int(Int64.max), .int(-7), .int(0),
            .double(-0.0), .double(2.5e-8), .double(.infinity), .double(1e21), .bool(false), .null,
            ["key \"quoted\"": ["nested": [1, 2.5, "three", [:], []]], "\u{0}nul": "a\u{0}b", "emoji 😀": true],
            .array((0..<40).map { .string(String(repeating: "x", count: $0)) }),
        ]
        for value in values {
            #expect(String(decoding: value.encoded(), as: UTF8.self) == value.encodedString())
        }
    }

    /// The writer skips eight plain bytes at a time: a character to escape (or a multi-byte
    /// one) at any offset of a long string, and any tail length, must still match Jansson.
    @Test func escapesAtEveryOffsetMatchJansson() {
        let specials = ["\"", "\\", "\n", "\u{1}", "\u{1F}", "é", "😀", "\u{7F}"]
        for length in [7, 8, 9, 15, 16, 17, 40] {
            for offset in 0..<length {
                for special in specials {
                    var characters = Array(repeating: Character("A"), count: length)
                    characters[offset] = Character(special)
                    let value = JSONValue.string(String(characters))
                    #expect(
                        String(decoding: value.encoded(), as: UTF8.self) == value.encodedString(),
                        "length \(length), offset \(offset), \(special.debugDescription)")
                }
            }
        }
    }

    @Test func prettyEncodingIndents() {
        let value: JSONValue = ["a": [1]]
        #expect(value.encodedString(pretty: true) == "{\n  \"a\": [\n    1\n  ]\n}")
    }

    @Test(arguments: [
        (0.1, "0.1"), (100.0, "100.0"), (1e308, "1e+308"), (-0.5, "-0.5"), (Double.leastNonzeroMagnitude, "5e-324"),
        (1.0 / 3.0, "0.3333333333333333"), (123456789.125, "123456789.125"),
    ])
    func doublesUseTheShortestRoundTripText(value: Double, text: String) throws {
        #expect(JSONValue.double(value).encodedString() == text)
        #expect(try JSONValue.decode(text) == .double(value))
    }

    @Test func nonFiniteDoublesBecomeNull() {
        #expect(JSONValue.array([.double(.infinity), .double(.nan)]).encodedString() == "[null,null]")
    }

    @Test func integerLimitsRoundTrip() throws {
        for integer in [Int64.max, Int64.min, 0, -1] {
            #expect(try JSONValue.decode(JSONValue.int(integer).encoded()) == .int(integer))
        }
    }

    @Test func stringsWithNumbersInsideAreNotRewritten() {
        let value: JSONValue = ["1.50": "1.50", "e": "-2.5e3", "q": "\"1.0\""]
        #expect(value.encodedString() == #"{"1.50":"1.50","e":"-2.5e3","q":"\"1.0\""}"#)
    }

    @Test func unicodeAndControlCharactersRoundTrip() throws {
        let original: JSONValue = ["é": "é 日本 😀", "ctl": "\u{1}\u{1F}\n\t\"\\/"]
        let text = original.encodedString()
        #expect(text.contains(#"\u0001\u001F\n\t\"\\/"#))
        #expect(text.contains("😀"))
        #expect(try JSONValue.decode(text) == original)
    }

    @Test func nulRoundTripsInStringValues() throws {
        let original: JSONValue = ["a\u{0}b": "c\u{0}d"]
        #expect(original.encodedString() == #"{"a\u0000b":"c\u0000d"}"#)
        let value: JSONValue = ["k": "c\u{0}d"]
        #expect(try JSONValue.decode(value.encoded(), options: .allowNul) == value)
    }

    @Test func decodedDocumentsRoundTrip() throws {
        let text = #"{"type":"response.done","usage":{"total":12,"ratio":0.25},"items":[[],{},-7,"\u00e9"]}"#
        let value = try JSONValue.decode(text)
        #expect(try JSONValue.decode(value.encoded()) == value)
        #expect(
            value.encodedString()
                == #"{"type":"response.done","usage":{"total":12,"ratio":0.25},"items":[[],{},-7,"é"]}"#)
    }

    @Test func deepValuesEncodeWithoutRecursion() throws {
        var value: JSONValue = 1
        for _ in 0..<2000 { value = [value] }
        let text = value.encodedString()
        #expect(text.count == 4001)
        #expect(try JSONValue.decode(text) == value)
    }
}
