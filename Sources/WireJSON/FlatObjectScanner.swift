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

    /// True when some byte of `bytes` is `"`, `\` or below 0x20 (exact): 16 bytes per compare,
    /// with the compiler's vector type.
    @inline(__always)
    static func mayEndString(_ bytes: SIMD16<UInt8>) -> Bool {
        // Vector operands throughout: a comparison with a scalar runs lane by lane.
        typealias V = SIMD16<UInt8>
        let stop = (bytes .== V(repeating: 0x22)) .| (bytes .== V(repeating: 0x5C)) .| (bytes .< V(repeating: 0x20))
        return hasSetLane(unsafeBitCast(stop, to: SIMD16<UInt8>.self))
    }

    /// True when some lane of `bytes` is not zero (two 64-bit words ORed, no lane-by-lane reduction).
    @inline(__always)
    static func hasSetLane(_ bytes: SIMD16<UInt8>) -> Bool {
        let words = unsafeBitCast(bytes, to: SIMD2<UInt64>.self)
        return words[0] | words[1] != 0
    }

    static func scan(_ bytes: [UInt8]) -> JSONValue? {
        guard bytes.count >= minimumLength else { return nil }
        return bytes.withUnsafeBufferPointer { input -> JSONValue? in
            var object = JSONObject()
            let complete = walkMembers(input) { key, value, _ in
                guard let key = String(validating: UnsafeBufferPointer(rebasing: input[key]), as: UTF8.self),
                    let value = String(validating: UnsafeBufferPointer(rebasing: input[value]), as: UTF8.self),
                    object[key] == nil
                else { return false }
                object.appendUnchecked(key: key, value: .string(value))
                return true
            }
            return complete ? .object(object) : nil
        }
    }

    /// Walks `{"key":"value",…}` (at least one member, plain strings only, nothing after the
    /// object), calling `visit` with each member's key and value byte ranges (without quotes)
    /// and whether both are ASCII. False when the shape is anything else or `visit` says stop.
    static func walkMembers(
        _ input: UnsafeBufferPointer<UInt8>,
        _ visit: (Range<Int>, Range<Int>, _ isASCII: Bool) -> Bool
    ) -> Bool {
        var index = 0
        let count = input.count

        func skipSpace() {
            while index < count {
                let byte = input[index]
                guard byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 else { return }
                index += 1
            }
        }

        /// A string without escapes or control characters: its content range.
        func string(_ isASCII: inout Bool) -> Range<Int>? {
            guard index < count, input[index] == UInt8(ascii: "\"") else { return nil }
            index += 1
            let start = index
            var seen: UInt64 = 0
            // Sixteen, then eight bytes at a time while none is a quote, a backslash or a control
            // byte (base64 audio is thousands of plain bytes); the byte loop below decides the rest.
            if let base = input.baseAddress {
                let raw = UnsafeRawPointer(base)
                var seenLanes = SIMD16<UInt8>()
                while index + 16 <= count {
                    let lanes = raw.loadUnaligned(fromByteOffset: index, as: SIMD16<UInt8>.self)
                    if Self.mayEndString(lanes) { break }
                    seenLanes |= lanes
                    index += 16
                }
                let seenWords = unsafeBitCast(seenLanes, to: SIMD2<UInt64>.self)
                seen = seenWords[0] | seenWords[1]
                while index + 8 <= count {
                    let word = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                    if Self.mayEndString(word) { break }
                    seen |= word
                    index += 8
                }
            }
            if seen & Self.highBits != 0 { isASCII = false }
            while index < count {
                let byte = input[index]
                if byte == UInt8(ascii: "\"") { break }
                if byte == UInt8(ascii: "\\") || byte < 0x20 { return nil }
                if byte >= 0x80 { isASCII = false }
                index += 1
            }
            guard index < count else { return nil }
            index += 1
            return start..<(index - 1)
        }

        skipSpace()
        guard index < count, input[index] == UInt8(ascii: "{") else { return false }
        index += 1
        skipSpace()
        if index < count, input[index] == UInt8(ascii: "}") { return false }  // `{}` is Jansson's (and small)
        while true {
            skipSpace()
            var isASCII = true
            guard let key = string(&isASCII) else { return false }
            skipSpace()
            guard index < count, input[index] == UInt8(ascii: ":") else { return false }
            index += 1
            skipSpace()
            guard let value = string(&isASCII), visit(key, value, isASCII) else { return false }
            skipSpace()
            guard index < count else { return false }
            if input[index] == UInt8(ascii: ",") {
                index += 1
                continue
            }
            guard input[index] == UInt8(ascii: "}") else { return false }
            index += 1
            skipSpace()
            return index == count
        }
    }
}

/// Per-frame events read in place, without a JSON tree or any string copy.
public enum InPlaceJSON {
    /// Visits the members of a flat object whose keys and values are all ASCII strings without
    /// escapes or control characters (`{"type":"input_audio_buffer.append","audio":"<base64>"}`),
    /// as byte ranges of `input` (without the quotes). Such bytes are valid JSON with exactly
    /// these members, so a caller that accepts them decides as a JSON parser would. False for
    /// any other shape or when `visit` returns false (e.g. a member it does not take in place).
    public static func visitASCIIStringMembers(
        _ input: UnsafeBufferPointer<UInt8>,
        _ visit: (_ key: Range<Int>, _ value: Range<Int>) -> Bool
    ) -> Bool {
        FlatObjectScanner.walkMembers(input) { key, value, isASCII in isASCII && visit(key, value) }
    }
}
