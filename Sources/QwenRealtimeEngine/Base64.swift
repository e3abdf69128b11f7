/// Standard base64 (RFC 4648 §4, `+/` alphabet, `=` padding) without Foundation: audio and
/// images travel base64-encoded inside Qwen JSON events.
package enum Base64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// Reverse table: byte → 6-bit value, 0xFF for bytes outside the alphabet.
    private static let reverse: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (index, byte) in alphabet.enumerated() { table[Int(byte)] = UInt8(index) }
        return table
    }()

    /// Encodes bytes with padding.
    package static func encode(_ bytes: some Collection<UInt8>) -> String {
        let input = Array(bytes)
        var output: [UInt8] = []
        output.reserveCapacity((input.count + 2) / 3 * 4)
        var index = 0
        while index + 3 <= input.count {
            let value = UInt32(input[index]) << 16 | UInt32(input[index + 1]) << 8 | UInt32(input[index + 2])
            output += [sextet(value, 18), sextet(value, 12), sextet(value, 6), sextet(value, 0)]
            index += 3
        }
        switch input.count - index {
        case 1:
            let value = UInt32(input[index]) << 16
            output += [sextet(value, 18), sextet(value, 12), UInt8(ascii: "="), UInt8(ascii: "=")]
        case 2:
            let value = UInt32(input[index]) << 16 | UInt32(input[index + 1]) << 8
            output += [sextet(value, 18), sextet(value, 12), sextet(value, 6), UInt8(ascii: "=")]
        default:
            break
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Decodes strict base64: a multiple of four characters from the alphabet, with `=` only
    /// as one or two final padding characters. Returns `nil` for anything else (the caller
    /// answers with an `invalid_value` error).
    package static func decode(_ text: String) -> [UInt8]? {
        let input = Array(text.utf8)
        guard input.count % 4 == 0 else { return nil }
        var output: [UInt8] = []
        output.reserveCapacity(input.count / 4 * 3)
        var index = 0
        while index < input.count {
            let isLast = index + 4 == input.count
            var values: [UInt32] = []
            var padding = 0
            for offset in 0..<4 {
                let byte = input[index + offset]
                if byte == UInt8(ascii: "=") {
                    // Padding only in the last group, only in its last two places, only at the end.
                    guard isLast, offset >= 2 else { return nil }
                    padding += 1
                    values.append(0)
                    continue
                }
                guard padding == 0 else { return nil }
                let value = reverse[Int(byte)]
                guard value != 0xFF else { return nil }
                values.append(UInt32(value))
            }
            let group = values[0] << 18 | values[1] << 12 | values[2] << 6 | values[3]
            output.append(UInt8(truncatingIfNeeded: group >> 16))
            if padding < 2 { output.append(UInt8(truncatingIfNeeded: group >> 8)) }
            if padding < 1 { output.append(UInt8(truncatingIfNeeded: group)) }
            index += 4
        }
        return output
    }

    /// The decoded length of a base64 text of `characters` characters (without decoding).
    package static func decodedLength(ofEncodedCount characters: Int) -> Int {
        characters / 4 * 3
    }

    private static func sextet(_ value: UInt32, _ shift: UInt32) -> UInt8 {
        alphabet[Int((value >> shift) & 0x3F)]
    }
}
