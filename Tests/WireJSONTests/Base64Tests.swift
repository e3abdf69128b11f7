import Testing

@testable import WireJSON

/// The package's one base64 codec (RFC 4648 test vectors).
@Suite struct Base64Tests {
    @Test(arguments: [
        ("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"), ("foob", "Zm9vYg=="), ("fooba", "Zm9vYmE="),
        ("foobar", "Zm9vYmFy"),
    ])
    func rfcVectorsRoundTrip(plain: String, encoded: String) {
        #expect(Base64.encode(Array(plain.utf8)) == encoded)
        #expect(Base64.decode(encoded) == Array(plain.utf8))
    }

    @Test func allByteValuesRoundTrip() {
        let bytes = (0..<1000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        #expect(Base64.decode(Base64.encode(bytes)) == bytes)
    }

    @Test func everyLengthRoundTripsThroughEveryEntryPoint() {
        for length in 0..<50 {
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
            let text = Base64.encode(bytes)
            #expect(text.utf8.count == Base64.encodedCount(length))
            #expect(Base64.encode(bytes[...]) == text)
            var appended = Array("x".utf8)
            bytes.withUnsafeBufferPointer { Base64.append($0, to: &appended) }
            #expect(String(decoding: appended, as: UTF8.self) == "x" + text)
            #expect(Base64.decode(text) == bytes)
            var reused: [UInt8] = [1, 2, 3, 4, 5, 6, 7, 8]
            let decoded = Array(text.utf8).withUnsafeBufferPointer { Base64.decode($0, into: &reused) }
            #expect(decoded && reused == bytes, "reused buffer, length \(length)")
            #expect(Base64.checkedDecodedCount(ofEncoded: text) == length)
            #expect(Base64.lenientDecodedCount(ofEncoded: text) == (length == 0 ? nil : length))
        }
    }

    /// The lenient count (image payloads): URL-safe characters, no padding, whitespace and a
    /// `data:` prefix are all accepted, and each gives the same count as the strict text.
    @Test func theLenientCountAcceptsURLSafeUnpaddedWrappedAndDataURLText() {
        for length in 1..<50 {
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 53 &+ 200) }
            let text = Base64.encode(bytes)
            let urlSafe = String(text.map { $0 == "+" ? "-" : $0 == "/" ? "_" : $0 })
            let unpadded = String(urlSafe.prefix { $0 != "=" })
            let wrapped = text.enumerated().map {
                $0.offset > 0 && $0.offset % 8 == 0 ? " \r\n\t" + String($0.element) : String($0.element)
            }.joined()
            for variant in [
                urlSafe, unpadded, wrapped, "data:image/png;base64," + text, "data:image/png;base64," + unpadded,
            ] {
                #expect(Base64.lenientDecodedCount(ofEncoded: variant) == length, "\(variant)")
            }
            if urlSafe != text {
                #expect(Base64.checkedDecodedCount(ofEncoded: urlSafe) == nil, "strict refuses URL-safe \(urlSafe)")
            }
            if wrapped != text {
                #expect(Base64.checkedDecodedCount(ofEncoded: wrapped) == nil, "strict refuses whitespace")
            }
        }
    }

    @Test(arguments: ["", "Z", "Zg=", "Zg===", "Zm9vY", "Z=g=", "Zm9v!", "data:image/png;base64,", "é123", "Zm9v=Zm9v"])
    func theLenientCountRefusesWhatIsNotBase64(text: String) {
        #expect(Base64.lenientDecodedCount(ofEncoded: text) == nil)
    }

    @Test(arguments: [
        "Zg=", "Zg===", "Z===", "Zm9v\n", "Zm=v", "Zm9v====", "é123", "Z=g=", "@@not base64@@", "Zm9v Zm9v",
    ])
    func invalidTextIsRejected(text: String) {
        #expect(Base64.decode(text) == nil)
        #expect(Base64.checkedDecodedCount(ofEncoded: text) == nil)
        var reused: [UInt8] = [9, 9]
        #expect(!Array(text.utf8).withUnsafeBufferPointer { Base64.decode($0, into: &reused) } && reused.isEmpty)
    }

    /// The vector codec (16 characters a step) and the group-at-a-time one agree on random
    /// bytes of every length up to a few vector steps past the tail handling.
    @Test func theVectorPathAgreesWithTheScalarPathOnRandomInput() {
        var generator = SystemRandomNumberGenerator()
        for length in 0..<700 {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let vector = bytes.withUnsafeBufferPointer { Base64.encode($0, vectorized: true) }
            let scalar = bytes.withUnsafeBufferPointer { Base64.encode($0, vectorized: false) }
            #expect(vector == scalar, "encode \(bytes)")
            let text = Array(scalar.utf8)
            let decoded = text.withUnsafeBufferPointer { Base64.decode($0, vectorized: true) }
            #expect(decoded == bytes, "decode \(scalar)")
            #expect(text.withUnsafeBufferPointer { Base64.decode($0, vectorized: false) } == bytes)
        }
    }

    /// Malformed text (random bytes, alphabet characters, `=`, NUL and high bytes written over
    /// one to three random positions) is refused, or decoded, alike by both paths.
    @Test func theVectorPathAgreesWithTheScalarPathOnMalformedInput() {
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
        let specials: [UInt8] = [
            UInt8(ascii: "="), 0, 0x80, 0xFF, UInt8(ascii: "@"), UInt8(ascii: "["), UInt8(ascii: "`"),
            UInt8(ascii: "{"), UInt8(ascii: ":"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: " "),
        ]
        var refused = 0
        for _ in 0..<5000 {
            let length = Int.random(in: 1...300, using: &generator)
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            var text = Array(Base64.encode(bytes).utf8)
            for _ in 0..<Int.random(in: 1...3, using: &generator) {
                let position = Int.random(in: 0..<text.count, using: &generator)
                switch Int.random(in: 0..<3, using: &generator) {
                case 0: text[position] = UInt8.random(in: 0...255, using: &generator)
                case 1: text[position] = alphabet.randomElement(using: &generator)!
                default: text[position] = specials.randomElement(using: &generator)!
                }
            }
            let vector = text.withUnsafeBufferPointer { Base64.decode($0, vectorized: true) }
            let scalar = text.withUnsafeBufferPointer { Base64.decode($0, vectorized: false) }
            #expect(vector == scalar, "\(String(decoding: text, as: UTF8.self))")
            if scalar == nil { refused += 1 }
        }
        #expect(refused > 2500)
    }

    /// Each byte outside the alphabet, at each position of a group, is refused: in the first and
    /// a middle group (decoded a word at a time) and in the last one (decoded byte by byte).
    @Test func everyForeignByteInEveryPositionIsRejected() {
        let valid = Array(Base64.encode((0..<30).map { UInt8($0) }).utf8)
        #expect(valid.count == 40 && !valid.contains(UInt8(ascii: "=")))
        let alphabet = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=".utf8)
        var rejected = 0
        for byte in UInt8.min...UInt8.max where !alphabet.contains(byte) {
            for position in [0, 1, 2, 3, 20, 21, 22, 23, 36, 37, 38, 39] {
                var text = valid
                text[position] = byte
                if text.withUnsafeBufferPointer({ Base64.decode($0) }) == nil { rejected += 1 }
            }
        }
        #expect(rejected == (256 - 65) * 12)
    }
}
