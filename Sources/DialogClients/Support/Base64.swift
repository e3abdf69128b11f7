/// Standard base64 (RFC 4648 §4, with padding) without Foundation.
public enum Base64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// The base64 text of `bytes`.
    public static func encode(_ bytes: some Collection<UInt8>) -> String {
        let input = Array(bytes)
        var output = [UInt8]()
        output.reserveCapacity((input.count + 2) / 3 * 4)
        var index = 0
        while index + 3 <= input.count {
            let value = UInt32(input[index]) << 16 | UInt32(input[index + 1]) << 8 | UInt32(input[index + 2])
            output += [sextet(value, 18), sextet(value, 12), sextet(value, 6), sextet(value, 0)]
            index += 3
        }
        let rest = input.count - index
        if rest == 1 {
            let value = UInt32(input[index]) << 16
            output += [sextet(value, 18), sextet(value, 12), UInt8(ascii: "="), UInt8(ascii: "=")]
        } else if rest == 2 {
            let value = UInt32(input[index]) << 16 | UInt32(input[index + 1]) << 8
            output += [sextet(value, 18), sextet(value, 12), sextet(value, 6), UInt8(ascii: "=")]
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// The bytes of base64 `text`, or nil when it is not valid padded base64.
    public static func decode(_ text: String) -> [UInt8]? {
        let input = Array(text.utf8)
        guard input.count % 4 == 0 else { return nil }
        var output = [UInt8]()
        output.reserveCapacity(input.count / 4 * 3)
        var index = 0
        while index < input.count {
            var value: UInt32 = 0
            var padding = 0
            for offset in 0..<4 {
                let character = input[index + offset]
                if character == UInt8(ascii: "=") {
                    guard index + 4 == input.count, offset >= 2 else { return nil }
                    padding += 1
                    value <<= 6
                    continue
                }
                guard padding == 0, let digit = digit(character) else { return nil }
                value = value << 6 | UInt32(digit)
            }
            output.append(UInt8(value >> 16 & 0xFF))
            if padding < 2 { output.append(UInt8(value >> 8 & 0xFF)) }
            if padding < 1 { output.append(UInt8(value & 0xFF)) }
            index += 4
        }
        return output
    }

    private static func sextet(_ value: UInt32, _ shift: UInt32) -> UInt8 { alphabet[Int(value >> shift & 0x3F)] }

    private static func digit(_ character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): character - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): character - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0") + 52
        case UInt8(ascii: "+"): 62
        case UInt8(ascii: "/"): 63
        default: nil
        }
    }
}
