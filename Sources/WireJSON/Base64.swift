/// Standard base64 (RFC 4648 §4, `+/` alphabet, `=` padding), the one implementation of the
/// package: audio and images travel base64-encoded inside JSON events. Encoding writes straight
/// into the result's storage; decoding is strict, one pass without temporaries. Both work on 16
/// characters at a time with the compiler's vector types (`SIMD16<UInt8>`, `SIMD4<UInt32>`: range
/// compares and shifts, no table), the ends of the text a group at a time from tables.
public enum Base64 {
    @usableFromInline static let alphabet: [UInt8] = Array(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// Reverse table: byte → 6-bit value, 0xFF for bytes outside the alphabet.
    @usableFromInline static let reverse: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (index, byte) in alphabet.enumerated() { table[Int(byte)] = UInt8(index) }
        return table
    }()

    /// The base64 text of `bytes`, with padding.
    public static func encode(_ bytes: [UInt8]) -> String {
        bytes.withUnsafeBufferPointer { encode($0) }
    }

    /// The base64 text of `bytes`, with padding.
    public static func encode(_ bytes: some Collection<UInt8>) -> String {
        if let text = bytes.withContiguousStorageIfAvailable({ encode($0) }) { return text }
        return Array(bytes).withUnsafeBufferPointer { encode($0) }
    }

    /// The base64 text of `input`, with padding.
    public static func encode(_ input: UnsafeBufferPointer<UInt8>) -> String {
        encode(input, vectorized: true)
    }

    /// ``encode(_:)-(UnsafeBufferPointer<UInt8>)``; without `vectorized`, a group at a time
    /// only (tests compare the two).
    static func encode(_ input: UnsafeBufferPointer<UInt8>, vectorized: Bool) -> String {
        let length = encodedCount(input.count)
        guard length > 0 else { return "" }
        return String(unsafeUninitializedCapacity: length) { output in
            alphabet.withUnsafeBufferPointer { table in
                write(input, into: output.baseAddress!, table: table, vectorized: vectorized)
            }
            return length
        }
    }

    /// Appends the base64 text of `input` to `output` (for building a frame in place).
    public static func append(_ input: UnsafeBufferPointer<UInt8>, to output: inout [UInt8]) {
        let length = encodedCount(input.count)
        guard length > 0 else { return }
        let start = output.count
        output.append(contentsOf: repeatElement(0, count: length))
        output.withUnsafeMutableBufferPointer { buffer in
            alphabet.withUnsafeBufferPointer { table in
                write(input, into: buffer.baseAddress! + start, table: table, vectorized: true)
            }
        }
    }

    /// Characters of the encoding of `count` bytes.
    public static func encodedCount(_ count: Int) -> Int { (count + 2) / 3 * 4 }

    private static func write(
        _ input: UnsafeBufferPointer<UInt8>, into output: UnsafeMutablePointer<UInt8>,
        table: UnsafeBufferPointer<UInt8>, vectorized: Bool
    ) {
        var i = 0
        var o = 0
        let whole = input.count - input.count % 3
        #if _endian(little)
            // 12 bytes → 16 characters per step; each lane loads 4 bytes, so a step needs one
            // byte past its 12.
            if vectorized, let source = input.baseAddress {
                while i + 12 < input.count {
                    let raw = UnsafeRawPointer(source + i)
                    let words = SIMD4<UInt32>(
                        UInt32(bigEndian: raw.loadUnaligned(fromByteOffset: 0, as: UInt32.self)),
                        UInt32(bigEndian: raw.loadUnaligned(fromByteOffset: 3, as: UInt32.self)),
                        UInt32(bigEndian: raw.loadUnaligned(fromByteOffset: 6, as: UInt32.self)),
                        UInt32(bigEndian: raw.loadUnaligned(fromByteOffset: 9, as: UInt32.self)))
                    UnsafeMutableRawPointer(output + o).storeBytes(of: characters(of: words), as: SIMD16<UInt8>.self)
                    i += 12
                    o += 16
                }
            }
        #endif
        while i < whole {
            let value = UInt32(input[i]) << 16 | UInt32(input[i + 1]) << 8 | UInt32(input[i + 2])
            output[o] = table[Int(value >> 18)]
            output[o + 1] = table[Int((value >> 12) & 0x3F)]
            output[o + 2] = table[Int((value >> 6) & 0x3F)]
            output[o + 3] = table[Int(value & 0x3F)]
            i += 3
            o += 4
        }
        switch input.count - whole {
        case 1:
            let value = UInt32(input[i]) << 16
            output[o] = table[Int(value >> 18)]
            output[o + 1] = table[Int((value >> 12) & 0x3F)]
            output[o + 2] = UInt8(ascii: "=")
            output[o + 3] = UInt8(ascii: "=")
        case 2:
            let value = UInt32(input[i]) << 16 | UInt32(input[i + 1]) << 8
            output[o] = table[Int(value >> 18)]
            output[o + 1] = table[Int((value >> 12) & 0x3F)]
            output[o + 2] = table[Int((value >> 6) & 0x3F)]
            output[o + 3] = UInt8(ascii: "=")
        default:
            break
        }
    }

    /// Decodes strict base64: a multiple of four characters from the alphabet, with `=` only as
    /// one or two final padding characters. Nil for anything else.
    public static func decode(_ text: String) -> [UInt8]? {
        var text = text
        return text.withUTF8 { decode($0) }
    }

    /// Decodes strict base64 from its UTF-8 bytes (see ``decode(_:)-(String)``).
    public static func decode(_ input: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        decode(input, vectorized: true)
    }

    /// ``decode(_:)-(UnsafeBufferPointer<UInt8>)``; without `vectorized`, a group at a time
    /// only (tests compare the two).
    static func decode(_ input: UnsafeBufferPointer<UInt8>, vectorized: Bool) -> [UInt8]? {
        guard input.count % 4 == 0 else { return nil }
        guard !input.isEmpty else { return [] }
        var padding = 0
        if input[input.count - 1] == UInt8(ascii: "=") { padding = input[input.count - 2] == UInt8(ascii: "=") ? 2 : 1 }
        let length = input.count / 4 * 3 - padding
        var valid = true
        let output = [UInt8](unsafeUninitializedCapacity: length) { buffer, count in
            valid = reverse.withUnsafeBufferPointer { table in
                decode(input, padding: padding, into: buffer, table: table, vectorized: vectorized)
            }
            count = valid ? length : 0
        }
        return valid ? output : nil
    }

    /// Decodes strict base64 (see ``decode(_:)-(String)``) into `output`, reusing its storage:
    /// per-frame decoding without an allocation. False, with `output` empty, for invalid input.
    public static func decode(_ input: UnsafeBufferPointer<UInt8>, into output: inout [UInt8]) -> Bool {
        output.removeAll(keepingCapacity: true)
        guard input.count % 4 == 0 else { return false }
        guard !input.isEmpty else { return true }
        var padding = 0
        if input[input.count - 1] == UInt8(ascii: "=") { padding = input[input.count - 2] == UInt8(ascii: "=") ? 2 : 1 }
        output.append(contentsOf: repeatElement(0, count: input.count / 4 * 3 - padding))
        let valid = output.withUnsafeMutableBufferPointer { buffer in
            reverse.withUnsafeBufferPointer { table in
                decode(input, padding: padding, into: buffer, table: table, vectorized: true)
            }
        }
        if !valid { output.removeAll(keepingCapacity: true) }
        return valid
    }

    /// Decoding tables, one of 256 entries per position in a group of four characters: each
    /// entry is that character's six bits already placed in the little-endian word of the
    /// group's three bytes, so a group is four loads, three ORs and one store. Bytes outside the
    /// alphabet have bit 24 set, which no valid group has.
    @usableFromInline static let quadTable: [UInt32] = {
        var table = [UInt32](repeating: 0x0100_0000, count: 1024)
        for (index, byte) in alphabet.enumerated() {
            let value = UInt32(index)
            table[Int(byte)] = value << 2
            table[256 + Int(byte)] = value >> 4 | (value & 0xF) << 12
            table[512 + Int(byte)] = (value >> 2) << 8 | (value & 0x3) << 22
            table[768 + Int(byte)] = value << 16
        }
        return table
    }()

    private static func decode(
        _ input: UnsafeBufferPointer<UInt8>, padding: Int, into output: UnsafeMutableBufferPointer<UInt8>,
        table: UnsafeBufferPointer<UInt8>, vectorized: Bool
    ) -> Bool {
        let groups = input.count / 4
        let fullGroups = padding > 0 ? groups - 1 : groups
        guard let source = input.baseAddress, let target = output.baseAddress else {
            return fullGroups == 0 && padding == 0
        }
        var bad: UInt32 = 0
        quadTable.withUnsafeBufferPointer { quad in
            let t = quad.baseAddress!
            var i = 0
            var o = 0
            var start = 0
            #if _endian(little)
                // Four groups per step while a whole group follows them (each step writes two
                // bytes past its 12, which the next group overwrites).
                var badLanes = SIMD16<UInt8>()
                while vectorized, start + 4 < fullGroups {
                    let values = sextets(UnsafeRawPointer(source + i).loadUnaligned(as: SIMD16<UInt8>.self))
                    badLanes |= values
                    // Two lanes' 3 bytes side by side in each 64-bit half, stored as two
                    // overlapping words (their top two bytes are overwritten by what follows).
                    let words = bytes(of: unsafeBitCast(values, to: SIMD4<UInt32>.self))
                    let halves = unsafeBitCast(words, to: SIMD2<UInt64>.self)
                    let packed = (halves & 0xFF_FFFF) | ((halves &>> 8) & 0xFFFF_FF00_0000)
                    let out = UnsafeMutableRawPointer(target + o)
                    out.storeBytes(of: packed[0].littleEndian, toByteOffset: 0, as: UInt64.self)
                    out.storeBytes(of: packed[1].littleEndian, toByteOffset: 6, as: UInt64.self)
                    start += 4
                    i += 16
                    o += 12
                }
                // A byte outside the alphabet left its lane at 0xFF (valid lanes are below 64).
                if (badLanes & 0xC0) != SIMD16<UInt8>() { bad = 0x0100_0000 }
            #endif
            // Whole groups but the last are stored as one 32-bit word (the fourth byte is
            // overwritten by the next group); the last one byte by byte.
            for group in start..<fullGroups {
                let word =
                    t[Int(source[i])] | t[256 + Int(source[i + 1])] | t[512 + Int(source[i + 2])]
                    | t[768 + Int(source[i + 3])]
                bad |= word
                if group + 1 < fullGroups {
                    UnsafeMutableRawPointer(target + o).storeBytes(of: word.littleEndian, as: UInt32.self)
                } else {
                    target[o] = UInt8(truncatingIfNeeded: word)
                    target[o + 1] = UInt8(truncatingIfNeeded: word >> 8)
                    target[o + 2] = UInt8(truncatingIfNeeded: word >> 16)
                }
                i += 4
                o += 3
            }
        }
        guard bad & 0xFF00_0000 == 0 else { return false }
        guard padding > 0 else { return true }
        let i = fullGroups * 4
        let o = fullGroups * 3
        let a = table[Int(source[i])]
        let b = table[Int(source[i + 1])]
        let c = padding == 2 ? 0 : table[Int(source[i + 2])]
        guard (a | b | c) & 0xC0 == 0 else { return false }
        let value = UInt32(a) << 18 | UInt32(b) << 12 | UInt32(c) << 6
        target[o] = UInt8(truncatingIfNeeded: value >> 16)
        if padding == 1 { target[o + 1] = UInt8(truncatingIfNeeded: value >> 8) }
        return true
    }

    /// The six-bit values of 16 base64 characters; 0xFF for a byte outside the alphabet
    /// (`=` included: padding is handled by the scalar end). Every operand is a vector: a
    /// comparison with a scalar goes through the generic lane-by-lane code.
    @inline(__always)
    static func sextets(_ c: SIMD16<UInt8>) -> SIMD16<UInt8> {
        typealias V = SIMD16<UInt8>
        let upper = c &- V(repeating: 65)
        let lower = c &- V(repeating: 71)
        let digit = c &+ V(repeating: 4)
        var values = V(repeating: 0xFF)
        values = select(upper, where: upper .< V(repeating: 26), else: values)  // A–Z: 0–25
        values = select(lower, where: (c &- V(repeating: 97)) .< V(repeating: 26), else: values)  // a–z: 26–51
        values = select(digit, where: (c &- V(repeating: 48)) .< V(repeating: 10), else: values)  // 0–9: 52–61
        values = select(V(repeating: 62), where: c .== V(repeating: 43), else: values)  // +
        values = select(V(repeating: 63), where: c .== V(repeating: 47), else: values)  // /
        return values
    }

    /// The three bytes of each lane's group, little-endian in the lane's low 24 bits; each lane
    /// holds four six-bit values, the first in its low byte.
    @inline(__always)
    static func bytes(of v: SIMD4<UInt32>) -> SIMD4<UInt32> {
        ((v &<< 2) & 0xFC) | ((v &>> 12) & 0x3) | ((v &<< 4) & 0xF000) | ((v &>> 10) & 0xF00)
            | ((v &<< 6) & 0xC0_0000) | ((v &>> 8) & 0x3F_0000)
    }

    /// The 16 base64 characters of four 3-byte groups, one per lane as a big-endian 24-bit
    /// value in the lane's high bytes.
    @inline(__always)
    static func characters(of words: SIMD4<UInt32>) -> SIMD16<UInt8> {
        let indices =
            (words &>> 26) | ((words &>> 12) & 0x3F00) | ((words &<< 2) & 0x3F_0000) | ((words &<< 16) & 0x3F00_0000)
        typealias V = SIMD16<UInt8>
        let v = unsafeBitCast(indices, to: V.self)
        var offset = V(repeating: 65)  // A–Z
        offset = select(V(repeating: 71), where: v .>= V(repeating: 26), else: offset)  // a–z
        offset = select(V(repeating: 252), where: v .>= V(repeating: 52), else: offset)  // 0–9: −4
        offset = select(V(repeating: 237), where: v .== V(repeating: 62), else: offset)  // +: 43 − 62
        offset = select(V(repeating: 240), where: v .== V(repeating: 63), else: offset)  // /: 47 − 63
        return v &+ offset
    }

    /// `a` where `mask` is set, else `b` (`replacing(with:where:)` compiles to a blend; a
    /// bitwise blend through the mask's bits does not).
    @inline(__always)
    private static func select(
        _ a: SIMD16<UInt8>, where mask: SIMDMask<SIMD16<Int8>>, else b: SIMD16<UInt8>
    ) -> SIMD16<UInt8> {
        b.replacing(with: a, where: mask)
    }

    /// Bytes a padded base64 text encodes, from its length and padding alone (nil when the
    /// length is not a multiple of four); the characters are not checked.
    public static func decodedCount(ofEncoded text: String) -> Int? {
        decodedCount(ofEncoded: text.utf8)
    }

    /// Bytes a padded base64 text encodes, from its UTF-8 (see ``decodedCount(ofEncoded:)-(String)``).
    public static func decodedCount(ofEncoded utf8: some BidirectionalCollection<UInt8>) -> Int? {
        guard utf8.count % 4 == 0 else { return nil }
        let padding = utf8.reversed().prefix(2).prefix { $0 == UInt8(ascii: "=") }.count
        return utf8.count / 4 * 3 - padding
    }

    /// Bytes strict base64 text encodes, nil where ``decode(_:)-(String)`` would refuse it:
    /// every character checked, nothing decoded.
    public static func checkedDecodedCount(ofEncoded text: String) -> Int? {
        guard let (characters, padding) = scan(text.utf8, lenient: false) else { return nil }
        let count = characters + padding
        guard count % 4 == 0 else { return nil }
        return count / 4 * 3 - padding
    }

    /// Bytes lenient base64 text encodes: the standard or the URL-safe alphabet (`-_`),
    /// whitespace ignored, padding optional, a `data:…;base64,` prefix skipped (as image payloads
    /// are accepted). Nil when it is not base64 or encodes nothing; nothing is decoded.
    public static func lenientDecodedCount(ofEncoded text: String) -> Int? {
        var body = Substring(text)
        if body.hasPrefix("data:"), let comma = body.firstIndex(of: ",") {
            body = body[body.index(after: comma)...]
        }
        guard let (count, padding) = scan(body.utf8, lenient: true) else { return nil }
        guard count > 0, count % 4 != 1 else { return nil }
        if padding > 0, (count + padding) % 4 != 0 { return nil }
        return count / 4 * 3 + max(0, count % 4 - 1)
    }

    /// What lenient base64 may have between its characters.
    private static let whitespace: [UInt8] = [
        UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"),
    ]

    /// Alphabet characters and final `=`s of `utf8`; nil for a character outside the alphabet,
    /// one after padding, or more than two `=`. Lenient: URL-safe `-_` and whitespace allowed.
    private static func scan(_ utf8: some Sequence<UInt8>, lenient: Bool) -> (characters: Int, padding: Int)? {
        var characters = 0
        var padding = 0
        for byte in utf8 {
            if byte == UInt8(ascii: "=") {
                padding += 1
            } else if reverse[Int(byte)] != 0xFF || lenient && (byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_"))
            {
                guard padding == 0 else { return nil }
                characters += 1
            } else if !lenient || !Self.whitespace.contains(byte) {
                return nil
            }
        }
        return padding <= 2 ? (characters, padding) : nil
    }
}
