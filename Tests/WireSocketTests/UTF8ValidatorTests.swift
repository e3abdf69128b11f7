import Testing

@testable import WireSocket

/// The text-message UTF-8 check against the standard library's validation, whole and split
/// into chunks at every position (a sequence may straddle two reads or two fragments).
@Suite struct UTF8ValidatorTests {
    static func validate(_ chunks: [[UInt8]]) -> Bool {
        var validator = UTF8Validator()
        for chunk in chunks {
            guard chunk.withUnsafeBytes({ validator.feed($0) }) else { return false }
        }
        return validator.finish()
    }

    static let samples: [[UInt8]] = [
        Array("plain ASCII that is longer than eight bytes {\"type\":\"x\"}".utf8),
        Array("héllo wörld – 你好 – 🎤 Κάλημέρα".utf8),
        [0xC2, 0x80], [0xDF, 0xBF], [0xE0, 0xA0, 0x80], [0xED, 0x9F, 0xBF], [0xEE, 0x80, 0x80],
        [0xF0, 0x90, 0x80, 0x80], [0xF4, 0x8F, 0xBF, 0xBF],
        // Invalid: overlong forms, surrogates, past U+10FFFF, lone continuation, cut short, bad leads.
        [0xC0, 0xAF], [0xC1, 0xBF], [0xE0, 0x9F, 0xBF], [0xED, 0xA0, 0x80], [0xED, 0xBF, 0xBF],
        [0xF0, 0x8F, 0xBF, 0xBF], [0xF4, 0x90, 0x80, 0x80], [0xF5, 0x80, 0x80, 0x80], [0xFF], [0x80],
        [0xE2, 0x82], [0xF0, 0x9F, 0x8E],
        Array("ok so far".utf8) + [
            0xCE, 0xBA, 0xE1, 0xBD, 0xB9, 0xCF, 0x83, 0xCE, 0xBC, 0xCE, 0xB5, 0xED, 0xA0, 0x80, 0x65, 0x64, 0x69, 0x74,
            0x65, 0x64,
        ],
    ]

    @Test func agreesWithTheStandardLibraryWholeAndSplitAnywhere() {
        for bytes in Self.samples {
            let expected = String(validating: bytes, as: UTF8.self) != nil
            #expect(Self.validate([bytes]) == expected, "\(bytes)")
            for cut in 0...bytes.count {
                #expect(
                    Self.validate([Array(bytes[..<cut]), Array(bytes[cut...])]) == expected, "\(bytes) cut at \(cut)")
            }
        }
    }

    /// A byte that is not UTF-8 anywhere in a long ASCII run (checked 16 and 8 bytes at a time)
    /// is found, whatever its position.
    @Test func aBadByteAnywhereInALongASCIIRunIsFound() {
        let ascii = Array(repeating: UInt8(ascii: "a"), count: 53)
        for position in ascii.indices {
            for bad: UInt8 in [0x80, 0xC0, 0xFF] {
                var bytes = ascii
                bytes[position] = bad
                #expect(!Self.validate([bytes]), "0x\(String(bad, radix: 16)) at \(position)")
            }
        }
        #expect(Self.validate([ascii]))
    }

    @Test func agreesWithTheStandardLibraryOnRandomBytes() {
        var generator = SystemRandomNumberGenerator()
        var invalid = 0
        for _ in 0..<20_000 {
            let length = Int.random(in: 0...24, using: &generator)
            // Mostly ASCII with some high bytes, so both paths and every lead byte are exercised.
            let bytes = (0..<length).map { _ in
                Bool.random(using: &generator)
                    ? UInt8.random(in: 0x20...0x7E, using: &generator)
                    : UInt8.random(in: 0x80...0xFF, using: &generator)
            }
            let expected = String(validating: bytes, as: UTF8.self) != nil
            if !expected { invalid += 1 }
            let cut = Int.random(in: 0...length, using: &generator)
            #expect(Self.validate([Array(bytes[..<cut]), Array(bytes[cut...])]) == expected, "\(bytes)")
        }
        #expect(invalid > 1000)
    }
}
