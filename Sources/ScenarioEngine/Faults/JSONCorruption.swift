/// Byte-level corruption of JSON text frames that keeps them valid UTF-8 (so the WebSocket
/// layer still accepts them and the client's JSON parser is what fails).
enum JSONCorruption {
    /// The first `keepFraction` of the bytes (at least 1, fewer than all), cut back to a
    /// UTF-8 character boundary.
    static func truncate(_ bytes: [UInt8], keepFraction: Double) -> [UInt8] {
        guard bytes.count > 1 else { return [] }
        var keep = min(bytes.count - 1, max(1, Int(Double(bytes.count) * keepFraction)))
        while keep > 0, bytes[keep] & 0xC0 == 0x80 { keep -= 1 }
        return Array(bytes[..<keep])
    }

    /// The bytes with a trailing comma before the final `}` or `]` (`{"a":1,}`), or with a
    /// stray `}` appended when the text does not end in a bracket.
    static func malform(_ bytes: [UInt8]) -> [UInt8] {
        var end = bytes.count
        while end > 0, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[end - 1]) { end -= 1 }
        if end > 0, bytes[end - 1] == UInt8(ascii: "}") || bytes[end - 1] == UInt8(ascii: "]") {
            var result = bytes
            result.insert(UInt8(ascii: ","), at: end - 1)
            return result
        }
        return bytes + [UInt8(ascii: "}")]
    }
}
