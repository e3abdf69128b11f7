import WireJSON
import Testing

/// The package's one base64 codec (RFC 4648 test vectors).
@Suite struct Base64Tests {
    @Test(arguments: [("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"), ("foob", "Zm9vYg=="), ("fooba", "Zm9vYmE="), ("foobar", "Zm9vYmFy")])
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
        }
    }

    @Test(arguments: ["Zg=", "Zg===", "Z===", "Zm9v\n", "Zm=v", "Zm9v====", "é123", "Z=g=", "@@not base64@@", "Zm9v Zm9v"])
    func invalidTextIsRejected(text: String) {
        #expect(Base64.decode(text) == nil)
        var reused: [UInt8] = [9, 9]
        #expect(!Array(text.utf8).withUnsafeBufferPointer { Base64.decode($0, into: &reused) } && reused.isEmpty)
    }
}
