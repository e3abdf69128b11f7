import QwenRealtimeEngine
import Testing

/// The module's base64 codec (RFC 4648 test vectors).
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

    @Test(arguments: ["Zg=", "Zg===", "Z===", "Zm9v\n", "Zm=v", "Zm9v====", "é123"])
    func invalidTextIsRejected(text: String) {
        #expect(Base64.decode(text) == nil)
    }
}
