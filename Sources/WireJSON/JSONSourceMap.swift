/// Where each value (and each object key) of a JSON text starts, by JSON Pointer.
///
/// Jansson reports no positions for parsed values, so a small scanner walks the bytes once.
/// Lines and columns are 1-based; columns count Unicode code points, like Jansson's error
/// columns. With duplicate keys the last occurrence is kept. On malformed input the map holds
/// whatever was read before the error; nesting deeper than Jansson accepts is not mapped.
public struct JSONSourceMap: Sendable {
    /// A 1-based line and column.
    public typealias Location = (line: Int, column: Int)

    private struct Position: Sendable {
        let line: Int
        let column: Int
    }

    private var valueStarts: [JSONPointer: Position] = [:]
    private var keyStarts: [JSONPointer: Position] = [:]

    /// Scans `bytes` (a JSON text) and records where every value and key starts.
    public init(bytes: [UInt8]) {
        var scanner = SourceScanner(bytes: bytes)
        scanner.scan(
            onValue: { pointer, line, column in valueStarts[pointer] = Position(line: line, column: column) },
            onKey: { pointer, line, column in keyStarts[pointer] = Position(line: line, column: column) })
    }

    /// Scans the UTF-8 bytes of `text`.
    public init(text: String) { self.init(bytes: Array(text.utf8)) }

    /// Where the value at `pointer` starts (its first character), or `nil` if there is none.
    public func location(of pointer: JSONPointer) -> Location? {
        valueStarts[pointer].map { ($0.line, $0.column) }
    }

    /// Where the key of the object member at `pointer` starts (its opening quote), or `nil` if
    /// `pointer` does not name an object member.
    public func keyLocation(of pointer: JSONPointer) -> Location? {
        keyStarts[pointer].map { ($0.line, $0.column) }
    }

    /// The closest known location for `pointer`: the value, else its nearest existing ancestor
    /// (useful for "missing property" errors that point into a parent object).
    public func nearestLocation(of pointer: JSONPointer) -> Location? {
        var current: JSONPointer? = pointer
        while let candidate = current {
            if let found = location(of: candidate) { return found }
            current = candidate.parent
        }
        return nil
    }
}
