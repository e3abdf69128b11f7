import Testing

@testable import WireJSON

@Suite struct JSONValueDecodingTests {
    @Test func scalarsDecodeAtTopLevel() throws {
        #expect(try JSONValue.decode("42") == .int(42))
        #expect(try JSONValue.decode("-1.5") == .double(-1.5))
        #expect(try JSONValue.decode("true") == .bool(true))
        #expect(try JSONValue.decode("null") == .null)
        #expect(try JSONValue.decode(" \"x\" ") == .string("x"))
    }

    @Test func unicodeEscapesDecode() throws {
        #expect(try JSONValue.decode(#""\u00e9""#) == .string("é"))
        #expect(try JSONValue.decode(#""\ud83d\ude00""#) == .string("😀"))
        #expect(try JSONValue.decode("\"日本語 😀\"") == .string("日本語 😀"))
        #expect(try JSONValue.decode(#""\"\\\/\b\f\n\r\t""#) == .string("\"\\/\u{8}\u{C}\n\r\t"))
    }

    @Test func integersStayExactAtInt64Limits() throws {
        #expect(try JSONValue.decode("9223372036854775807") == .int(.max))
        #expect(try JSONValue.decode("-9223372036854775808") == .int(.min))
        #expect(try JSONValue.decode("1e308") == .double(1e308))
    }

    @Test func integersBeyondInt64BecomeDoublesPerValue() throws {
        #expect(try JSONValue.decode("18446744073709551616") == .double(18_446_744_073_709_551_616))
        #expect(try JSONValue.decode("-9223372036854775809") == .double(-9_223_372_036_854_775_808.0))
        let mixed = try JSONValue.decode(
            #"{"big": 18446744073709551616, "exact": 9007199254740993, "s": "123456789012345678901"}"#)
        #expect(mixed["big"] == .double(18_446_744_073_709_551_616))
        #expect(mixed["exact"] == .int(9_007_199_254_740_993))
        #expect(mixed["s"] == .string("123456789012345678901"))
    }

    @Test func errorsAfterABigIntegerKeepOriginalPositions() {
        #expect(throws: JSONDecodeError(line: 2, column: 2, position: 28, message: "invalid token near 'x'")) {
            try JSONValue.decode("[18446744073709551616, 1,\n x]")
        }
    }

    @Test func duplicateKeysKeepTheLastValueAtTheFirstPosition() throws {
        let value = try JSONValue.decode(#"{"a": 1, "b": 3, "a": 2}"#)
        #expect(value.objectValue?.keys == ["a", "b"])
        #expect(value["a"] == .int(2))
    }

    @Test func duplicateKeysAreRejectedWhenAsked() {
        #expect(
            throws: JSONDecodeError(line: 1, column: 10, position: 10, message: #"duplicate object key near '"a"'"#)
        ) {
            try JSONValue.decode(#"{"a":1,"a":2}"#, options: .rejectDuplicateKeys)
        }
    }

    @Test func keysThatLookAlikeButDifferInCodePointsStayDistinct() throws {
        let value = try JSONValue.decode(#"{"\u00e9": 1, "e\u0301": 2}"#)
        #expect(value.objectValue?.count == 2)
        #expect(value["\u{e9}"] == .int(1))
        #expect(value["e\u{301}"] == .int(2))
    }

    @Test func keyOrderIsPreserved() throws {
        let value = try JSONValue.decode(#"{"z": 1, "a": 2, "m": {"y": 0, "b": 1}}"#)
        #expect(value.objectValue?.keys == ["z", "a", "m"])
        #expect(value["m"]?.objectValue?.keys == ["y", "b"])
    }

    @Test func nestingWithinJanssonsLimitDecodes() throws {
        let depth = 500
        let text = String(repeating: "[", count: depth) + "1" + String(repeating: "]", count: depth)
        var value = try JSONValue.decode(text)
        for _ in 0..<depth { value = try #require(value[0]) }
        #expect(value == .int(1))
    }

    @Test func nestingAtJanssonsLimitDecodesAndEncodes() throws {
        // Jansson accepts 2047 nested containers and rejects 2048.
        let depth = 2046
        let text = String(repeating: #"{"a":["#, count: depth / 2) + "1" + String(repeating: "]}", count: depth / 2)
        let value = try JSONValue.decode(text)
        #expect(value.encodedString() == text)
    }

    @Test func excessiveNestingIsAnErrorNotACrash() {
        let text = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        #expect(throws: JSONDecodeError.self) { try JSONValue.decode(text) }
    }

    @Test(arguments: [
        ("", JSONDecodeError(line: 1, column: 0, position: 0, message: "unexpected token near end of file")),
        ("[1,2", JSONDecodeError(line: 1, column: 4, position: 4, message: "']' expected near end of file")),
        ("[1,2,]", JSONDecodeError(line: 1, column: 6, position: 6, message: "unexpected token near ']'")),
        (#""\x""#, JSONDecodeError(line: 1, column: 3, position: 3, message: #"invalid escape near '"\x'"#)),
        ("[1,\n2,\n  x]", JSONDecodeError(line: 3, column: 3, position: 10, message: "invalid token near 'x'")),
        ("[\"éé\", x]", JSONDecodeError(line: 1, column: 8, position: 10, message: "invalid token near 'x'")),
        ("1 2", JSONDecodeError(line: 1, column: 3, position: 3, message: "end of file expected near '2'")),
    ])
    func malformedInputReportsJanssonsLocation(text: String, expected: JSONDecodeError) {
        #expect(throws: expected) { try JSONValue.decode(text) }
    }

    @Test func errorDescriptionIsLineColonColumn() {
        let error = JSONDecodeError(line: 3, column: 7, position: 20, message: "invalid token near 'x'")
        #expect(error.description == "3:7: invalid token near 'x'")
    }

    @Test func nulInStringsNeedsTheOption() throws {
        #expect(throws: JSONDecodeError.self) { try JSONValue.decode(#""a\u0000b""#) }
        let value = try JSONValue.decode(#"{"key": "a\u0000b"}"#, options: .allowNul)
        #expect(value["key"] == .string("a\u{0}b"))
        // Jansson never accepts NUL inside object keys.
        #expect(throws: JSONDecodeError.self) { try JSONValue.decode(#"{"k\u0000ey": 1}"#, options: .allowNul) }
    }

    @Test func invalidUTF8IsRejected() {
        #expect(throws: JSONDecodeError.self) { try JSONValue.decode([0x22, 0xFF, 0x22]) }
    }

    @Test func messageKeepsOriginalBytes() throws {
        let text = #"{ "type" : "session.update", "n": 1e2 }"#
        let message = try JSONMessage(bytes: Array(text.utf8))
        #expect(message.bytes == Array(text.utf8))
        #expect(message.text == text)
        #expect(message.value["n"] == .double(100))
    }
}

/// Big flat string objects take a fast path; every input must decode (or fail) exactly as
/// Jansson alone would.
@Suite struct FlatObjectFastPathTests {
    static let payload = String(repeating: "QUJD", count: 300)

    static func viaJansson(_ text: String) throws -> JSONValue {
        // A leading array makes the fast path decline; unwrap Jansson's result.
        try JSONValue.decode("[" + text + "]")[0]!
    }

    @Test(arguments: [
        #"{"type":"input_audio_buffer.append","audio":"PAYLOAD"}"#,
        #"  {"event_id" : "e1" ,"type":"x",  "audio":"PAYLOAD" }  "#,
        "{\n\"audio\":\"PAYLOAD\",\n\"type\":\"é漢字😀\"}",
    ])
    func acceptedShapesMatchJansson(_ template: String) throws {
        let text = template.split(separator: "PAYLOAD", omittingEmptySubsequences: false).joined(
            separator: Self.payload)
        // The fast path takes it …
        #expect(FlatObjectScanner.scan(Array(text.utf8)) != nil)
        let fast = try JSONValue.decode(text)
        #expect(fast == (try Self.viaJansson(text)))
        #expect(fast.objectValue?.keys == (try Self.viaJansson(text)).objectValue?.keys)
    }

    @Test(arguments: [
        #"{"type":"a","audio":"PAYLOAD","n":1}"#,  // a number: Jansson's
        #"{"type":"a\"b","audio":"PAYLOAD"}"#,  // an escape: Jansson's
        #"{"type":"a","type":"b","audio":"PAYLOAD"}"#,  // a duplicate key: Jansson's (last wins)
        #"{"type":"a","audio":"PAYLOAD"} x"#,  // trailing bytes: an error
        #"{"type":"a","audio":"PAYLOAD""#,  // truncated: an error
        #"{"type":"a","audio":"PAYLOAD",}"#,  // trailing comma: an error
    ])
    func otherInputsAreJanssons(_ template: String) {
        let text = template.split(separator: "PAYLOAD", omittingEmptySubsequences: false).joined(
            separator: Self.payload)
        // … and declines these.
        #expect(FlatObjectScanner.scan(Array(text.utf8)) == nil)
        let fast = Result { try JSONValue.decode(text) }
        let jansson = Result { try Self.viaJansson(text) }
        switch (fast, jansson) {
        case (.success(let a), .success(let b)): #expect(a == b)
        case (.failure, .failure): break
        default: Issue.record("fast path and Jansson disagree on \(template)")
        }
    }

    /// The word-at-a-time scan must stop at a quote, backslash or control byte wherever it
    /// falls in an eight-byte word, and must not stop at UTF-8 bytes above 0x7F.
    @Test(arguments: [UInt8(ascii: "\\"), 0x0A, 0x01, 0x1F, 0x7F, 0xC3])
    func specialBytesAreFoundAtEveryWordOffset(_ special: UInt8) throws {
        for offset in 0..<24 {
            var payload = Array(Self.payload.utf8)
            if special == 0xC3 {
                payload.replaceSubrange(offset..<(offset + 2), with: [0xC3, 0xA9])  // é
            } else if special == UInt8(ascii: "\\") {
                payload.replaceSubrange(offset..<(offset + 2), with: Array(#"\n"#.utf8))
            } else {
                payload[offset] = special
            }
            let bytes = Array(#"{"type":"a","audio":""#.utf8) + payload + Array(#""}"#.utf8)
            let fast = Result { try JSONValue.decode(bytes) }
            let jansson = Result { try JSONValue.decode([UInt8(ascii: "[")] + bytes + [UInt8(ascii: "]")])[0]! }
            switch (fast, jansson) {
            case (.success(let a), .success(let b)): #expect(a == b, "offset \(offset)")
            case (.failure, .failure): break
            default: Issue.record("fast path and Jansson disagree for byte \(special) at offset \(offset)")
            }
        }
    }

    @Test func invalidUTF8IsRejectedLikeJansson() {
        var bytes = Array(#"{"type":"a","audio":""#.utf8) + Array(Self.payload.utf8)
        bytes += [0xFF, 0xFE] + Array(#""}"#.utf8)
        #expect(throws: JSONDecodeError.self) { try JSONValue.decode(bytes) }
    }
}
