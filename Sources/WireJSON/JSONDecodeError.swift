/// Why a JSON text could not be decoded, with Jansson's own location and text.
///
/// Jansson reports the location where it stopped reading, which is usually the *end* of the
/// offending token: `line` and `column` are 1-based, `column` counts Unicode code points, and
/// `position` is the 0-based byte offset into the input.
public struct JSONDecodeError: Error, Sendable, Equatable, CustomStringConvertible {
    /// 1-based line of the error.
    public let line: Int
    /// 1-based column of the error, in Unicode code points (0 when the input is empty).
    public let column: Int
    /// Byte offset of the error from the start of the input.
    public let position: Int
    /// Jansson's description, e.g. `unexpected token near ']'`.
    public let message: String

    /// Creates an error at the given location.
    public init(line: Int, column: Int, position: Int, message: String) {
        self.line = line
        self.column = column
        self.position = position
        self.message = message
    }

    /// `LINE:COLUMN: message`, ready to be prefixed with a file name.
    public var description: String { "\(line):\(column): \(message)" }
}

/// Switches for ``JSONValue/decode(_:options:)-([UInt8],_)``. The default (`[]`) keeps the last
/// value of a duplicated key (Jansson's default) at the position of its first occurrence, and
/// rejects `\u0000` in strings.
public struct JSONDecodeOptions: OptionSet, Sendable {
    public let rawValue: Int

    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Fail on an object with the same key twice (`JSON_REJECT_DUPLICATES`).
    public static let rejectDuplicateKeys = JSONDecodeOptions(rawValue: 1 << 0)
    /// Accept `\u0000` inside strings (`JSON_ALLOW_NUL`).
    public static let allowNul = JSONDecodeOptions(rawValue: 1 << 1)
}
