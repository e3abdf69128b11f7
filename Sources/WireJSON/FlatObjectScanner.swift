/// A fast path for the commonest big frame, a flat object whose values are all strings without
/// escapes (`{"type":"input_audio_buffer.append","audio":"<base64>"}`): one pass over the bytes
/// instead of a Jansson tree and its copy. Anything else — other value types, escapes, control
/// characters, invalid UTF-8, duplicate keys, trailing bytes — returns nil and Jansson decides,
/// so results and errors stay exactly Jansson's.
enum FlatObjectScanner {
    /// Frames shorter than this go straight to Jansson (the fast path pays off on big strings).
    static let minimumLength = 512

    private static let ones: UInt64 = 0x0101_0101_0101_0101
    private static let highBits: UInt64 = 0x8080_8080_8080_8080

    /// True when some byte of `word` may be `"`, `\` or below 0x20 (exact for the first such
    /// byte; a later byte may be a false positive, which only sends the scan to the byte loop).
    @inline(__always)
    static func mayEndString(_ word: UInt64) -> Bool {
        func hasZeroByte(_ value: UInt64) -> Bool { (value &- ones) & ~value & highBits != 0 }
        let quote = hasZeroByte(word ^ (ones &* 0x22))
        let backslash = hasZeroByte(word ^ (ones &* 0x5C))
        let control = (word &- ones &* 0x20) & ~word & highBits != 0
        return quote || backslash || control
    }

    static func scan(_ bytes: [UInt8]) -> JSONValue? {
        guard bytes.count >= minimumLength else { return nil }
        return bytes.withUnsafeBufferPointer { input -> JSONValue? in
            var index = 0
            let count = input.count

            func skipSpace() {
                while index < count {
                    let byte = input[index]
                    guard byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 else { return }
                    index += 1
                }
            }

            /// A string without escapes or control characters, valid UTF-8.
            func string() -> String? {
                guard index < count, input[index] == UInt8(ascii: "\"") else { return nil }
                index += 1
                let start = index
                // Eight bytes at a time while none is a quote, a backslash or a control byte
                // (base64 audio is thousands of plain bytes); the byte loop below decides the rest.
                if let base = input.baseAddress {
                    let raw = UnsafeRawPointer(base)
                    while index + 8 <= count {
                        let word = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                        if Self.mayEndString(word) { break }
                        index += 8
                    }
                }
                while index < count {
                    let byte = input[index]
                    if byte == UInt8(ascii: "\"") { break }
                    if byte == UInt8(ascii: "\\") || byte < 0x20 { return nil }
                    index += 1
                }
                guard index < count else { return nil }
                let text = String(validating: UnsafeBufferPointer(rebasing: input[start..<index]), as: UTF8.self)
                index += 1
                return text
            }

            skipSpace()
            guard index < count, input[index] == UInt8(ascii: "{") else { return nil }
            index += 1
            var object = JSONObject()
            skipSpace()
            if index < count, input[index] == UInt8(ascii: "}") { return nil }  // `{}` is Jansson's (and small)
            while true {
                skipSpace()
                guard let key = string() else { return nil }
                skipSpace()
                guard index < count, input[index] == UInt8(ascii: ":") else { return nil }
                index += 1
                skipSpace()
                guard let value = string() else { return nil }
                guard object[key] == nil else { return nil }
                object.appendUnchecked(key: key, value: .string(value))
                skipSpace()
                guard index < count else { return nil }
                if input[index] == UInt8(ascii: ",") {
                    index += 1
                    continue
                }
                guard input[index] == UInt8(ascii: "}") else { return nil }
                index += 1
                skipSpace()
                return index == count ? .object(object) : nil
            }
        }
    }
}
