package import WireJSON

/// A parsed JSON file with its source map, to turn pointer tokens into `FILE:LINE:COLUMN`.
package struct SourceDocument: Sendable {
    /// The path for messages.
    package var path: String
    /// The parsed value (nil when the file is not valid JSON).
    package var value: JSONValue?
    /// The syntax error, if any.
    package var syntaxError: Diagnostic?
    private var map: JSONSourceMap

    /// Parses `bytes`; duplicate keys are errors.
    package init(path: String, bytes: [UInt8]) {
        self.path = path
        map = JSONSourceMap(bytes: bytes)
        do {
            value = try JSONValue.decode(bytes, options: [.rejectDuplicateKeys])
        } catch {
            value = nil
            syntaxError = Diagnostic(file: path, line: error.line, column: error.column, message: error.message)
        }
    }

    /// A diagnostic at `tokens` (the key when `atKey`, else the value or its nearest parent).
    package func diagnostic(
        _ tokens: [String], _ message: String, atKey: Bool = false, severity: Diagnostic.Severity = .error
    ) -> Diagnostic {
        let pointer = JSONPointer(tokens: tokens)
        let location = (atKey ? map.keyLocation(of: pointer) : nil) ?? map.nearestLocation(of: pointer) ?? (1, 1)
        return Diagnostic(
            file: path, line: location.line, column: location.column, message: message, severity: severity)
    }
}
