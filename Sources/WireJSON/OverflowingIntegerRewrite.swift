/// A copy of a JSON text in which every integer literal outside `Int64` gets a `.0` suffix, so
/// Jansson parses it as a real while in-range integers stay exact.
///
/// Jansson fails on such integers ("too big integer"); re-parsing everything with
/// `JSON_DECODE_INT_AS_REAL` would lose precision on large in-range integers, so the fallback
/// works per literal. Strings are skipped; the scan only has to be right for input Jansson accepts
/// apart from the overflow, and errors from the second parse are mapped back to the original text.
struct OverflowingIntegerRewrite {
    /// The rewritten text.
    private(set) var bytes: [UInt8] = []
    /// Offsets in the *original* text where `.0` was inserted, ascending.
    private(set) var insertions: [Int] = []

    init(_ original: [UInt8]) {
        bytes.reserveCapacity(original.count + 8)
        var index = 0
        while index < original.count {
            let byte = original[index]
            if byte == UInt8(ascii: "\"") {
                let end = Self.endOfString(in: original, openingQuote: index)
                bytes.append(contentsOf: original[index..<end])
                index = end
            } else if byte == UInt8(ascii: "-") || Self.isDigit(byte) {
                var end = index + 1
                while end < original.count, Self.isNumberByte(original[end]) { end += 1 }
                let token = original[index..<end]
                bytes.append(contentsOf: token)
                if Self.isOverflowingInteger(token) {
                    insertions.append(end)
                    bytes.append(contentsOf: [UInt8(ascii: "."), UInt8(ascii: "0")])
                }
                index = end
            } else {
                bytes.append(byte)
                index += 1
            }
        }
    }

    /// Translates an error found in ``bytes`` back to a location in `original`.
    func originalError(for error: JSONDecodeError, in original: [UInt8]) -> JSONDecodeError {
        let shift = 2 * insertions.enumerated().filter { $0.element + 2 * $0.offset < error.position }.count
        let position = min(max(error.position - shift, 0), original.count)
        var line = 1
        var column = 0
        for byte in original[..<position] {
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 0
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        return JSONDecodeError(line: line, column: column, position: position, message: error.message)
    }

    private static func endOfString(in text: [UInt8], openingQuote: Int) -> Int {
        var index = openingQuote + 1
        while index < text.count {
            switch text[index] {
            case UInt8(ascii: "\\"): index += 2
            case UInt8(ascii: "\""): return index + 1
            default: index += 1
            }
        }
        return text.count
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    private static func isNumberByte(_ byte: UInt8) -> Bool {
        isDigit(byte) || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E")
            || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-")
    }

    private static func isOverflowingInteger(_ token: ArraySlice<UInt8>) -> Bool {
        let digits = token.first == UInt8(ascii: "-") ? token.dropFirst() : token
        guard !digits.isEmpty, digits.allSatisfy(isDigit) else { return false }
        return Int64(String(decoding: token, as: UTF8.self)) == nil
    }
}
