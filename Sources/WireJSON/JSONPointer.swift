/// An RFC 6901 JSON Pointer: a path of reference tokens into a JSON value.
///
/// Parses both the plain form (`/a/b~1c`, where `~1` is `/` and `~0` is `~`) and the URI
/// fragment form (`#/a/b%20c`, percent-decoded before the `~` escapes). The empty pointer (`""`
/// or `"#"`) is the whole document. ``description`` prints the plain form.
public struct JSONPointer: Sendable, Hashable, CustomStringConvertible {
    /// The unescaped reference tokens, outermost first.
    public let tokens: [String]

    /// The pointer to the whole document.
    public static let root = JSONPointer(tokens: [])

    /// Creates a pointer from already unescaped tokens.
    public init(tokens: [String]) { self.tokens = tokens }

    /// Parses the plain or `#`-fragment form.
    /// - Throws: ``JSONPointerError`` for text not starting with `/`, a `~` not followed by `0`
    ///   or `1`, or a bad percent escape in the fragment form.
    public init(parsing text: String) throws {
        var body = Substring(text)
        if body.first == "#" {
            body = Substring(try Self.percentDecoded(body.dropFirst(), original: text))
        }
        if body.isEmpty {
            tokens = []
            return
        }
        guard body.first == "/" else { throw JSONPointerError(text: text, reason: "must be empty or start with '/'") }
        tokens = try body.dropFirst().split(separator: "/", omittingEmptySubsequences: false).map {
            try Self.unescaped($0, original: text)
        }
    }

    /// The pointer one level deeper.
    public func appending(_ token: String) -> JSONPointer { JSONPointer(tokens: tokens + [token]) }

    /// The pointer one level up, or `nil` at the root.
    public var parent: JSONPointer? { tokens.isEmpty ? nil : JSONPointer(tokens: Array(tokens.dropLast())) }

    /// The value the pointer names in `document`, or `nil` if the path does not exist. Array
    /// tokens must be decimal indices without leading zeros; `-` (past the end) never resolves.
    public func resolve(in document: JSONValue) -> JSONValue? {
        var current = document
        for token in tokens {
            switch current {
            case .object(let object):
                guard let next = object[token] else { return nil }
                current = next
            case .array(let array):
                guard let index = Self.arrayIndex(token), index < array.count else { return nil }
                current = array[index]
            default:
                return nil
            }
        }
        return current
    }

    /// The plain form, e.g. `/a/b~1c`; the root prints as the empty string.
    public var description: String {
        tokens.map { "/" + $0.replacing("~", with: "~0").replacing("/", with: "~1") }.joined()
    }

    static func arrayIndex(_ token: String) -> Int? {
        guard let first = token.utf8.first, token.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return nil }
        if first == UInt8(ascii: "0") && token.utf8.count > 1 { return nil }
        return Int(token)
    }

    private static func unescaped(_ token: Substring, original: String) throws -> String {
        guard token.contains("~") else { return String(token) }
        var result = ""
        var iterator = token.makeIterator()
        while let character = iterator.next() {
            guard character == "~" else {
                result.append(character)
                continue
            }
            switch iterator.next() {
            case "0": result.append("~")
            case "1": result.append("/")
            default: throw JSONPointerError(text: original, reason: "'~' must be followed by '0' or '1'")
            }
        }
        return result
    }

    private static func percentDecoded(_ text: Substring, original: String) throws -> String {
        guard text.contains("%") else { return String(text) }
        var bytes: [UInt8] = []
        var utf8 = text.utf8.makeIterator()
        while let byte = utf8.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = utf8.next().flatMap(hexValue), let low = utf8.next().flatMap(hexValue) else {
                throw JSONPointerError(text: original, reason: "bad percent escape")
            }
            bytes.append(high << 4 | low)
        }
        guard let decoded = String(validating: bytes, as: UTF8.self) else {
            throw JSONPointerError(text: original, reason: "percent escapes are not UTF-8")
        }
        return decoded
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 48...57: byte - 48
        case 65...70: byte - 55
        case 97...102: byte - 87
        default: nil
        }
    }
}

/// A JSON Pointer string that could not be parsed.
public struct JSONPointerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The text as given.
    public let text: String
    /// What is wrong with it.
    public let reason: String

    public var description: String { "invalid JSON pointer \"\(text)\": \(reason)" }
}
