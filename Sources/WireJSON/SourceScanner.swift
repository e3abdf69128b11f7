/// The tokenizer behind ``JSONSourceMap``: an iterative (stack-safe) walk over a JSON text that
/// reports where values and keys start. It stops quietly at the first syntax error, and at
/// Jansson's nesting limit: deeper documents are not decodable anyway, and every recorded pointer
/// copies its path, so unbounded depth would cost quadratic time and memory.
struct SourceScanner {
    static let maximumDepth = 2048

    private let bytes: [UInt8]
    private var index = 0
    private var line = 1
    private var column = 1

    private enum Container {
        case object
        case array(nextIndex: Int)
    }

    init(bytes: [UInt8]) { self.bytes = bytes }

    mutating func scan(
        onValue: (JSONPointer, Int, Int) -> Void,
        onKey: (JSONPointer, Int, Int) -> Void
    ) {
        var path: [String] = []
        var containers: [Container] = []
        var expectingValue = true
        while true {
            skipWhitespace()
            guard index < bytes.count else { return }
            if expectingValue {
                onValue(JSONPointer(tokens: path), line, column)
                switch bytes[index] {
                case UInt8(ascii: "{"):
                    guard containers.count < Self.maximumDepth else { return }
                    advance()
                    containers.append(.object)
                    skipWhitespace()
                    if peek(UInt8(ascii: "}")) {
                        advance()
                        containers.removeLast()
                        expectingValue = false
                        continue
                    }
                    guard readKey(into: &path, onKey: onKey) else { return }
                case UInt8(ascii: "["):
                    guard containers.count < Self.maximumDepth else { return }
                    advance()
                    containers.append(.array(nextIndex: 1))
                    skipWhitespace()
                    if peek(UInt8(ascii: "]")) {
                        advance()
                        containers.removeLast()
                        expectingValue = false
                        continue
                    }
                    path.append("0")
                case UInt8(ascii: "\""):
                    guard readString() != nil else { return }
                    expectingValue = false
                default:
                    guard skipScalar() else { return }
                    expectingValue = false
                }
                continue
            }
            // After a value: a separator or the end of the enclosing container.
            guard let container = containers.last else { return }
            let byte = bytes[index]
            advance()
            switch (container, byte) {
            case (.array(let next), UInt8(ascii: ",")):
                containers[containers.count - 1] = .array(nextIndex: next + 1)
                path[path.count - 1] = String(next)
                expectingValue = true
            case (.object, UInt8(ascii: ",")):
                path.removeLast()
                skipWhitespace()
                guard readKey(into: &path, onKey: onKey) else { return }
                expectingValue = true
            case (.array, UInt8(ascii: "]")), (.object, UInt8(ascii: "}")):
                containers.removeLast()
                path.removeLast()
            default:
                return
            }
        }
    }

    /// Reads `"key" :` and leaves the scanner before the member's value.
    private mutating func readKey(into path: inout [String], onKey: (JSONPointer, Int, Int) -> Void) -> Bool {
        let (keyLine, keyColumn) = (line, column)
        guard peek(UInt8(ascii: "\"")), let key = readString() else { return false }
        path.append(key)
        onKey(JSONPointer(tokens: path), keyLine, keyColumn)
        skipWhitespace()
        guard peek(UInt8(ascii: ":")) else { return false }
        advance()
        return true
    }

    /// Reads a string token starting at its opening quote and returns its decoded text.
    private mutating func readString() -> String? {
        advance()
        var utf8: [UInt8] = []
        var pendingHighSurrogate: UInt16?
        while index < bytes.count {
            let byte = bytes[index]
            advance()
            if byte == UInt8(ascii: "\"") { return String(decoding: utf8, as: UTF8.self) }
            guard byte == UInt8(ascii: "\\") else {
                utf8.append(byte)
                continue
            }
            guard index < bytes.count else { return nil }
            let escape = bytes[index]
            advance()
            switch escape {
            case UInt8(ascii: "b"): utf8.append(0x08)
            case UInt8(ascii: "f"): utf8.append(0x0C)
            case UInt8(ascii: "n"): utf8.append(0x0A)
            case UInt8(ascii: "r"): utf8.append(0x0D)
            case UInt8(ascii: "t"): utf8.append(0x09)
            case UInt8(ascii: "u"):
                guard let unit = readHex4() else { return nil }
                if (0xD800..<0xDC00).contains(unit) {
                    pendingHighSurrogate = unit
                    continue
                }
                var scalar = Unicode.Scalar(unit)
                if (0xDC00..<0xE000).contains(unit), let high = pendingHighSurrogate {
                    scalar = Unicode.Scalar(0x10000 + (UInt32(high) - 0xD800) << 10 + (UInt32(unit) - 0xDC00))
                }
                utf8.append(contentsOf: String(scalar.map(Character.init) ?? "\u{FFFD}").utf8)
            default: utf8.append(escape)
            }
            pendingHighSurrogate = nil
        }
        return nil
    }

    private mutating func readHex4() -> UInt16? {
        guard index + 4 <= bytes.count,
            let value = UInt16(String(decoding: bytes[index..<index + 4], as: UTF8.self), radix: 16)
        else { return nil }
        for _ in 0..<4 { advance() }
        return value
    }

    /// Skips a number or literal; false if there is nothing scalar-like here.
    private mutating func skipScalar() -> Bool {
        let start = index
        while index < bytes.count, !Self.isDelimiter(bytes[index]) { advance() }
        return index > start
    }

    private static func isDelimiter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: ","), UInt8(ascii: "]"), UInt8(ascii: "}"), UInt8(ascii: ":"), UInt8(ascii: "\""),
            UInt8(ascii: "["), UInt8(ascii: "{"), 0x20, 0x09, 0x0A, 0x0D:
            true
        default: false
        }
    }

    private func peek(_ byte: UInt8) -> Bool { index < bytes.count && bytes[index] == byte }

    private mutating func skipWhitespace() {
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { advance() }
    }

    private mutating func advance() {
        let byte = bytes[index]
        index += 1
        if byte == 0x0A {
            line += 1
            column = 1
        } else if index >= bytes.count || bytes[index] & 0xC0 != 0x80 {
            // Count a code point once its last byte is passed.
            column += 1
        }
    }
}
